"""A live page's regions, rendered alone: what a page fetches when an event names what changed.

A live page marks each region with the parts (``core.parts``) it shows: an element with a
stable id and ``data-parts``, drawn by a block named ``region_`` plus the id (hyphens as
underscores), of the page's template or of a template it extends (``base.html`` draws the
notices and the wallet bar of every game page). When an event names parts, the page asks its
own address again with ``?regions=id,id`` and gets ``{"version": n, "regions": {id: html}}``:
those blocks rendered alone, from the same view and authorised exactly as the whole page (the
same route answers).

The view's costly pieces are ``Lazy``: the whole page computes them all, a region only those its
block and the templates it includes name (read once from the templates' syntax trees), so a
fragment does not pay for the rest of the page.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from flask import current_app, jsonify, render_template, request
from jinja2 import nodes

MAX_REGIONS = 32  # more than any page has: the rest of a longer list is ignored


class Lazy:
    """A value of a page's view computed only when a template reads it."""

    __slots__ = ("compute",)

    def __init__(self, compute) -> None:
        self.compute = compute


def once(compute):
    """``compute`` called at the first call only; its value kept for the next ones (a piece
    several ``Lazy`` values share, such as the game's state)."""
    kept: list[Any] = []

    def value():
        if not kept:
            kept.append(compute())
        return kept[0]

    return value


def resolved(view: dict) -> dict:
    """``view`` with every ``Lazy`` computed (for the whole page)."""
    return {key: value.compute() if isinstance(value, Lazy) else value for key, value in view.items()}


def asked() -> list[str] | None:
    """The region ids the request asks for (``?regions=``), or ``None`` for the whole page."""
    raw = request.args.get("regions")
    if raw is None:
        return None
    return [name for name in raw.split(",") if name][:MAX_REGIONS]


def render(template_name: str, version: int, **view):
    """The page, or, when the request asks for ``?regions=``, those regions alone as JSON (a
    region the template does not have is left out: the page then fetches itself whole)."""
    names = asked()
    if names is None:
        return render_template(template_name, **resolved(view))
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # a LocalProxy, typed as the Flask it stands for
    template = app.jinja_env.get_template(template_name)
    blocks = {}  # region id: (the template that draws it, its block)
    for name in names:
        block = "region_" + name.replace("-", "_")
        owner = _drawn_by(app.jinja_env, template_name, block)
        if owner is not None:
            blocks[name] = (owner, block)
    read = set().union(*(_names_read(app.jinja_env, owner, block) for owner, block in blocks.values()))
    context = {
        key: value.compute() if isinstance(value, Lazy) and key in read else value for key, value in view.items()
    }
    app.update_template_context(context)
    # The page's own context, so a block nested in a region is the page's version of it.
    jinja_context = template.new_context(context)
    regions = {
        name: "".join(app.jinja_env.get_template(owner).blocks[block](jinja_context))
        for name, (owner, block) in blocks.items()
    }
    response = jsonify({"version": version, "regions": regions})
    response.headers["Cache-Control"] = "no-store"
    return response


def prepare(env) -> int:
    """Compiles every template of ``env`` and reads, for every page, which template draws each
    of its regions and what that region reads: done once when the server starts, so the first
    page or region a phone asks for after a restart is not the one that waits for it
    (``bench/bench_restart.py`` measures that first move). Returns how many templates it compiled."""
    names = env.list_templates(extensions=["html"])
    regions: dict[str, list[str]] = {}
    for name in names:
        regions[name] = [block for block in env.get_template(name).blocks if block.startswith("region_")]
    for name in names:
        chain, parent = [name], _parent(env, name)
        while parent is not None and parent not in chain:
            chain.append(parent)
            parent = _parent(env, parent)
        for block in {block for owner in chain for block in regions.get(owner, [])}:
            owner = _drawn_by(env, name, block)
            if owner is not None:
                _names_read(env, owner, block)
    _tree.cache_clear()  # every region is read: the trees (megabytes) are not needed again
    return len(names)


@cache
def _tree(env, template_name: str) -> nodes.Template:
    """The syntax tree of ``template_name``: parsed once for all the regions that read it,
    as parsing is most of what reading the regions costs."""
    return env.parse(env.loader.get_source(env, template_name)[0])


@lru_cache(maxsize=4096)
def _parent(env, template_name: str) -> str | None:
    parent = next(_tree(env, template_name).find_all(nodes.Extends), None)
    return parent.template.value if parent and isinstance(parent.template, nodes.Const) else None


# Sized for every (page, region) pair of the templates, so ``prepare`` keeps them all.
@lru_cache(maxsize=4096)
def _drawn_by(env, template_name: str | None, block: str) -> str | None:
    """The template that draws ``block`` for a page of ``template_name``: that template, or the
    nearest one it extends that has the block; ``None`` when none has it."""
    while template_name is not None:
        if block in env.get_template(template_name).blocks:
            return template_name
        template_name = _parent(env, template_name)
    return None


@lru_cache(maxsize=4096)
def _names_read(env, template_name: str, block: str) -> frozenset[str]:
    """Every name ``block`` of ``template_name`` reads, with the templates it includes."""
    found = next(node for node in _tree(env, template_name).find_all(nodes.Block) if node.name == block)
    return _names_in(env, found, set())


def _names_in(env, node, seen: set[str]) -> frozenset[str]:
    names = {name.name for name in node.find_all(nodes.Name) if name.ctx == "load"}
    for include in node.find_all(nodes.Include):
        if isinstance(include.template, nodes.Const) and include.template.value not in seen:
            seen.add(include.template.value)
            names |= _names_in(env, _tree(env, include.template.value), seen)
    return frozenset(names)
