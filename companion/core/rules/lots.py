"""Building a whole lot at once (Che Impresa!'s activities), where the edition places buildings
``by_visit``: how many may go up depends on where the player is.

- ``on_group``: the player stands on one of the lot's deeds: up to ``per_visit.on_group`` on
  each deed. The first build on a lot must be made so (or from the square) and put at least
  ``first_build_each`` on every deed.
- ``from_square``: the square that lets a player build anywhere: up to
  ``per_visit.from_square`` on each deed.
- ``end_of_turn``: at the end of a turn in which the player built nothing, up to
  ``per_visit.end_of_turn`` in all on a lot already partly built.

Every deed stays within one building of the others, none above ``max_small``, and no deed
taken over this turn takes any. The app cannot see the pawns: the player says where they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..editions.edition import Deed, Group
from ..errors import N_, BadInput, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import BANK, move
from ..state import Change, DeedState, GameState, Outcome, PlayerState
from ..turns import counted, require_turn
from .common import bank_changes, building_members, deed_changes, require_owner
from .jail import require_free

PLACES = ("on_group", "from_square", "end_of_turn")


def _clean_counts(counts: object, members: list[tuple[Deed, DeedState]]) -> dict[str, int]:
    if not isinstance(counts, dict) or not counts:
        raise BadInput("invalid_counts", N_("Say how many to build on each deed of the lot."))
    keys = {d.key for d, _ in members}
    clean = {}
    for key, n in counts.items():
        if key not in keys:
            raise BadInput("deed_not_in_lot", N_("Build only on the deeds of this lot."))
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BadInput("invalid_counts", N_("Each count is a whole number, 0 or more."))
        clean[key] = n
    if sum(clean.values()) == 0:
        raise BadInput("invalid_counts", N_("Build at least one."))
    return clean


def build_lot(state: GameState, player_id: str, group_key: object, counts: object, place: str) -> Outcome:
    """Buildings go up on a lot at once, ``counts`` by deed key, bought from the bank at each
    deed's building price, within the limits of ``place`` (``"on_group"``, ``"from_square"``,
    ``"end_of_turn"``).

    Refuses: an edition that builds one at a time, an unknown place, a game not running, an
    unknown or bankrupt player, a player out of turn, a player in a jail that keeps them from
    building, an unknown group or one that takes no
    buildings, counts that are not whole numbers or name other deeds, a lot the player does
    not wholly own, a deed taken over this turn, a first build that misses a deed or is made
    at the end of a turn, more on a deed than the place allows, a second build in the turn at
    its end or one on an unbuilt lot, a deed above the most it takes, an uneven lot, more than
    the bank has, and a player without the cash.
    """
    rules = state.edition.buildings
    if rules.placement != "by_visit":
        raise RuleViolation("build_one_at_a_time", N_("In this edition buildings go up one at a time."))
    if place not in PLACES:
        raise BadInput(
            "invalid_place", N_("Say where you are: on the lot, on the building square, or ending your turn.")
        )
    require_running(state)
    player = require_player(state, player_id)
    require_turn(state, player.id)
    require_free(state, player, "builds")
    group, members = _lot(state, group_key)
    counts = _clean_counts(counts, members)
    _require_owned_before(state, player, members, counts)
    if place == "end_of_turn":
        _require_end_of_turn(state, player, members, counts)
    else:
        _require_from_place(state, place, members, counts)
    after = {d.key: ds.houses + counts.get(d.key, 0) for d, ds in members}
    total = sum(counts.values())
    _require_room(state, after, total)
    cost = sum(n * (d.building_cost or 0) for d, _ in members for n in [counts.get(d.key, 0)])
    require_cash(player, cost)
    changes = [c for d, ds in members if counts.get(d.key) for c in deed_changes(ds, houses=after[d.key])]
    changes += bank_changes(state, small=-total)
    if counted(state) and player.built_turn != state.turn_seq:
        changes.append(Change("player", player.id, "built_turn", player.built_turn, state.turn_seq))
    built = {k: n for k, n in counts.items() if n}
    return Outcome(
        "build_lot",
        move(player.id, BANK, cost),
        tuple(changes),
        params={
            "player": player.id,
            "group": group.key,
            "counts": built,
            "place": place,
            "amount": cost,
            "total": total,
        },
        result={"amount": cost, "counts": built},
    )


def _lot(state: GameState, group_key: object) -> tuple[Group, list[tuple[Deed, DeedState]]]:
    """The group ``group_key`` names and its deeds that take buildings. Refuses an unknown group
    and one that takes none."""
    group = state.edition.group(group_key) if isinstance(group_key, str) else None
    members = building_members(state, group.key) if group is not None and group.kind == "street" else []
    if group is None or not members:
        raise RuleViolation("not_buildable", N_("Nothing can be built on this lot."), deed=str(group_key))
    return group, members


def _require_owned_before(
    state: GameState, player: PlayerState, members: list[tuple[Deed, DeedState]], counts: dict[str, int]
) -> None:
    """Refuses, deed by deed, a lot the player does not wholly own and a build on a deed they
    took over this turn (where the bank counts turns)."""
    for deed, ds in members:
        require_owner(player, deed, ds)
        if counts.get(deed.key) and counted(state) and ds.taken_turn == state.turn_seq:
            raise RuleViolation(
                "taken_this_turn", N_("%(deed)s changed hands this turn: build on it from the next."), deed=deed.name
            )


def _require_end_of_turn(
    state: GameState, player: PlayerState, members: list[tuple[Deed, DeedState]], counts: dict[str, int]
) -> None:
    """Refuses, at the end of a turn: a lot not yet built on, a player who built in the turn
    (where the bank counts turns), and more in all than ``per_visit.end_of_turn``."""
    if all(ds.houses == 0 for _, ds in members):
        raise RuleViolation(
            "end_of_turn_unbuilt", N_("At the end of a turn you can add only to a lot already built on.")
        )
    if counted(state) and player.built_turn == state.turn_seq:
        raise RuleViolation("built_this_turn", N_("You built this turn: nothing more at its end."))
    most = _per_visit(state)["end_of_turn"]
    if sum(counts.values()) > most:
        raise RuleViolation("too_many_at_once", N_("At the end of a turn at most %(n)s in all."), n=most)


def _require_from_place(
    state: GameState, place: str, members: list[tuple[Deed, DeedState]], counts: dict[str, int]
) -> None:
    """Refuses, on the lot or from the building square: more on a deed than the place allows,
    and a first build on the lot that puts fewer than ``first_build_each`` on any deed."""
    most = _per_visit(state)[place]
    if any(n > most for n in counts.values()):
        raise RuleViolation("too_many_at_once", N_("From here at most %(n)s on each deed."), n=most)
    first_each = state.edition.buildings.first_build_each
    assert first_each is not None  # the schema requires it with by_visit
    if all(ds.houses == 0 for _, ds in members) and any(counts.get(d.key, 0) < first_each for d, _ in members):
        raise RuleViolation(
            "first_build_each",
            N_("The first build on a lot puts at least %(n)s on every one of its deeds."),
            n=first_each,
        )


def _per_visit(state: GameState) -> Mapping[str, int]:
    """How many each place lets a player build (``buildings.per_visit``)."""
    per_visit = state.edition.buildings.per_visit
    assert per_visit is not None  # the schema requires it with by_visit
    return per_visit


def _require_room(state: GameState, after: dict[str, int], total: int) -> None:
    """Refuses a lot that would leave a deed above ``max_small`` or two buildings apart from
    another, and more buildings than the bank has left."""
    most = state.edition.buildings.max_small
    if max(after.values()) > most:
        raise RuleViolation("fully_built", N_("A deed takes at most %(n)s."), n=most, deed="")
    if max(after.values()) - min(after.values()) > 1:
        raise RuleViolation("uneven_building", N_("Build evenly: no deed of the lot may have two more than another."))
    if state.bank_small is not None and total > state.bank_small:
        raise RuleViolation("bank_out_of_small", N_("The bank has only %(left)s left."), left=state.bank_small)
