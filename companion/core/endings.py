"""Ends of a game that are data of the edition, checked after every action.

Where the edition's ``end.all_deeds_owned`` is set (Niente è come sembra: "the game ends when
every property has been bought"), the action that leaves every deed with a player ends the
game in the same outcome: a buy, an auction won, a square that sells a deed... So the journal
entry of that action carries the status change, and undoing it reopens the game with the deed
back where it was, as the bankruptcy that leaves one player standing does.
"""

from __future__ import annotations

from dataclasses import replace

from .state import FINISHED, RUNNING, Change, GameState, Outcome, document_change


def game_over(state: GameState) -> list[Change]:
    """The changes that end the game now: its status, with the money still waiting for a yes
    and an expropriation under way dropped (undoing the entry brings them back)."""
    changes = [Change("game", None, "status", state.status, FINISHED)]
    changes += [document_change("pending", p.id, p, None) for p in state.pending.values()]
    if state.expropriation is not None:
        changes.append(document_change("expropriation", None, state.expropriation, None))
    return changes


def owned_count(state: GameState) -> tuple[int, int]:
    """How many of the edition's deeds a player owns, and how many deeds there are."""
    deeds = state.edition.deeds
    return sum(1 for d in deeds if (ds := state.deeds.get(d.key)) is not None and ds.owner is not None), len(deeds)


def _owners_after(state: GameState, outcome: Outcome) -> dict[str, str | None]:
    owners = {d.key: (ds.owner if (ds := state.deeds.get(d.key)) is not None else None) for d in state.edition.deeds}
    for change in outcome.changes:
        if change.target == "deed" and change.field == "owner" and change.ref is not None:
            owners[change.ref] = change.after
    return owners


def ends_game(state: GameState, outcome: Outcome) -> bool:
    """Whether ``outcome``, applied to ``state``, ends the game by the edition's end
    condition: every deed owned, reached by this very outcome (it hands a deed to a player and
    leaves none with the bank), in a running game the outcome does not end already."""
    if not state.edition.end.all_deeds_owned or state.status != RUNNING:
        return False
    if any(c.target == "game" and c.field == "status" for c in outcome.changes):
        return False
    if not any(c.target == "deed" and c.field == "owner" and c.after is not None for c in outcome.changes):
        return False
    return all(owner is not None for owner in _owners_after(state, outcome).values())


def with_end(state: GameState, outcome: Outcome) -> Outcome:
    """``outcome``, ending the game as well when it leaves every deed owned where the edition
    ends the game so (``params["all_deeds_owned"]``, ``result["finished"]``): money still waiting
    for a yes and an expropriation under way are dropped with it, as when the banker ends the
    game. Any other outcome comes back as it is."""
    if not ends_game(state, outcome):
        return outcome
    touched = {(c.target, c.ref, c.field) for c in outcome.changes}
    extra = [Change("game", None, "status", state.status, FINISHED)]
    extra += [
        document_change("pending", p.id, p, None)
        for p in state.pending.values()
        if ("pending", p.id, "state") not in touched
    ]
    if state.expropriation is not None and ("expropriation", None, "state") not in touched:
        extra.append(document_change("expropriation", None, state.expropriation, None))
    return replace(
        outcome,
        changes=tuple(outcome.changes) + tuple(extra),
        params={**outcome.params, "all_deeds_owned": True},
        result={**(outcome.result or {}), "finished": True},
    )
