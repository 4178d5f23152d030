"""The score calculator for games played with paper money: the entries typed on one phone
(each player's name and cash; each deed's owner, buildings and mortgage) become the
``GameState`` the final count reads, so ``score.standings`` values, ranks, breaks ties and
gives tournament points exactly as it does at the end of a game played with Banco.

Entries are plain values as a form or a cookie hands them over (a cash that is a string is
refused, not converted). Every impossible entry is refused, naming it: ``BadInput`` for an
entry that is not a value at all (text for cash, an unknown deed, an owner who is not a
player), ``RuleViolation`` for one the rules could never have produced (a deed with two
owners, buildings the deed, the group, the bank or a mortgage does not allow). Nothing is
ever half built: a refusal returns no state at all.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any, NamedTuple, TypeGuard

from .editions.edition import Deed, Edition
from .errors import N_, BadInput, BancoError, RuleViolation
from .policies.buildings import big_building
from .policies.mortgage import terms as mortgage_terms
from .state import FINISHED, DeedState, GameState, PlayerState

MAX_NAME = 40
MAX_CASH = 999_999_999


class WrongEntries(BadInput):
    """Every impossible entry at once: ``problems`` holds each refusal, in the order of the
    form (the players' cash, then the deeds in board order, then the bank's supply). Its code
    and words are its first problem's, with that entry's ``key`` or ``player``."""

    def __init__(self, problems: Sequence[BancoError]):
        first = problems[0]
        super().__init__(first.code, first.message, **first.params)
        self.problems = list(problems)


class PlayerEntry(NamedTuple):
    """A player's name and the cash on the table in front of them (``None``: not counted
    yet)."""

    name: Any
    cash: Any = None


class DeedEntry(NamedTuple):
    """One deed: ``owner`` the index of a player in the entries (``None``: the bank), ``small``
    the small buildings on it, ``big`` whether a big building stands on it, ``mortgaged``."""

    key: Any
    owner: Any = None
    small: Any = 0
    big: Any = False
    mortgaged: Any = False


def player_id(index: int) -> str:
    """The id of the player at ``index`` in the entries (``p1`` for the first)."""
    return f"p{index + 1}"


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def clean_names(edition: Edition, names: Sequence[Any]) -> list[str]:
    """The players' names, trimmed, in the order given.

    Refuses: fewer players than the edition's minimum or more than it seats, a name that is
    not text, empty, too long or holding control characters (naming the player by number), and
    the same name twice (whatever the case).
    """
    if not isinstance(names, (list, tuple)):
        raise BadInput("invalid_players", N_("Players must be a list of names."))
    if len(names) > edition.max_players:
        raise BadInput("too_many_players", N_("This game takes at most %(max)s players."), max=edition.max_players)
    cleaned: list[str] = []
    for n, name in enumerate(names, start=1):
        if not isinstance(name, str):
            raise BadInput("invalid_name", N_("The name of player %(n)s must be text."), n=n, player=n - 1)
        name = " ".join(name.split())
        if not name:
            raise BadInput("invalid_name", N_("Enter the name of player %(n)s."), n=n, player=n - 1)
        if len(name) > MAX_NAME:
            raise BadInput(
                "invalid_name",
                N_("The name of player %(n)s can be at most %(max)s characters."),
                n=n,
                max=MAX_NAME,
                player=n - 1,
            )
        if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in name):
            raise BadInput(
                "invalid_name", N_("The name of player %(n)s cannot hold control characters."), n=n, player=n - 1
            )
        if any(name.casefold() == other.casefold() for other in cleaned):
            raise BadInput(
                "duplicate_name",
                N_("%(name)s is entered twice: give each player a different name."),
                name=name,
                player=n - 1,
            )
        cleaned.append(name)
    if len(cleaned) < edition.min_players:
        raise BadInput("too_few_players", N_("Enter at least %(min)s players."), min=edition.min_players)
    return cleaned


def _cash(name: str, index: int, cash: object, cash_required: bool) -> int:
    if cash is None:
        if cash_required:
            raise BadInput("missing_cash", N_("Enter the cash of %(name)s (0 if none)."), name=name, player=index)
        return 0
    if not _whole(cash):
        raise BadInput("invalid_cash", N_("The cash of %(name)s must be a whole number."), name=name, player=index)
    if cash < 0:
        raise BadInput("negative_cash", N_("The cash of %(name)s cannot be negative."), name=name, player=index)
    if cash > MAX_CASH:
        raise BadInput("cash_too_large", N_("The cash of %(name)s is too large."), name=name, player=index)
    return cash


def _deed_entries(
    edition: Edition, names: list[str], deeds: Sequence[Any], problems: list[BancoError]
) -> dict[str, tuple[Deed, DeedEntry]]:
    """Each deed entered, once, with its values checked for type and range; an entry that is
    not one goes to ``problems`` and is left out."""
    if not isinstance(deeds, (list, tuple)):
        raise BadInput("invalid_deeds", N_("Deeds must be a list."))
    found: dict[str, tuple[Deed, DeedEntry]] = {}
    for raw in deeds:
        try:
            deed, entry = _deed_entry(edition, names, raw, found)
        except BancoError as problem:
            problems.append(problem)
            continue
        found[deed.key] = (deed, entry)
    return found


def _deed_entry(
    edition: Edition, names: list[str], raw: object, found: dict[str, tuple[Deed, DeedEntry]]
) -> tuple[Deed, DeedEntry]:
    entry = DeedEntry(*raw) if isinstance(raw, (list, tuple)) else None
    if entry is None:
        raise BadInput("invalid_deeds", N_("Deeds must be a list."))
    deed = edition.deed(entry.key) if isinstance(entry.key, str) else None
    if deed is None:
        raise BadInput("unknown_deed", N_("There is no deed %(deed)s in this edition."), deed=str(entry.key)[:60])
    said = {"deed": deed.name, "key": deed.key}
    owner = entry.owner
    if owner is not None and not (_whole(owner) and 0 <= owner < len(names)):
        raise BadInput("invalid_owner", N_("The owner of %(deed)s is not one of the players."), **said)
    if not (_whole(entry.small) and entry.small >= 0) or not isinstance(entry.big, bool):
        raise BadInput("invalid_buildings", N_("The buildings on %(deed)s are not a number of buildings."), **said)
    if not isinstance(entry.mortgaged, bool):
        raise BadInput("invalid_mortgage", N_("Mortgaged or not: %(deed)s takes a yes or a no."), **said)
    if deed.key in found:
        first = found[deed.key][1].owner
        if first != owner and first is not None and owner is not None:
            raise RuleViolation(
                "deed_two_owners",
                N_("%(deed)s is given to both %(first)s and %(second)s: a deed has one owner."),
                first=names[first],
                second=names[owner],
                **said,
            )
        raise BadInput("deed_entered_twice", N_("%(deed)s is entered twice."), **said)
    return deed, entry


def _check_deed(
    edition: Edition, names: list[str], deed: Deed, entry: DeedEntry, entries: dict[str, tuple[Deed, DeedEntry]]
) -> None:
    """Refuses buildings or a mortgage the rules would never have allowed on this deed: on a
    deed nobody owns, a mortgage where there is none, buildings the deed does not take, and
    buildings on a group its owner does not hold whole and unmortgaged."""
    said = {"deed": deed.name, "key": deed.key}
    built = entry.small > 0 or entry.big
    if entry.owner is None:
        _check_unowned(entry, built, said)
        return
    if entry.mortgaged:
        _check_mortgageable(edition, deed, said)
    if built:
        _check_buildings(edition, deed, entry, said)
        _check_group_held(edition, names, deed, entry, entries, said)


def _check_unowned(entry: DeedEntry, built: bool, said: dict[str, str]) -> None:
    """Refuses buildings or a mortgage on a deed that belongs to nobody."""
    if built:
        raise RuleViolation("unowned_buildings", N_("%(deed)s belongs to nobody: it cannot have buildings."), **said)
    if entry.mortgaged:
        raise RuleViolation(
            "unowned_mortgaged", N_("%(deed)s belongs to nobody: only its owner can mortgage it."), **said
        )


def _check_mortgageable(edition: Edition, deed: Deed, said: dict[str, str]) -> None:
    """Refuses a mortgage in an edition without mortgages, or on a deed without a mortgage value."""
    if mortgage_terms(edition) is None:
        raise RuleViolation("no_mortgages", N_("In this edition deeds cannot be mortgaged."), **said)
    if not deed.mortgage:
        raise RuleViolation("no_mortgage_value", N_("%(deed)s cannot be mortgaged."), **said)


def _check_buildings(edition: Edition, deed: Deed, entry: DeedEntry, said: dict[str, str]) -> None:
    """Refuses buildings on a deed that takes none or is mortgaged, more small ones than a deed
    takes, and a big building where the edition has none or beside small ones."""
    b = edition.buildings
    group = edition.group(deed.group)
    if group is None or group.kind != "street" or not deed.buildable or deed.building_cost is None:
        raise RuleViolation("not_buildable", N_("Nothing can be built on %(deed)s."), **said)
    if entry.mortgaged:
        raise RuleViolation(
            "mortgaged_with_buildings", N_("%(deed)s is mortgaged: a mortgaged deed cannot have buildings."), **said
        )
    if entry.small > b.max_small:
        raise RuleViolation(
            "too_many_small",
            N_("%(deed)s has %(n)s %(small)s: a deed takes at most %(max)s."),
            n=entry.small,
            small=b.small_plural,
            max=b.max_small,
            **said,
        )
    if entry.big and big_building(edition) is None:
        raise RuleViolation(
            "no_big_building", N_("%(deed)s cannot have a big building: this edition has none."), **said
        )
    if entry.big and entry.small:
        raise RuleViolation(
            "big_with_small",
            N_("%(deed)s cannot have %(small)s and a %(big)s together."),
            small=b.small_plural,
            big=b.big,
            **said,
        )


def _check_group_held(
    edition: Edition,
    names: list[str],
    deed: Deed,
    entry: DeedEntry,
    entries: dict[str, tuple[Deed, DeedEntry]],
    said: dict[str, str],
) -> None:
    """Refuses buildings on a deed whose group has a buildable deed of another owner, or a
    mortgaged one where a mortgage reaches the whole group."""
    # Where a land changes hands once it is unbuilt itself (Motopolis line 70), or goes back to
    # the bank unbuilt while its groupmates stand built (a mortgage reaching the land alone, not
    # lifted in time; a deed sold back to the bank once its own hotel is sold, Niente è come
    # sembra), a colour is split after its buildings went up: only a built groupmate of another
    # owner is a position no play reaches.
    split = edition.trades.unbuilt == "deed" or edition.mortgage.reach == "deed" or edition.deed_sale is not None
    for other in edition.deeds_in_group(deed.group):
        if not other.buildable:
            continue
        member = entries.get(other.key, (other, DeedEntry(other.key)))[1]
        if member.owner != entry.owner and not (split and not (member.small or member.big)):
            raise RuleViolation(
                "group_incomplete",
                N_("%(deed)s has buildings, but %(name)s does not own its whole group."),
                name=names[entry.owner],
                **said,
            )
        if member.mortgaged and edition.mortgage.reach == "group":
            raise RuleViolation(
                "group_mortgaged",
                N_("%(deed)s has buildings while %(other)s, of its group, is mortgaged."),
                other=other.name,
                **said,
            )


def kept_even(edition: Edition) -> bool:
    """Whether the edition's rules keep every group's buildings even, whatever was built and
    sold: they go up and come down one at a time, evenly, and a big building comes down only
    into the small ones it replaced or with the group left even (``buildings.big_sale``
    ``together_with_group`` or ``one_by_one_evenly``).

    Two rules leave a group uneven, so that no evenness is a position's proof: a big building
    broken while the bank lacks the small ones it gives back (``short_break``
    ``missing_at_half``, the championship's FAQ 29: its deed keeps those the bank has, from none
    to all), and a big building sold whole on its own (``big_sale`` ``one_by_one``: its deed is
    left bare beside the small ones of the others). From there building and selling go on at the
    deeds with the fewest and the most, which reaches any count of small ones on each deed,
    a big building beside any of them."""
    big = big_building(edition)
    if big is None or big.needs_small == 0:
        return True
    return edition.buildings.short_break != "missing_at_half" and edition.buildings.big_sale != "one_by_one"


def _check_even(edition: Edition, group_key: str, entries: dict[str, tuple[Deed, DeedEntry]]) -> None:
    """Refuses buildings no play could leave on a group, where the edition's rules keep groups
    even (``kept_even``): small ones more than one apart (they go up and come down evenly), and
    a big building while a deed of the group holds fewer small ones than a big building needs
    (it goes up only once every deed holds them, and comes down only into them). A mortgaged
    deed holds none and, where a mortgage reaches the deed alone, is left out of evenness
    (Motopolis) but not of the big building's condition. Groups the checks per deed refused are
    not looked at."""
    members = [entries.get(d.key, (d, DeedEntry(d.key))) for d in edition.deeds_in_group(group_key) if d.buildable]
    if not kept_even(edition) or not any(e.small or e.big for _, e in members):
        return
    even = [(d, e) for d, e in members if not (e.mortgaged and edition.mortgage.reach == "deed")]
    _check_small_even(edition, [(d, e) for d, e in even if not e.big])
    _check_big_after_small(edition, members)


def _check_small_even(edition: Edition, small: list[tuple[Deed, DeedEntry]]) -> None:
    """Refuses small buildings more than one apart on the deeds of a group without a big one."""
    if not small:
        return
    most = max(small, key=lambda de: de[1].small)
    fewest = min(small, key=lambda de: de[1].small)
    if most[1].small - fewest[1].small > 1:
        raise RuleViolation(
            "uneven_buildings",
            N_("%(deed)s has %(n)s %(small)s but %(other)s only %(m)s: building goes evenly, at most one apart."),
            n=most[1].small,
            m=fewest[1].small,
            small=edition.buildings.small_plural,
            other=fewest[0].name,
            deed=most[0].name,
            key=most[0].key,
        )


def _check_big_after_small(edition: Edition, members: list[tuple[Deed, DeedEntry]]) -> None:
    """Refuses a big building on a group while another of its deeds holds fewer small ones than
    a big building needs (where it needs any)."""
    big = big_building(edition)
    built_big = next((d for d, e in members if e.big), None)
    if big is None or built_big is None or big.needs_small == 0:
        return
    for deed, entry in members:
        if not entry.big and entry.small < big.needs_small:
            raise RuleViolation(
                "big_before_small",
                N_(
                    "%(other)s has a %(big)s while %(deed)s has %(n)s %(small)s: a %(big)s needs %(need)s on every deed of its group."
                ),
                other=built_big.name,
                big=edition.buildings.big,
                n=entry.small,
                small=edition.buildings.small_plural,
                need=big.needs_small,
                deed=deed.name,
                key=deed.key,
            )


def game_state(
    edition: Edition, players: Sequence[Any], deeds: Sequence[Any], *, cash_required: bool = True
) -> GameState:
    """The finished game the entries describe: one ``PlayerState`` per player (ids from
    ``player_id``), every deed of the edition (those not entered with the bank), and the bank's
    buildings the edition's supply less those on the board.

    ``players`` are ``PlayerEntry`` values (or pairs), ``deeds`` ``DeedEntry`` values (or
    tuples in its order). With ``cash_required`` false a cash not entered yet (``None``) counts
    as 0: entries in progress are checked without being counted.

    Refuses everything ``clean_names`` refuses, then every other impossible entry at once
    (``WrongEntries``, each problem naming its entry): a cash missing, not a whole
    number, negative or absurdly large; an unknown deed, an owner who is not a player, buildings
    that are not a count, a deed entered twice or given to two players; a mortgage or buildings
    on a deed nobody owns; a mortgage where the edition or the deed has none; buildings on a
    deed that takes none, on a mortgaged deed, on a group with a mortgaged deed (where a
    mortgage reaches the whole group) or on a group its owner does not wholly own; more small
    buildings than a deed takes; a big building where the edition has none or beside small ones
    on the same deed; uneven buildings on a group (small ones more than one apart, a big one
    while a deed of the group holds fewer small ones than it needs) where the edition's rules
    keep groups even (``kept_even``); more buildings in all than the bank's supply.
    """
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in players):
        raise BadInput("invalid_players", N_("Players must be a list of names."))
    entries = [PlayerEntry(*p) for p in players]
    names = clean_names(edition, [p.name for p in entries])
    problems: list[BancoError] = []
    cash = _cash_entries(names, entries, cash_required, problems)
    found = _deed_entries(edition, names, deeds, problems)
    refused_groups = _check_deeds(edition, names, found, problems)
    _check_groups(edition, found, refused_groups, problems)
    small = sum(entry.small for _, entry in found.values())
    big = sum(1 for _, entry in found.values() if entry.big)
    problems += _supply_problems(edition, small, big)
    if problems:
        raise WrongEntries(problems)
    b = edition.buildings
    return GameState(
        edition,
        FINISHED,
        {player_id(i): PlayerState(player_id(i), name, cash[i]) for i, name in enumerate(names)},
        {deed.key: _deed_state(deed, found) for deed in edition.deeds},
        None if b.supply_small is None else b.supply_small - small,
        None if b.supply_big is None else b.supply_big - big,
    )


def _cash_entries(
    names: list[str], entries: list[PlayerEntry], cash_required: bool, problems: list[BancoError]
) -> list[int]:
    """Each player's cash, in the order of the entries; a cash refused (``_cash``) goes to
    ``problems`` and is left out."""
    cash = []
    for i, p in enumerate(entries):
        try:
            cash.append(_cash(names[i], i, p.cash, cash_required))
        except BancoError as problem:
            problems.append(problem)
    return cash


def _check_deeds(
    edition: Edition, names: list[str], found: dict[str, tuple[Deed, DeedEntry]], problems: list[BancoError]
) -> set[str]:
    """Each deed entered checked (``_check_deed``) in board order, its refusal going to
    ``problems``; the groups of the deeds refused."""
    refused_groups = set()
    for deed in edition.deeds:
        if deed.key not in found:
            continue
        try:
            _check_deed(edition, names, deed, found[deed.key][1], found)
        except BancoError as problem:
            problems.append(problem)
            refused_groups.add(deed.group)
    return refused_groups


def _check_groups(
    edition: Edition, found: dict[str, tuple[Deed, DeedEntry]], refused_groups: set[str], problems: list[BancoError]
) -> None:
    """Each street group not refused deed by deed checked for even buildings (``_check_even``),
    its refusal going to ``problems``."""
    for group in edition.groups:
        if group.kind != "street" or group.key in refused_groups:
            continue
        try:
            _check_even(edition, group.key, found)
        except BancoError as problem:
            problems.append(problem)


def _supply_problems(edition: Edition, small: int, big: int) -> list[BancoError]:
    """More small or big buildings entered than the bank's supply holds (none where it is
    unlimited)."""
    b = edition.buildings
    problems: list[BancoError] = []
    if b.supply_small is not None and small > b.supply_small:
        problems.append(
            RuleViolation(
                "bank_supply_small",
                N_("%(n)s %(small)s entered, but the bank has only %(supply)s."),
                n=small,
                small=b.small_plural,
                supply=b.supply_small,
            )
        )
    if b.supply_big is not None and big > b.supply_big:
        problems.append(
            RuleViolation(
                "bank_supply_big",
                N_("%(n)s %(big)s entered, but the bank has only %(supply)s."),
                n=big,
                big=b.big_plural,
                supply=b.supply_big,
            )
        )
    return problems


def _deed_state(deed: Deed, found: dict[str, tuple[Deed, DeedEntry]]) -> DeedState:
    """The deed as entered, or with the bank, unbuilt, when it was not entered."""
    entry = found.get(deed.key, (deed, DeedEntry(deed.key)))[1]
    return DeedState(
        deed.key,
        player_id(entry.owner) if entry.owner is not None else None,
        entry.mortgaged,
        entry.small,
        entry.big,
    )
