"""A forger's tools for game files: what someone who knows the format does to a file before
importing it. Every entry's digest made again, and the state made to match the journal as the
core's interpreter leaves it, so the rules, not the digests, have to find what is wrong."""

from __future__ import annotations

from typing import Any

from companion.core.changes import apply_outcome
from companion.core.editions.edition import EditionError
from companion.core.editions.loading import parse_edition
from companion.core.errors import BancoError
from companion.core.gamefile import entry_digest, state_document
from companion.core.ledger import LedgerError, Posting
from companion.core.replay import starting_state
from companion.core.settings import clean_settings, pots_for
from companion.core.state import Change, Outcome


def rechained(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with every entry's digest made again (as far as its entries are objects)."""
    previous = ""
    for entry in data["journal"]:
        if isinstance(entry, dict):
            entry["digest"] = previous = entry_digest(previous, entry)
    return data


def restated(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its state made again from its journal by the core's interpreter alone (no
    rule asked), its game's version the journal's last, and its digests made again; a journal
    the interpreter cannot follow leaves the state as it was."""
    try:
        edition = parse_edition(data["edition"]["content"])
        settings = clean_settings(data["state"]["settings"])
        seats = [(s["id"], s["name"]) for s in data["seats"]]
        state = starting_state(edition, seats, settings, pots_for(settings), seed=data["game"]["seed"])
        for entry in data["journal"]:
            postings = tuple(Posting(a, n) for a, n in entry["postings"])
            changes = tuple(Change(*c) for c in entry["changes"])
            state = apply_outcome(state, Outcome("replay", postings, changes))
        data["state"] = state_document(state)
        data["game"]["version"] = len(data["journal"])
    except (BancoError, EditionError, LedgerError, LookupError, TypeError, ValueError, AttributeError):
        pass  # a forger's tool: what the interpreter cannot follow it leaves alone
    return rechained(data)


def entries_of(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in data["journal"] if e["kind"] == kind]
