"""One direction of dependencies: web -> services -> core and store; store -> core; printables <- web;
the server (serve) -> the app's WSGI callable, its live layer's words, and the actions' door
(``services.door``, the same the app's routes and pages call) only. ``create_app``
(``companion/__init__.py``) puts the layers together; ``companion.extension`` types what they
share, and imports none of them.
The web layer reads of the core only what ``WEB_READS_OF_CORE`` names, each with its reason (the
core's refusals, and a few words of the game that change nothing); everything else of the core
reaches it through a service function, and the services re-export nothing of the core.
The live layer (``companion/live``: broker, events, news, newsroom, streams, fanout) is plain
Python, below the app: the server and the services' transactions use it, and it imports no
layer above it (the pages' streams and regions are the web layer's own: ``web.live``,
``web.regions``). The core and the store never import it.
Read from the imports, so a shortcut through the layers fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved against the companion package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


# The web layer's floor: no database; of the core only what ``WEB_READS_OF_CORE`` lists.
WEB_FLOOR = ("companion.store", "sqlalchemy", "flask_sqlalchemy")
WEB_FLOOR_FILES = ("companion/web",)
LIVE_LOOP = ("broker", "events", "news", "newsroom", "streams", "fanout")
LIVE_LOOP_BANS = (
    "flask",
    "flask_sqlalchemy",
    "flask_babel",
    "companion.core",
    "companion.store",
    "companion.services",
    "companion.web",
    "companion.serve",
    "companion.extension",
    "printables",
)
# What the server may know of the live layer: its words (``events``) and the streams it holds.
SERVER_KNOWS_OF_LIVE = ("companion.live.events", "companion.live.streams")

FORBIDDEN = {
    "companion/core": (
        "flask",
        "sqlalchemy",
        "flask_sqlalchemy",
        "flask_babel",
        "companion.store",
        "companion.services",
        "companion.web",
        "companion.live",
        "companion.extension",
        "companion.database",
        "printables",
    ),
    "companion/store": (
        "companion.services",
        "companion.web",
        "companion.live",
        "companion.extension",
        "flask_babel",
        "printables",
    ),
    "companion/services": (
        "companion.web",
        "flask_babel",
        "printables",
    ),
    "companion/web": WEB_FLOOR,
    # The live layer: plain Python, below the app (the server and the services use it).
    **{f"companion/live/{name}.py": LIVE_LOOP_BANS for name in LIVE_LOOP},
    "printables": ("flask", "sqlalchemy", "companion"),
    # The server knows the app only as a WSGI callable and the live layer's words: every check
    # of who asks, and every read, is the app's.
    "companion/serve": (
        "flask",
        "companion.store",
        "companion.services",
        "companion.core",
        "sqlalchemy",
        "flask_sqlalchemy",
        "flask_babel",
        "printables",
    ),
}


# What a layer may import of a room it is otherwise kept out of.
ALLOWED = {
    # The server takes the API's actions at the app's door itself, without Flask's request cycle.
    "companion/serve": ("companion.services.door",),
}


@pytest.mark.parametrize("where, banned", FORBIDDEN.items())
def test_layers_import_only_downwards(where, banned):
    """Each room imports nothing of the rooms above it (``FORBIDDEN``)."""
    paths = [ROOT / where] if where.endswith(".py") else files(where)
    assert paths
    allowed = ALLOWED.get(where, ())
    for path in paths:
        wrong = sorted(
            m
            for m in imports(path)
            if any(m == b or m.startswith(b + ".") for b in banned)
            and not any(m == a or m.startswith(a + ".") for a in allowed)
        )
        assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"


def test_the_server_knows_the_live_layer_by_its_words_only():
    for path in files("companion/serve"):
        live = {m for m in imports(path) if m == "companion.live" or m.startswith("companion.live.")}
        wrong = sorted(m for m in live if not any(m == k or m.startswith(k + ".") for k in SERVER_KNOWS_OF_LIVE))
        assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"


def test_every_module_of_the_live_layer_is_on_a_floor():
    """A new module of ``companion/live`` says which floor it is on, so its imports are held."""
    floors = {f"{name}.py" for name in LIVE_LOOP} | {"__init__.py"}
    assert {path.name for path in files("companion/live")} == floors


def _core_imports(path: Path) -> set[str]:
    return {m for m in imports(path) if m.startswith("companion.core.")}


def test_editions_stand_below_the_engine():
    """Edition loading (``core/editions``) reads files and the schema, nothing of the engine; the
    engine reads an ``Edition`` (``editions.edition``) and never loads one."""
    for path in files("companion/core/editions"):
        wrong = sorted(m for m in _core_imports(path) if not m.startswith("companion.core.editions"))
        assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"
    loading = ("loading", "schema", "upgrade", "lines")
    for path in files("companion/core"):
        if path.is_relative_to(ROOT / "companion/core/editions"):
            continue
        wrong = sorted(
            m for m in _core_imports(path) if any(m.startswith(f"companion.core.editions.{name}") for name in loading)
        )
        assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"


def test_the_engine_knows_the_counterfeit_variant_by_its_chips_only():
    """Niente è come sembra's fake money (``core/counterfeits``) builds on the engine; the engine
    hands the decoder chips back at the start and at GO, and knows nothing else of it. The table
    of every action (``core/actions``) declares the variant's too (a scan, a check, a card) and
    that a bid is paid in notes where the edition has them, as the services did before it."""
    for path in files("companion/core"):
        if path.is_relative_to(ROOT / "companion/core/counterfeits") or path.is_relative_to(
            ROOT / "companion/core/actions"
        ):
            continue
        wrong = sorted(
            m
            for m in _core_imports(path)
            if m.startswith("companion.core.counterfeits") and not m.startswith("companion.core.counterfeits.chips")
        )
        assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"


# What the web layer may read of the core directly, and why: refusals to catch and words of the
# game, none of which changes anything. A module names all of it; ``module.NAME`` that name only.
WEB_READS_OF_CORE = {
    "companion.core.errors": "the core's refusals, caught to answer in words, and N_, which marks their messages",
    "companion.core.actions": "the actions' declarations (their fields, lines and notices: data that changes "
    "nothing), which the API document, the forms, the feed and the notices read",
    "companion.core.ledger.BANK": "the bank's account, a payee the pages offer and the feed and notices name",
    "companion.core.settings.FREE_PARKING": "the Free Parking pot's account, which the feed names",
    "companion.core.parts.cash_of": "the part a player's cash is, which a deed page previews its actions from",
    "companion.core.parts.DICE": "the part a roll of the dice changes, which the pages write from a roll's news alone",
    "companion.core.parts.TURN": "the part a turn passed on changes, which the pages write from a turn's news alone",
    "companion.core.parts.CLOCK": "the part the clock changes in, which the pages write from its pause's or resumption's news alone",
    "companion.core.parts.AUCTION": "the part an auction changes, which the pages write from a bid's news alone",
    "companion.core.take_back.TAKE_BACK_SECONDS": "the take-back window, which the API document states",
    "companion.core.tournament.ROUND": "a tournament's stages, which the desk's forms name",
    "companion.core.tournament.SEMI_FINAL": "a tournament's stages, which the desk's forms name",
    "companion.core.tournament.FINAL": "a tournament's stages, which the desk's forms name",
}


def core_reads(source: str, package: str) -> set[str]:
    """What a module of ``package`` reads of the core: ``module.name`` for each name it imports
    from a core module (a submodule is a name too), the module for ``import companion.core...``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("companion.core.")}


def _allowed(read: str) -> bool:
    return any(read == allowed or read.startswith(allowed + ".") for allowed in WEB_READS_OF_CORE)


@pytest.mark.parametrize(
    "source, wrong",
    [
        ("from ..core.errors import BancoError\nfrom ..core.ledger import BANK", set()),
        ("from ..core.rules import lift_cost", {"companion.core.rules.lift_cost"}),
        ("from ..core import ledger", {"companion.core.ledger"}),
        ("from ..core.ledger import BANK, move", {"companion.core.ledger.move"}),
        ("import companion.core.policies.squares", {"companion.core.policies.squares"}),
    ],
)
def test_a_read_of_the_core_beyond_the_list_is_found(source, wrong):
    assert {r for r in core_reads(source, "companion.web") if not _allowed(r)} == wrong


def test_the_web_reads_of_the_core_only_what_the_list_names():
    read = set()
    for path in [p for where in WEB_FLOOR_FILES for p in ([ROOT / where] if where.endswith(".py") else files(where))]:
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
        reads = core_reads(path.read_text(encoding="utf-8"), package)
        wrong = sorted(r for r in reads if not _allowed(r))
        assert not wrong, (
            f"{path.relative_to(ROOT)} reads {wrong} of the core: through a service, or listed with its reason"
        )
        read |= reads
    unread = [a for a in WEB_READS_OF_CORE if not any(r == a or r.startswith(a + ".") for r in read)]
    assert not unread, f"listed but read by no web module: {unread}"


def test_the_services_re_export_nothing_of_the_core():
    """The façade (``companion.services``) imports only the services' own modules: a core name
    the web needs is read through a service function, or listed in ``WEB_READS_OF_CORE``."""
    path = ROOT / "companion/services/__init__.py"
    foreign = sorted(
        m for m in imports(path) if m != "__future__" and not m.startswith(("__future__.", "companion.services."))
    )
    assert not foreign, f"companion/services/__init__.py re-exports {foreign}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(path: Path, source: str, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports, at its top or inside a function: for
    ``from package import name`` the module ``package.name`` when there is one, else ``package``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):  # those for the type checker alone too: they say the same need
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in modules}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in modules:
                    found.add(f"{module}.{alias.name}")
                elif module in modules:
                    found.add(module)
    return found - {name}


def import_circles(paths: list[Path], read=lambda path: path.read_text(encoding="utf-8")) -> list[list[str]]:
    """The circles among the modules of ``paths``: each group of modules that import one
    another, directly or through others (Tarjan's strongly connected components)."""
    modules = {_module_name(path): path for path in paths}
    graph = {name: module_imports(path, read(path), set(modules)) for name, path in modules.items()}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in graph[module]:
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                circles.append(sorted(group))

    for module in graph:
        if module not in order:
            visit(module)
    return circles


def test_no_module_of_banco_imports_itself_round_a_circle():
    """A circle of imports (hidden by an import inside a function, or not) says two modules
    each need part of the other: that part belongs to a third, which both import."""
    assert import_circles(files("companion")) == []


def test_a_circle_hidden_inside_a_function_is_found():
    package = ROOT / "companion"
    first, second = package / "core" / "first.py", package / "core" / "second.py"
    sources = {
        first: "from .second import b\n",
        second: "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import first\n"
        "def late():\n    from .first import a\n",
    }
    assert import_circles([first, second], sources.get) == [["companion.core.first", "companion.core.second"]]


def test_an_import_for_the_type_checker_alone_is_a_circle_too():
    """Naming another module's type says the same need as calling it: such a circle is found."""
    package = ROOT / "companion" / "core"
    first, second = package / "first.py", package / "second.py"
    sources = {first: "from .second import b\n", second: "if TYPE_CHECKING:\n    from .first import a\n"}
    assert import_circles([first, second], sources.get) == [["companion.core.first", "companion.core.second"]]


def test_the_shared_parts_import_no_layer():
    """``companion.extension`` names the types of the parts it holds (the core's editions, the
    live layer's broker, newsroom and fanout, the counters), and no module of a layer that reads
    it (services, web, the server, the store): an import of one would be a circle."""
    path = ROOT / "companion" / "extension.py"
    modules = {_module_name(p) for p in files("companion")}
    readers = ("companion.services", "companion.web", "companion.serve", "companion.store")
    assert {
        module
        for module in module_imports(path, path.read_text(encoding="utf-8"), modules)
        if module.startswith(readers)
    } == set()


# The most branches one function of the application may hold (radon's cyclomatic complexity):
# past it a function no longer fits in one's head, and its cases hide one another.
MOST_COMPLEX = 20


def too_complex(paths: list[Path], read=lambda path: path.read_text(encoding="utf-8")) -> list[str]:
    """Every function or method of ``paths`` above ``MOST_COMPLEX``, as ``file:line name (n)``."""
    from radon.complexity import cc_visit

    found = []
    for path in paths:
        for block in cc_visit(read(path)):
            for function in (block, *getattr(block, "methods", ())):
                if function.complexity > MOST_COMPLEX and type(function).__name__ == "Function":
                    name = f"{function.classname}.{function.name}" if function.classname else function.name
                    found.append(f"{path.relative_to(ROOT)}:{function.lineno} {name} ({function.complexity})")
    return found


def test_no_function_of_banco_is_too_complex_to_hold_in_one_s_head():
    paths = [path for path in files("companion") if "migrations" not in path.parts]
    assert too_complex([*paths, ROOT / "app.py"]) == []


def test_a_function_with_too_many_branches_is_found():
    path = ROOT / "companion" / "core" / "branches.py"
    source = (
        "def f(x):\n"
        + "".join(f"    if x == {n}:\n        return {n}\n" for n in range(MOST_COMPLEX))
        + "    return -1\n"
    )
    assert too_complex([path], {path: source}.get) == ["companion/core/branches.py:1 f (21)"]
