"""Turns, where the edition has the bank keep them: whose turn it is, the round number, and a
count of every turn played (``turn_seq``), by which rules that allow something "once per turn"
know one turn from the next.

The first turn goes to the first seat when the game starts; ``end_turn`` passes it to the next
player still in the game, and a new round begins when play comes back round the table. Where
the edition sets a limit of rounds, ending the last turn of the last round ends the game.

A player who must sit out turns (``PlayerState.skip_turns``, set by a square such as
Motopolis' Sosta bisognino) is passed over, one turn each time, and may trade again once the
last has passed. Where the edition's jail counts turns, each turn a jailed player begins counts
(``PlayerState.jail_turns``), and after ``jail.turns`` of them the player is out for free.
"""

from __future__ import annotations

from typing import Any

from .endings import game_over
from .errors import N_, RuleViolation
from .guards import require_player, require_running
from .state import Change, GameState, Outcome


def counted(state: GameState) -> bool:
    return state.edition.turns.counted


def marked(state: GameState) -> bool:
    """Whether the table marks its turns in Banco: the bank keeps them and a turn has been
    ended once. Until then Banco takes it that the table does not (the game's first turn would
    otherwise stretch over the whole game), and rules bound to the turn in play wait."""
    return counted(state) and state.turn_player is not None and state.turn_seq > 1


def first_turn_changes(state: GameState, first_player: str) -> list[Change]:
    """The first turn of a game that counts them: ``first_player``'s, round 1."""
    if not counted(state):
        return []
    return [
        Change("game", None, "turn_player", state.turn_player, first_player),
        Change("game", None, "turn_round", state.turn_round, 1),
        Change("game", None, "turn_seq", state.turn_seq, 1),
        *_turn_start(state, first_player, []),
    ]


def _turn_start(state: GameState, player_id: str, mortgaged: list[str] | None = None) -> list[Change]:
    """What the turn remembers of its player as it begins: the deeds they have mortgaged."""
    if mortgaged is None:
        mortgaged = sorted(k for k, ds in state.deeds.items() if ds.owner == player_id and ds.mortgaged)
    if mortgaged == state.turn_start_mortgaged:
        return []
    return [Change("game", None, "turn_start_mortgaged", state.turn_start_mortgaged, mortgaged)]


def mortgaged_this_turn(state: GameState, player_id: str) -> set[str]:
    """The deeds ``player_id`` mortgaged during their own turn (none outside it, or where the
    bank does not keep the turns). Until a turn has been ended once, the table is taken not to
    be marking turns: the game's first turn would otherwise stretch over the whole game."""
    if not marked(state) or state.turn_player != player_id or state.turn_start_mortgaged is None:
        return set()
    return {
        k
        for k, ds in state.deeds.items()
        if ds.owner == player_id and ds.mortgaged and k not in state.turn_start_mortgaged
    }


def view(state: GameState) -> dict[str, Any] | None:
    """The turn as the API shows it (``None`` where the edition does not count turns):
    ``marked`` says whether the table marks its turns (``marked``)."""
    if not counted(state):
        return None
    return {
        "player": state.turn_player,
        "number": state.turn_round,
        "limit": state.edition.turns.limit,
        "marked": marked(state),
    }


def _next_to_play(state: GameState, after: str | None) -> tuple[str, bool, list[str]]:
    """The next player still in the game after ``after`` who does not sit this turn out,
    whether play went round the table to get there, and the players passed over (each sits out
    one turn)."""
    seats = list(state.players)
    start = seats.index(after) if after is not None and after in state.players else -1
    skipped: list[str] = []
    for step in range(1, 2 * len(seats) + 1):
        player = state.players[seats[(start + step) % len(seats)]]
        if player.bankrupt:
            continue
        if player.skip_turns and player.id not in skipped:
            skipped.append(player.id)
            continue
        return player.id, start + step >= len(seats), skipped
    raise RuleViolation("no_players_left", N_("Nobody is left to play."))


def _sat_out(state: GameState, skipped: list[str]) -> list[Change]:
    """Each passed-over player has one turn less to sit out, and trades again after the last."""
    changes = []
    for pid in skipped:
        player = state.players[pid]
        left = player.skip_turns - 1
        changes.append(Change("player", pid, "skip_turns", player.skip_turns, left))
        if left == 0 and player.no_trades:
            changes.append(Change("player", pid, "no_trades", True, False))
    return changes


def _jail_turn(state: GameState, player_id: str) -> tuple[list[Change], bool]:
    """The turn ``player_id`` begins, as the edition's jail counts it: one more turn in jail,
    or out for free after ``jail.turns`` of them (the bool)."""
    jail, player = state.edition.jail, state.players[player_id]
    if not player.in_jail or not (jail.turns or jail.from_next_turn):
        return [], False
    if jail.turns is not None and player.jail_turns >= jail.turns:
        return [
            Change("player", player_id, "in_jail", True, False),
            Change("player", player_id, "jail_turns", player.jail_turns, 0),
        ], True
    return [Change("player", player_id, "jail_turns", player.jail_turns, player.jail_turns + 1)], False


def ends_with_the_turn(state: GameState, time_up: bool) -> bool:
    """Whether ending the turn in play now ends the game: the time is up where the edition has
    the active player finish the turn and then stops (the championship's FAQ 6, seed 001 lines
    402-406: "Quando il tempo finisce, il giocatore attivo finisce il proprio turno; dopodiché
    il gioco è concluso"), and the table marks its turns, so Banco knows whose turn it is.
    A table that does not mark them waits for the banker to end the game."""
    return time_up and state.edition.end.time_up == "active_player_finishes_turn" and marked(state)


def end_turn(state: GameState, by: str | None, to: object = None, time_up: bool = False) -> Outcome:
    """Ends the current turn: the next player still in the game plays, and a new round starts
    when play goes round the table. ``by`` is the player ending it (``None``: the banker). The
    banker may name ``to``, the player who plays now (who starts, or a turn passed by
    mistake), without starting a new round. When the edition limits the rounds, ending the
    last turn of the last round ends the game; so does ending a turn once the time is up
    (``time_up``) where the edition has the active player finish it (``ends_with_the_turn``;
    ``params["time_up"]``), unless the banker names who plays now (a correction: that player
    finishes the turn). A player who must sit out is passed over
    (``params["skipped"]``); a jailed player whose turn begins counts one more turn in jail,
    or leaves for free after the edition's ``jail.turns`` (``params["released"]``).

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
    if to is None and ends_with_the_turn(state, time_up):
        return Outcome(
            "end_turn",
            changes=tuple(game_over(state)),
            params={"from": state.turn_player, "to": None, "round": state.turn_round, "time_up": True},
            result={"player": None, "number": state.turn_round, "finished": True, "time_up": True},
        )
    skipped: list[str] = []
    if to is not None:
        nxt, new_round = require_player(state, to).id, False
    else:
        nxt, new_round, skipped = _next_to_play(state, state.turn_player)
    round_ = state.turn_round + (1 if new_round else 0)
    changes = [
        Change("game", None, "turn_player", state.turn_player, nxt),
        Change("game", None, "turn_seq", state.turn_seq, state.turn_seq + 1),
    ]
    params: dict[str, Any] = {"from": state.turn_player, "to": nxt, "round": round_}
    limit = state.edition.turns.limit
    if limit is not None and round_ > limit:
        # The last round is over: the game ends where it stands, turn and round as they were.
        changes = game_over(state)
        params.update(to=None, round=state.turn_round, rounds_over=True)
        return Outcome(
            "end_turn",
            changes=tuple(changes),
            params=params,
            result={"player": None, "number": state.turn_round, "finished": True},
        )
    if round_ != state.turn_round:
        changes.append(Change("game", None, "turn_round", state.turn_round, round_))
    changes += _turn_start(state, nxt)
    changes += _sat_out(state, skipped)
    jailed, released = _jail_turn(state, nxt)
    changes += jailed
    if skipped:
        params["skipped"] = skipped
    if released:
        params["released"] = nxt
    return Outcome(
        "end_turn",
        changes=tuple(changes),
        params=params,
        result={"player": nxt, "number": round_, "skipped": skipped, "released": released},
    )


def passed_on_leaving(state: GameState, player_id: str) -> list[Change]:
    """A player leaving the game in their own turn (bankrupt) hands it to the next player
    still in; the round moves on when play goes round the table."""
    if not counted(state) or state.turn_player != player_id:
        return []
    seats = [pid for pid, p in state.players.items() if not p.bankrupt and pid != player_id]
    if not seats:
        return []
    nxt, new_round, skipped = _next_to_play(_without(state, player_id), player_id)
    changes = [
        Change("game", None, "turn_player", player_id, nxt),
        Change("game", None, "turn_seq", state.turn_seq, state.turn_seq + 1),
    ]
    if new_round:
        changes.append(Change("game", None, "turn_round", state.turn_round, state.turn_round + 1))
    return changes + _turn_start(state, nxt) + _sat_out(state, skipped) + _jail_turn(state, nxt)[0]


def _without(state: GameState, player_id: str) -> GameState:
    """The state as the turn sees it once ``player_id`` is out (nothing else is read)."""
    from dataclasses import replace

    players = {pid: (replace(p, bankrupt=True) if pid == player_id else p) for pid, p in state.players.items()}
    return replace(state, players=players)


def require_trade_in_turn(state: GameState, *player_ids: str) -> None:
    """Refuses, where the edition binds trades to the turn (``turns.trades_with_active``, the
    championship's FAQ 26: "Gli scambi effettuati all'interno di un turno devono coinvolgere il
    giocatore attivo", seed 001 lines 517-528) and the table marks its turns, closing a trade
    between players none of whom is the one whose turn it is."""
    if not state.edition.turns.trades_with_active or not marked(state):
        return
    active = state.turn_player
    if active in player_ids or active is None or active not in state.players:
        return
    raise RuleViolation(
        "trade_outside_turn",
        N_("It is %(name)s's turn: a trade closed now must involve %(name)s. Close it when the turn is yours."),
        name=state.players[active].name,
    )


def require_turn(state: GameState, player_id: str) -> None:
    """Refuses, where the edition counts turns, a player acting out of their turn."""
    if counted(state) and state.turn_player != player_id:
        raise RuleViolation("not_your_turn", N_("It is not %(name)s's turn."), name=state.players[player_id].name)
