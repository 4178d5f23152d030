"""Rent: what the rules give the owner, paid by the lander unasked or on the owner's request."""

from __future__ import annotations

from datetime import datetime

from .. import pending
from ..editions.edition import Deed
from ..errors import N_, Forbidden, NotFound, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import BANK, move
from ..money import percent_up
from ..policies.mortgaged_rent import bank_share_percent
from ..policies.rent import doubles
from ..state import PAYER, Change, DeedState, GameState, Outcome, PendingState, PlayerState, document_change
from .common import clean_dice, clean_id, group_members, group_of, require_deed
from .jail import require_free


def rent_due(state: GameState, deed_key: str, dice: object = None) -> int:
    """The rent a lander owes on this deed now; 0 when nobody owns it.

    A street pays by its buildings; unbuilt, its base rent doubles when the owner holds the
    whole group and the edition's rent policy says so. A station pays by how many of its group
    the owner holds, and a utility the dice total times the multiplier for that count;
    mortgaged ones count when the edition's ``sets_count_mortgaged`` says so (the rulebooks
    count every one "owned"). A mortgaged deed asks the share of that rent the edition's
    ``mortgaged_rent`` policy gives the bank, rounded up (usually none). Refuses an unknown
    deed and, for a utility that asks rent, a missing or impossible dice total (the Speed Die
    counts, Bus and Mr. Monopoly as 0).
    """
    deed, ds = require_deed(state, deed_key)
    if ds.owner is None:
        return 0
    if not ds.mortgaged:
        return _full_rent(state, deed, ds, dice)
    share = bank_share_percent(state.edition)
    return percent_up(_full_rent(state, deed, ds, dice), share) if share else 0


def rent_line(state: GameState, deed_key: str) -> str | None:
    """The line of the deed's printed rent table that applies now: for a street ``base``,
    ``whole_group`` (the doubled base rent), ``small_<n>`` or ``big``; for a station or a
    utility ``held_<n>``, the number of its group the owner holds (capped at the table's last
    line). ``None`` when nobody owns the deed, when a mortgaged deed asks nothing, and when the
    table has no line (a station without rents). Refuses an unknown deed."""
    deed, ds = require_deed(state, deed_key)
    if ds.owner is None or (ds.mortgaged and not bank_share_percent(state.edition)):
        return None
    kind = group_of(state, deed).kind
    if kind == "street":
        if ds.hotel:
            return "big"
        if ds.houses:
            return f"small_{ds.houses}"
        members = [m for _, m in group_members(state, deed.group)]
        whole = all(m.owner == ds.owner for m in members)
        return "whole_group" if whole and doubles(state.edition, ds, members) else "base"
    lines = state.edition.station_rents if kind == "station" else state.edition.utility_multipliers
    return f"held_{min(_held_in_group(state, deed, ds.owner), len(lines))}" if lines else None


def _full_rent(state: GameState, deed: Deed, ds: DeedState, dice: object) -> int:
    kind = group_of(state, deed).kind
    if kind == "street":
        return _street_rent(state, deed, ds)
    held = _held_in_group(state, deed, ds.owner)
    if kind == "station":
        rents = state.edition.station_rents
        return rents[min(held, len(rents)) - 1] if rents else 0
    total = clean_dice(state, dice)  # the rest are utilities, whose rent goes by the dice
    multipliers = state.edition.utility_multipliers
    return multipliers[min(held, len(multipliers)) - 1] * total if multipliers else 0


def _street_rent(state: GameState, deed: Deed, ds: DeedState) -> int:
    if ds.hotel:
        return deed.rents[-1]
    if ds.houses:
        return deed.rents[ds.houses]
    members = [m for _, m in group_members(state, deed.group)]
    whole = all(m.owner == ds.owner for m in members)
    return deed.rents[0] * 2 if whole and doubles(state.edition, ds, members) else deed.rents[0]


def _held_in_group(state: GameState, deed: Deed, owner: str | None) -> int:
    counts_mortgaged = state.edition.rent.sets_count_mortgaged
    return sum(
        1 for _, m in group_members(state, deed.group) if m.owner == owner and (counts_mortgaged or not m.mortgaged)
    )


def _rent_owed(
    state: GameState, payer_id: str, deed_key: str, dice: object, to_bank: bool = False
) -> tuple[PlayerState, PlayerState, Deed, int, object]:
    """The payer, the owner, the deed, the amount of a rent that is really owed, and the dice
    total when the rent went by it. A mortgaged deed is refused unless ``to_bank`` (the lander
    paying the bank its share)."""
    require_running(state)
    payer = require_player(state, payer_id)
    deed, ds = require_deed(state, deed_key)
    amount = rent_due(state, deed.key, dice)
    if ds.owner is None:
        raise RuleViolation("deed_not_owned", N_("Nobody owns %(deed)s: no rent is due."), deed=deed.name)
    if ds.owner == payer.id:
        raise RuleViolation("own_deed", N_("%(deed)s is %(name)s's own deed."), deed=deed.name, name=payer.name)
    if ds.mortgaged and not (to_bank and amount):
        raise RuleViolation("deed_mortgaged", N_("%(deed)s is mortgaged: no rent is due."), deed=deed.name)
    if amount == 0:
        raise RuleViolation("no_rent", N_("%(deed)s pays no rent."), deed=deed.name)
    require_free(state, state.players[ds.owner], "rent")
    dice = dice if group_of(state, deed).kind == "utility" else None
    return payer, state.players[ds.owner], deed, amount, dice


def rent_owed(state: GameState, payer_id: str, deed_key: str, dice: object = None) -> tuple[str, int]:
    """To whom ``payer_id`` owes rent on ``deed_key`` now, and how much, as ``pay_rent`` would
    pay it (the owner, or the bank's share of a mortgaged deed's rent where the edition has
    one), whatever the payer's cash. Refuses what ``pay_rent`` refuses but the cash."""
    _payer, owner, deed, amount, _dice = _rent_owed(state, payer_id, deed_key, dice, to_bank=True)
    return (BANK if state.deeds[deed.key].mortgaged else owner.id), amount


def pay_rent(state: GameState, payer_id: str, deed_key: str, dice: object = None) -> Outcome:
    """The lander pays the rent ``rent_due`` gives: to the owner, or on a mortgaged deed the
    bank's share to the bank, as the edition's ``mortgaged_rent`` says.

    Refuses: a game not running, an unknown or bankrupt payer, an unknown deed, a deed nobody
    owns, the payer's own deed, a mortgaged deed that asks nothing, a deed that pays nothing, a
    utility without a possible dice total, and a payer without the cash.
    """
    payer, owner, deed, amount, dice = _rent_owed(state, payer_id, deed_key, dice, to_bank=True)
    require_cash(payer, amount)
    payee = BANK if state.deeds[deed.key].mortgaged else owner.id
    params = {"from": payer.id, "to": payee, "deed": deed.key, "amount": amount, "dice": dice}
    return Outcome(
        "pay_rent",
        move(payer.id, payee, amount),
        tuple(rent_paid_changes(state, payer.id, deed.key)),
        params=params,
        result={"amount": amount, "to": payee},
    )


def rent_paid_changes(state: GameState, payer_id: str, deed_key: str) -> list[Change]:
    """Where the edition has expropriations, the rent just paid is remembered with its turn:
    the lander may then try to take the deed."""
    if state.edition.expropriation is None:
        return []
    paid = {"payer": payer_id, "deed": deed_key, "turn": state.turn_seq}
    return [Change("game", None, "last_rent", state.last_rent, paid)]


def rent_request(
    state: GameState, request_id: str, owner_id: str, payer_id: str, deed_key: str, now: datetime, dice: object = None
) -> Outcome:
    """The owner asks the lander for the rent on a deed; the lander then confirms it. It is
    money that waits for a yes (``core.pending``): nothing moves until the lander pays.

    The amount is fixed now, as the deed stands. When the edition sets
    ``rent_request.lapse_seconds`` the request lapses that long after it is made; this is a
    setting because the rulebooks' deadline ("before the second player to the owner's left
    rolls") is a moment the app cannot see. Refuses: an edition without rent requests, a bad
    or repeated id, a pending request to the same player for the same deed, everything
    ``pay_rent`` refuses except the payer's cash, and an owner asking on a deed that is not
    theirs.
    """
    setting = state.edition.rent.request
    if not setting.enabled:
        raise RuleViolation("rent_requests_off", N_("In this edition the lander pays rent unasked."))
    request_id = clean_id(request_id, "invalid_request_id")
    payer, owner, deed, amount, dice = _rent_owed(state, payer_id, deed_key, dice)
    asker = require_player(state, owner_id)
    if asker.id != owner.id:
        raise RuleViolation("not_owner", N_("%(deed)s does not belong to %(name)s."), deed=deed.name, name=asker.name)
    if any(
        p.kind == "pay_rent" and p.params.get("deed") == deed.key and p.payer == payer.id
        for p in state.pending.values()
    ):
        raise RuleViolation(
            "rent_already_requested",
            N_("%(name)s has already been asked for the rent on %(deed)s."),
            name=payer.name,
            deed=deed.name,
        )
    params = {"from": payer.id, "to": owner.id, "deed": deed.key, "amount": amount, "dice": dice}
    outcome = pending.propose(
        state,
        request_id,
        payer=payer.id,
        payee=owner.id,
        amount=amount,
        needs=PAYER,
        asked_by=owner.id,
        kind="pay_rent",
        params=params,
        now=now,
        expires_seconds=setting.lapse_seconds,
        proposal="rent_request",
    )
    return Outcome(
        outcome.kind,
        changes=outcome.changes,
        params={**params, "request": request_id},
        result={"request": request_id, "pending": request_id, "amount": amount},
    )


def rent_requests(state: GameState) -> list[PendingState]:
    """The rent requests waiting for their lander, oldest first."""
    return [p for p in state.pending.values() if p.kind == "pay_rent"]


def _require_request(state: GameState, request_id: object) -> PendingState:
    request = state.pending.get(request_id) if isinstance(request_id, str) else None
    if request is None or request.kind != "pay_rent":
        raise NotFound("unknown_rent_request", N_("There is no such rent request."))
    return request


def rent_confirm(state: GameState, request_id: str, player_id: str, now: datetime) -> Outcome:
    """The asked player confirms a rent request and pays the amount it holds to the owner.

    Refuses: a game not running, an unknown request, anyone but the asked player, a request
    past its lapse time, an owner who is out of the game, and a payer without the cash (who can
    raise it and confirm again).
    """
    require_running(state)
    request = _require_request(state, request_id)
    payer = require_player(state, player_id)
    if payer.id != request.payer:
        raise Forbidden(
            "not_your_rent_request", N_("Only %(name)s can confirm this rent."), name=state.players[request.payer].name
        )
    if pending.is_expired(request, now):
        raise RuleViolation("rent_request_lapsed", N_("This rent request has lapsed."))
    outcome = pending.approve(state, request.id, payer.id, now)
    return Outcome(
        outcome.kind,
        outcome.postings,
        outcome.changes,
        params={**outcome.params, "request": request.id},
        result=outcome.result,
    )


def rent_lapse(state: GameState, request_id: str, by: str | None, now: datetime) -> Outcome:
    """Closes a rent request unpaid: the owner or the banker (``by`` ``None``) at any time,
    anyone once its lapse time has passed.

    Refuses: a game not running, an unknown request, and the asked player (or anyone else)
    before the lapse time.
    """
    require_running(state)
    request = _require_request(state, request_id)
    if by is not None and by != request.payee and not pending.is_expired(request, now):
        raise Forbidden("not_your_rent_request", N_("Only the owner or the banker can lapse this rent request."))
    return Outcome(
        "rent_lapse",
        changes=(document_change("pending", request.id, request, None),),
        params={
            "from": request.payer,
            "to": request.payee,
            "deed": request.params.get("deed"),
            "amount": request.amount,
            "request": request.id,
        },
    )
