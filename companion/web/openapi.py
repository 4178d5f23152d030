"""The API described as OpenAPI 3.1, served at ``/api/openapi.json``: printed from the app's URL
map and each endpoint's declaration (``declared``), with the schemas they share (``schemas``).
A route under ``/api/`` without a declaration is left out, and the tests fail naming it."""

from __future__ import annotations

import re
from typing import Any

from flask import current_app
from werkzeug.routing import Rule

from .declared import Body, Operation, declared_of, json_content, ref, resolved
from .schemas import COMPONENTS

_VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
_WRITES = ("post", "put", "patch", "delete")
_CANNOT_SAVE = {
    "description": "The server's database cannot save now (a full disk, a read-only file): "
    "storage_unavailable, nothing changed; try again later.",
    **json_content(ref("Error")),
}


def document() -> dict:
    """The OpenAPI document of the app's JSON API; every write may also answer 503
    ``storage_unavailable``."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Banco API",
            "version": "1",
            "description": "The bank of a board game played on a real table. Money is whole units "
            "(integers). Every state change takes an optional idempotency `key`.",
        },
        "servers": [{"url": "/"}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": resolved(COMPONENTS),
        },
        "paths": paths(),
    }


def paths() -> dict[str, dict[str, Any]]:
    """Each route of the app under ``/api/`` that is declared, by its path and method."""
    described: dict[str, dict[str, Any]] = {}
    for rule in sorted(current_app.url_map.iter_rules(), key=lambda r: r.rule):
        declared = declared_of(current_app.view_functions[rule.endpoint])
        if not rule.rule.startswith("/api/") or declared is None:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            path = _VARIABLE.sub(r"{\1}", rule.rule)
            described.setdefault(path, {})[method.lower()] = _operation(rule, method.lower(), declared)
    return described


def _operation(rule: Rule, method: str, declared: Operation) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": rule.endpoint.rpartition(".")[2],
        "tags": [_tag(rule.rule)],
        "summary": declared.summary,
    }
    if declared.description:
        operation["description"] = declared.description
    if declared.security is not None:
        operation["security"] = [dict(s) for s in declared.security]
    parameters = [*_path_parameters(rule, declared), *declared.query]
    if parameters:
        operation["parameters"] = resolved(parameters)
    if declared.body is not None:
        operation["requestBody"] = _request_body(declared.body)
    operation["responses"] = resolved(declared.answers)
    if method in _WRITES:
        operation["responses"]["503"] = _may_not_save(operation["responses"].get("503"))
    return operation


def _may_not_save(declared: dict[str, Any] | None) -> dict[str, Any]:
    """A write's 503: the database that cannot save, beside the write's own 503 where it has one
    (an import past what the process takes at once)."""
    if declared is None:
        return _CANNOT_SAVE
    return {**declared, "description": f"{declared['description']} Or: {_CANNOT_SAVE['description']}"}


def _tag(rule: str) -> str:
    """The part of the API a path is in: ``/api/v1/games/...`` is ``games``."""
    parts = rule.split("/")
    return parts[3] if len(parts) > 3 and parts[2] == "v1" else "document"


def _path_parameters(rule: Rule, declared: Operation) -> list[dict[str, Any]]:
    return [
        {"name": name, "in": "path", "required": True, "schema": declared.path.get(name, {"type": "string"})}
        for name in _VARIABLE.findall(rule.rule)
    ]


def _request_body(body: Body) -> dict[str, Any]:
    return {"required": body.required, **json_content(resolved(body.schema))}
