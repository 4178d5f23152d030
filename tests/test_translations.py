"""The Italian catalog keeps up with the sources, and the pages speak it.

A developer who marks a new string (``_()`` in a template, ``gettext``/``N_`` in Python) and
forgets the Italian gets a failing test here that names the string and where it lives; the
fix is the routine in docs/translating.md (extract, update, translate, compile).
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "babel.cfg"
LC_MESSAGES = ROOT / "companion" / "translations" / "it" / "LC_MESSAGES"
PO = LC_MESSAGES / "messages.po"
MO = LC_MESSAGES / "messages.mo"

# %(name)s placeholders (filled by gettext), {name} placeholders (filled by banco.js) and the
# escaped percent sign; anything else starting with % breaks new-style Jinja gettext.
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%%|\{\w+\}")


def _extracted() -> dict[str, list[str]]:
    """Every msgid in the current sources, with where it was found (as ``pybabel extract``
    with babel.cfg would find them)."""
    with CONFIG.open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, filename=str(CONFIG))
    found: dict[str, list[str]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, strip_comment_tags=True
    ):
        ids = message if isinstance(message, tuple) else (message,)
        for msgid in ids:
            if msgid:
                found.setdefault(msgid, []).append(f"{filename}:{lineno}")
    return found


def _catalog():
    with PO.open("rb") as f:
        return read_po(f, locale="it")


def _strings(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def _ids(message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _translated(catalog) -> list:
    return [m for m in catalog if m.id and not m.fuzzy]


def test_the_extraction_finds_python_refusals_and_template_strings():
    found = _extracted()
    assert len(found) > 100
    sources = {where.split(":")[0] for places in found.values() for where in places}
    assert any(s.startswith("companion/core/") for s in sources), "N_() refusals in the core"
    assert any(s.startswith("companion/web/") for s in sources), "gettext in the web layer"
    assert any(s.startswith("templates/") for s in sources), "_() in the Jinja templates"
    assert not any(s.startswith(("tests/", "printables/", "bench/")) for s in sources)


def test_every_source_string_has_an_italian_translation():
    found = _extracted()
    catalog = _catalog()
    known: dict[str, object] = {}
    for message in catalog:
        for msgid in _ids(message):
            if msgid:
                known[msgid] = message
    problems = []
    for msgid, places in sorted(found.items()):
        message = known.get(msgid)
        where = ", ".join(places[:3])
        if message is None:
            problems.append(f"missing:   {msgid!r}  ({where})")
        elif message.fuzzy:
            problems.append(f"fuzzy:     {msgid!r}  ({where})")
        elif not all(s.strip() for s in _strings(message)):
            problems.append(f"untranslated: {msgid!r}  ({where})")
    assert not problems, "The Italian catalog is behind the sources (see docs/translating.md):\n  " + "\n  ".join(
        problems
    )


def test_the_catalog_has_no_fuzzy_or_empty_entries():
    catalog = _catalog()
    assert not catalog.fuzzy, "the catalog header is marked fuzzy"
    bad = [m.id for m in catalog if m.id and (m.fuzzy or not all(s.strip() for s in _strings(m)))]
    assert not bad, f"fuzzy or empty Italian translations: {bad}"


def _contents(catalog) -> dict:
    """msgid -> msgstr of a compiled catalog (plural ids and strings as tuples)."""
    flat = lambda value: tuple(value) if isinstance(value, (list, tuple)) else value  # noqa: E731
    return {flat(m.id): flat(m.string) for m in catalog if m.id}


def test_the_committed_mo_matches_the_po():
    catalog = _catalog()
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    expected = _contents(read_mo(compiled))
    assert MO.exists(), "messages.mo is missing: run pybabel compile -d companion/translations"
    with MO.open("rb") as f:
        committed = _contents(read_mo(f))
    stale = sorted(str(k) for k in expected.keys() ^ committed.keys())
    changed = sorted(str(k) for k in expected.keys() & committed.keys() if expected[k] != committed[k])
    assert not stale and not changed, (
        "messages.mo is out of date with messages.po: run pybabel compile -d companion/translations\n"
        f"  added/removed: {stale[:10]}\n  changed: {changed[:10]}"
    )


def test_placeholders_survive_translation():
    problems = []
    for message in _translated(_catalog()):
        wanted = Counter()
        for msgid in _ids(message):
            wanted |= Counter(PLACEHOLDER.findall(msgid))
        for string in _strings(message):
            got = Counter(PLACEHOLDER.findall(string))
            if set(got) != set(wanted):
                problems.append(f"{message.id!r}: expected {sorted(wanted)}, got {sorted(got)} in {string!r}")
                continue
            # No stray percent sign: Jinja's new-style gettext %-formats every translation.
            if "%" in PLACEHOLDER.sub("", string) and "%" not in PLACEHOLDER.sub("", "".join(_ids(message))):
                problems.append(f"{message.id!r}: a lone % in {string!r} (write %%)")
                continue
            names = {
                name: 1 if kind in "dif" else "x"
                for name, kind in re.findall(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?([sdifr])", string)
            }
            if names:
                try:
                    string % names
                except (KeyError, ValueError, TypeError) as error:
                    problems.append(f"{message.id!r}: {string!r} does not format ({error})")
    assert not problems, "\n".join(problems)


# --- the pages, in Italian -------------------------------------------------------------------


@pytest.fixture
def banco(tmp_path):
    from companion import create_app
    from companion.store import db
    from tests.conftest import EDITIONS_ONCE

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'banco.sqlite3'}",
            "PUBLIC_URL": "http://banco.test",
        },
        load_editions=EDITIONS_ONCE,
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def _page(client, path="/", accept="it"):
    response = client.get(path, headers={"Accept-Language": accept})
    return response.get_data(as_text=True)


def test_the_home_page_follows_the_browser_language(banco):
    client = banco.test_client()
    italian = _page(client, accept="it-IT,it;q=0.9,en;q=0.5")
    assert '<html lang="it">' in italian
    assert "Nuova partita" in italian and "Entra in una partita" in italian
    assert "New game" not in italian
    english = _page(banco.test_client(), accept="en-GB,en;q=0.9")
    assert '<html lang="en">' in english
    assert "New game" in english and "Nuova partita" not in english


def test_a_language_nobody_speaks_here_falls_back_to_english(banco):
    assert "New game" in _page(banco.test_client(), accept="de-DE,de;q=0.9")


def test_the_lang_cookie_overrides_the_browser(banco):
    client = banco.test_client()
    response = client.get("/lang/en?next=/", headers={"Accept-Language": "it"})
    assert response.status_code in (302, 303)
    assert "New game" in _page(client, accept="it")
    client.get("/lang/it?next=/", headers={"Accept-Language": "en"})
    assert "Nuova partita" in _page(client, accept="en")


def test_a_refusal_from_the_core_is_shown_in_italian(banco):
    # An N_() message of the services, translated at display time by companion/web/errors.py.
    page = _page(banco.test_client(), "/j/ZZZZZZ", accept="it")
    assert "Nessuna partita ha questo codice" in page
