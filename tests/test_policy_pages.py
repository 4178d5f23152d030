"""Policies explain themselves on the pages: each policy of a concern the pages show brings its
own partial (``templates/policies/<concern>/<name>.html``, included by ``policy_partial``), and
no template or web module compares a policy's name or an edition's id. Read from the templates'
and modules' syntax trees, so a comparison written back in fails here."""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
from pathlib import Path

import pytest
from jinja2 import Environment, nodes

from companion.core import policies
from companion.web.squares import SENTENCES
from companion.web.templating import policy_partial

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
WEB = ROOT / "companion" / "web"


def registries() -> dict[str, dict]:
    """Each concern's registry of policies by name (``POLICIES`` of its module)."""
    found = {}
    for module in pkgutil.iter_modules(policies.__path__):
        registry = getattr(importlib.import_module(f"{policies.__name__}.{module.name}"), "POLICIES", None)
        if registry is not None:
            found[module.name] = registry
    return found


POLICY_NAMES = {name for registry in registries().values() for name in registry}
EDITION_IDS = {
    json.loads(path.read_text(encoding="utf-8")).get("id") for path in (ROOT / "companion/editions").glob("*.json")
}
EDITION_IDS.discard(None)
NAMES = POLICY_NAMES | EDITION_IDS


def template_sources() -> dict[str, str]:
    return {str(path.relative_to(TEMPLATES)): path.read_text(encoding="utf-8") for path in TEMPLATES.rglob("*.html")}


# --- every policy of a concern the pages show has its partial ---------------------------------


def shown_concerns() -> set[str]:
    """The concerns whose policies the templates include by name: ``policy_partial('<concern>', ...)``."""
    env = Environment()
    shown = set()
    for source in template_sources().values():
        for call in env.parse(source).find_all(nodes.Call):
            if isinstance(call.node, nodes.Name) and call.node.name == "policy_partial":
                concern = call.args[0]
                assert isinstance(concern, nodes.Const), "policy_partial names its concern in the template"
                shown.add(concern.value)
    return shown


def test_the_pages_show_policies_through_their_partials():
    assert {"squares", "valuation", "rent"} <= shown_concerns() <= set(registries())
    folders = {path.name for path in (TEMPLATES / "policies").iterdir() if path.is_dir()}
    assert folders == shown_concerns(), "a folder of partials no template includes"


@pytest.mark.parametrize("concern", sorted(shown_concerns()))
def test_every_policy_of_a_shown_concern_brings_its_partial(concern):
    registry = registries()[concern]
    missing = [name for name in registry if not (TEMPLATES / policy_partial(concern, name)).is_file()]
    assert not missing, f"{concern} policies without their partial: {missing}"
    strays = sorted(p.stem for p in (TEMPLATES / policy_partial(concern, "x")).parent.glob("*.html"))
    assert set(strays) <= set(registry), f"partials of no {concern} policy: {set(strays) - set(registry)}"


def test_every_square_policy_brings_its_feed_sentence():
    assert set(SENTENCES) == set(registries()["squares"])


# --- no template or web module compares a policy's name -----------------------------------


def _named(node) -> bool:
    """A name of a policy or an edition, alone or in a tuple, list or set literal."""
    if isinstance(node, nodes.Const | ast.Constant):
        return isinstance(node.value, str) and node.value in NAMES
    if isinstance(node, nodes.Tuple | nodes.List | ast.Tuple | ast.List | ast.Set):
        return any(_named(item) for item in (node.items if isinstance(node, nodes.Node) else node.elts))
    return False


def _policy(node) -> bool:
    """A policy read off the edition's data (``square.policy``, ``edition.rent.policy``)."""
    if isinstance(node, nodes.Getattr):
        return node.attr == "policy"
    return isinstance(node, ast.Attribute) and node.attr == "policy"


def template_comparisons(source: str) -> list[str]:
    """Each comparison in a template of a policy read off the data, or of a policy's or an
    edition's name: ``sq.policy == 'sit_out'``, ``x in ('a', 'b')``, ``edition.id != 'motopolis'``."""
    wrong = []
    for compare in Environment().parse(source).find_all(nodes.Compare):
        operands = [compare.expr] + [op.expr for op in compare.ops]
        if any(_named(o) or _policy(o) for o in operands):
            wrong.append(f"line {compare.lineno}")
    return wrong


def module_comparisons(source: str) -> list[str]:
    """The same in a Python module, with names kept in module constants followed:
    ``square.policy in SQUARES_WITHOUT_DICE`` as well as ``policy == "buy_free_deed"``."""
    tree = ast.parse(source)
    constants = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and _named(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    wrong = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_named(o) or _policy(o) or (isinstance(o, ast.Name) and o.id in constants) for o in operands):
                wrong.append(f"line {node.lineno}")
        elif isinstance(node, ast.Match) and any(
            isinstance(case.pattern, ast.MatchValue) and _named(case.pattern.value) for case in node.cases
        ):
            wrong.append(f"line {node.lineno}")
    return wrong


@pytest.mark.parametrize(
    "source",
    [
        "{% if sq.policy == 'sit_out' %}x{% endif %}",
        "{% if edition.valuation.policy != x %}x{% endif %}",
        "{{ 'a' if kind in ('pay_per_holding', 'b') else 'c' }}",
        "{% if edition.id == 'motopolis' %}x{% endif %}",
    ],
)
def test_a_comparison_in_a_template_is_found(source):
    assert template_comparisons(source) == ["line 1"]


@pytest.mark.parametrize(
    "source",
    [
        'if square.policy == "buy_free_deed": pass',
        'WITHOUT = ("pay_per_holding", "sit_out")\nok = square.kind in WITHOUT',
        'ok = policy in {"collect_then_pay"}',
        'ok = game.edition_id != "petropolis"',
        'match policy:\n    case "jail_unless_dice": pass',
    ],
)
def test_a_comparison_in_a_module_is_found(source):
    assert module_comparisons(source)


@pytest.mark.parametrize("name, source", sorted(template_sources().items()))
def test_no_template_compares_a_policy_name(name, source):
    assert not template_comparisons(source), f"{name} compares a policy's name"


@pytest.mark.parametrize("path", sorted(WEB.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_web_module_compares_a_policy_name(path):
    found = module_comparisons(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} compares a policy's name at {found}"
