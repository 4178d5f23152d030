"""Turns, where the edition has the bank keep them: whose turn it is, the round number, and a
count of every turn played (``turn_seq``), by which rules that allow something "once per turn"
know one turn from the next.

The first turn goes to the first seat when the game starts; ``end_turn`` passes it to the next
player still in the game, and a new round begins when play comes back round the table. Where
the edition sets a limit of rounds, ending the last turn of the last round ends the game.
"""
from __future__ import annotations

from .commands import require_player, require_running
from .errors import N_, RuleViolation
from .state import FINISHED, Change, GameState, Outcome, document_change


def counted(state: GameState) -> bool:
    return state.edition.turns.counted


def first_turn_changes(state: GameState, first_player: str) -> list[Change]:
    """The first turn of a game that counts them: ``first_player``'s, round 1."""
    if not counted(state):
        return []
    return [Change("game", None, "turn_player", state.turn_player, first_player),
            Change("game", None, "turn_round", state.turn_round, 1),
            Change("game", None, "turn_seq", state.turn_seq, 1)]


def view(state: GameState) -> dict | None:
    """The turn as the API shows it (``None`` where the edition does not count turns)."""
    if not counted(state):
        return None
    return {"player": state.turn_player, "number": state.turn_round, "limit": state.edition.turns.limit}


def _next_player(state: GameState, after: str | None) -> tuple[str, bool]:
    """The next player still in the game after ``after`` in seat order, and whether play went
    round the table to get there."""
    seats = list(state.players)
    start = seats.index(after) if after in state.players else -1
    for step in range(1, len(seats) + 1):
        index = (start + step) % len(seats)
        if not state.players[seats[index]].bankrupt:
            return seats[index], start + step >= len(seats)
    raise RuleViolation("no_players_left", N_("Nobody is left to play."))


def end_turn(state: GameState, by: str | None, to=None) -> Outcome:
    """Ends the current turn: the next player still in the game plays, and a new round starts
    when play goes round the table. ``by`` is the player ending it (``None``: the banker). The
    banker may name ``to``, the player who plays now (who starts, or a turn passed by
    mistake), without starting a new round. When the edition limits the rounds, ending the
    last turn of the last round ends the game.

    Refuses: an edition that does not count turns, a game not running, a player ending someone
    else's turn, a player naming who plays next, and an unknown or bankrupt ``to``.
    """
    if not counted(state):
        raise RuleViolation("turns_not_counted", N_("In this edition the bank does not keep the turns."))
    require_running(state)
    if by is not None:
        me = require_player(state, by)
        if state.turn_player != me.id:
            raise RuleViolation("not_your_turn", N_("It is not %(name)s's turn."), name=me.name)
        if to is not None:
            raise RuleViolation("banker_only_turn", N_("Only the banker can say who plays next."))
    if to is not None:
        nxt, new_round = require_player(state, to).id, False
    else:
        nxt, new_round = _next_player(state, state.turn_player)
    round_ = state.turn_round + (1 if new_round else 0)
    changes = [Change("game", None, "turn_player", state.turn_player, nxt),
               Change("game", None, "turn_seq", state.turn_seq, state.turn_seq + 1)]
    params = {"from": state.turn_player, "to": nxt, "round": round_}
    limit = state.edition.turns.limit
    if limit is not None and round_ > limit:
        # The last round is over: the game ends where it stands, turn and round as they were.
        changes = [Change("game", None, "status", state.status, FINISHED)]
        changes += [document_change("pending", p.id, p, None) for p in state.pending.values()]
        params.update(to=None, round=state.turn_round, rounds_over=True)
        return Outcome("end_turn", changes=tuple(changes), params=params,
                       result={"player": None, "number": state.turn_round, "finished": True})
    if round_ != state.turn_round:
        changes.append(Change("game", None, "turn_round", state.turn_round, round_))
    return Outcome("end_turn", changes=tuple(changes), params=params,
                   result={"player": nxt, "number": round_})


def passed_on_leaving(state: GameState, player_id: str) -> list[Change]:
    """A player leaving the game in their own turn (bankrupt) hands it to the next player
    still in; the round moves on when play goes round the table."""
    if not counted(state) or state.turn_player != player_id:
        return []
    seats = [pid for pid, p in state.players.items() if not p.bankrupt and pid != player_id]
    if not seats:
        return []
    nxt, new_round = _next_player(_without(state, player_id), player_id)
    changes = [Change("game", None, "turn_player", player_id, nxt),
               Change("game", None, "turn_seq", state.turn_seq, state.turn_seq + 1)]
    if new_round:
        changes.append(Change("game", None, "turn_round", state.turn_round, state.turn_round + 1))
    return changes


def _without(state: GameState, player_id: str) -> GameState:
    """The state as the turn sees it once ``player_id`` is out (nothing else is read)."""
    from dataclasses import replace
    players = {pid: (replace(p, bankrupt=True) if pid == player_id else p) for pid, p in state.players.items()}
    return replace(state, players=players)


def require_turn(state: GameState, player_id: str) -> None:
    """Refuses, where the edition counts turns, a player acting out of their turn."""
    if counted(state) and state.turn_player != player_id:
        raise RuleViolation("not_your_turn", N_("It is not %(name)s's turn."),
                            name=state.players[player_id].name)
