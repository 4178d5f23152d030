"""Each JSON endpoint declared once, beside its route: what it is, the body it reads and the
answers it gives. The route reads its body through its declaration (``body``), strictly; the
OpenAPI document (``openapi``) prints the same declarations over the app's URL map, so an
endpoint cannot read one body and be described with another.

A schema may hold parts known only once the app runs (the editions it offers): ``Later``,
worked out when the document is printed (``resolved``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, request

from ..services.bodies import read_declared

Schema = Mapping[str, Any]
BEARER: tuple[dict[str, list[str]], ...] = ({"bearer": []},)


@dataclass(frozen=True)
class Later:
    """A part of a schema that the app knows only when it runs: ``make`` gives it."""

    make: Callable[[], Any]


def resolved(part: Any) -> Any:
    """``part`` with every ``Later`` in it worked out, at any depth."""
    if isinstance(part, Later):
        return resolved(part.make())
    if isinstance(part, Mapping):
        return {name: resolved(value) for name, value in part.items()}
    if isinstance(part, (list, tuple)):
        return [resolved(value) for value in part]
    return part


@dataclass(frozen=True)
class Body:
    """A request's JSON body: its ``schema`` (closed objects refuse a field they do not name),
    an ``example`` the endpoint takes (the tests send it with a field too many, or a key twice;
    the document leaves it out, as the fuzzing would mix it into its cases), and whether it may
    be left out. A body that is a file
    with a reader of its own (an edition, a game file) is refused by that reader, with the
    codes ``unknown_code`` (a field too many) and ``twice_code`` (a key given twice)."""

    schema: Schema
    example: Mapping[str, Any]
    required: bool = True
    unknown_code: str = "unknown_field"
    twice_code: str = "duplicate_key"


@dataclass(frozen=True)
class Operation:
    """One endpoint: the words of the document (``summary``, ``description``), the ``answers``
    by status, its ``body``, the schemas of its path's variables (text when left out), the
    query's parameters and its ``security`` (none: anyone may call it)."""

    summary: str
    answers: Mapping[str, Any]
    description: str = ""
    body: Body | None = None
    path: Mapping[str, Schema] = field(default_factory=dict)
    query: tuple[Mapping[str, Any], ...] = ()
    security: tuple[Mapping[str, list[str]], ...] | None = None


# Each declared view function, with its declaration: the views live as long as the process.
_DECLARED: dict[Callable[..., Any], Operation] = {}


def declare(operation: Operation) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Gives a view its declaration; put it under the route's decorator."""

    def mark(view: Callable[..., Any]) -> Callable[..., Any]:
        _DECLARED[view] = operation
        return view

    return mark


def declared_of(view: Callable[..., Any]) -> Operation | None:
    """The declaration of a view, if it has one."""
    return _DECLARED.get(view)


def body() -> dict:
    """The request's JSON object, read by its endpoint's declared body (``bodies.read_declared``):
    refuses what is not one JSON object, a key given twice and a field the body does not know,
    each naming it. An empty body is the empty object where the body may be left out."""
    operation = declared_of(current_app.view_functions[request.endpoint or ""])
    if operation is None or operation.body is None:
        raise LookupError(f"{request.endpoint} declares no body")  # a route reading a body must declare it
    raw = request.get_data(cache=True)
    if not raw and not operation.body.required:
        return {}
    return read_declared(raw, operation.body.schema)


# --- the parts of a declaration -------------------------------------------------------------------


def ref(name: str) -> dict:
    """The schema named ``name`` among the document's components."""
    return {"$ref": f"#/components/schemas/{name}"}


def json_content(schema: Schema) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def reply(description: str, schema: Schema | None = None) -> dict:
    """An answer with a JSON ``schema`` (any object when left out)."""
    return {"description": description, **json_content(schema if schema is not None else {"type": "object"})}


def refusals(*codes: int) -> dict:
    """The error answers ``codes``, each the API's error shape."""
    return {str(code): {"description": "Refused; nothing changed.", **json_content(ref("Error"))} for code in codes}


def closed(properties: Mapping[str, Any], required: tuple[str, ...] = (), **more: Any) -> dict:
    """A request body's object that names every field it takes: any other is refused."""
    schema: dict[str, Any] = {"type": "object"}
    if required:
        schema["required"] = list(required)
    return {**schema, **more, "properties": dict(properties), "additionalProperties": False}
