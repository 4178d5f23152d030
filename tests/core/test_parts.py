"""Every entry names the parts of the game it changed (``core.parts``): every kind, every game
field, every document and every player's and deed's field has parts, so a live page never
misses a change it shows."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from companion.core import parts
from companion.core.state import DOCUMENT_FIELDS, GAME_SCALARS, DeedState, PlayerState

COMPANION = Path(__file__).resolve().parents[2] / "companion"


def _kinds_in_the_code() -> set[str]:
    """Every kind an entry is made with (``Outcome("kind"``) or the feed puts in words
    (``kind == "kind"``, ``kind in ("a", "b")`` in ``web/feed.py``: every kind has its line)."""
    kinds = set()
    for path in COMPANION.rglob("*.py"):
        kinds |= set(re.findall(r'Outcome\(\s*"(\w+)"', path.read_text(encoding="utf-8")))
    feed = (COMPANION / "web" / "feed.py").read_text(encoding="utf-8")
    kinds |= set(re.findall(r'\bkind\s*==\s*"(\w+)"', feed))
    for group in re.findall(r"\bkind in \(([^)]*)\)", feed):
        kinds |= set(re.findall(r'"(\w+)"', group))
    return kinds


def test_every_kind_of_entry_is_declared():
    found = _kinds_in_the_code()
    assert len(found) > 40  # the search still finds them
    assert found - set(parts.KINDS) == set()


def test_every_field_and_document_the_rules_change_has_parts():
    assert set(parts.GAME_FIELDS) == set(GAME_SCALARS)
    assert set(parts.DOCUMENTS) == set(DOCUMENT_FIELDS)
    assert fields(PlayerState) and fields(DeedState)  # a player's or deed's field: "players", "deeds"
    for target, field in [("player", f.name) for f in fields(PlayerState)] + [
        ("deed", f.name) for f in fields(DeedState)
    ]:
        assert parts.of_change(target, field) < parts.ALL
    for names in [
        *parts.GAME_FIELDS.values(),
        *parts.DOCUMENTS.values(),
        *parts.TARGETS.values(),
        *parts.KINDS.values(),
    ]:
        assert names <= parts.ALL


def test_an_entry_names_what_it_changed():
    assert parts.of_entry("transfer", ["anna", "bruno"], ()) == {"cash", "cash:anna", "cash:bruno", "feed"}
    assert parts.of_entry("bid", (), [("auction", "state")]) == {"auction", "feed"}
    assert parts.of_entry("build", ["anna", "bank"], [("deed", "houses"), ("game", "bank_small")]) == {
        "cash",
        "cash:anna",
        "cash:bank",
        "deeds",
        "feed",
    }
    assert parts.of_entry("end", (), [("game", "status")]) == {"status", "clock", "feed"}
    assert parts.of_entry("join", (), ()) == {"players", "feed"}
    assert parts.of_entry("request", (), [("pending", "state")]) == {"requests", "feed"}


def test_one_accounts_cash_is_a_part():
    assert parts.cash_of("x7k2m9pq") == "cash:x7k2m9pq" and parts.is_part("cash:free_parking")
    assert parts.is_part("deeds") and not parts.is_part("cash:") and not parts.is_part("money")
    assert not parts.is_part("cash:a b") and not parts.is_part("cash:a,b")


def test_what_is_not_declared_changes_everything():
    assert parts.of_entry("a_kind_from_tomorrow", (), ()) == parts.ALL
    assert parts.of_entry("transfer", (), [("game", "a_field_from_tomorrow")]) == parts.ALL
    assert parts.of_entry("transfer", (), [("a_document_from_tomorrow", "state")]) == parts.ALL
