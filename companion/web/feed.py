"""The feed in words: each journal entry described in the reader's language, by the sentences
its kind declares (``core.actions.LINES``) with their placeholders worded here (``WORDINGS``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.actions import LINES, Say
from ..core.actions.lines import WORDINGS as DECLARED_WORDINGS
from ..core.ledger import BANK
from ..core.settings import FREE_PARKING
from .dice import face_label, faces_text
from .speaking import gettext as _
from .speaking import language, ngettext
from .squares import landing_sentence
from .templating import deed_name, jail_name, money


def describe(entry, names: dict[str, str], edition) -> str:
    """One line for the feed; ``names`` maps player ids to names (markup is escaped later). An
    action that ended the game by the edition's end condition says so after what it did."""
    line = _describe(entry, names, edition)
    if (entry.params or {}).get("all_deeds_owned"):
        line += " " + _("Every deed is owned: the game is over.")
    return line


def _describe(entry, names: dict[str, str], edition) -> str:
    """The entry's line, as its kind is declared (``core.actions.LINES``); an entry of a kind
    not declared is said by its kind."""
    line = LINES.get(entry.kind)
    if line is None:
        return entry.kind
    params = entry.params or {}
    if line.worded_by is not None:
        return WORDINGS[line.worded_by](params, "-", names, edition)
    words = [say(sentence, params, names, edition) for sentence in line.sentences(params, edition)]
    return " ".join(words) if words else entry.kind


def say(sentence: Say, params: dict, names: dict[str, str], edition) -> str:
    """One declared sentence in the reader's language, its placeholders worded from the
    params (``WORDINGS``), and its tail after it when there is one."""
    values = {}
    for placeholder, spec in sentence.words.items():
        how, param = spec.split()
        values[placeholder] = WORDINGS[how](params, param, names, edition)
    if sentence.plural is not None:
        text = ngettext(sentence.text, sentence.plural, params.get(sentence.count, 1), **values)
    else:
        text = _(sentence.text, **values)
    if sentence.tail is not None:
        how, param = sentence.tail.split()
        tail = WORDINGS[how](params, param, names, edition)
        if tail:
            text += " " + tail
    return text


def _hands(params: dict, param: str, names: dict[str, str], edition) -> str:
    """The deeds dealt at the start, by player: "Anna: Vicolo Corto, Bastioni; Bruno: ..."."""
    hands: dict[str, list[str]] = {}
    for player_id, key in params.get(param) or []:
        hands.setdefault(player_id, []).append(_deed_name(edition, key))
    return "; ".join(f"{account_name(pid, names)}: {', '.join(keys)}" for pid, keys in hands.items()) + "."


def _counts(params: dict, param: str, names: dict[str, str], edition) -> str:
    return ", ".join(f"{n} × {_deed_name(edition, key)}" for key, n in (params.get(param) or {}).items())


def _payment(params: dict, param: str, names: dict[str, str], edition) -> str:
    payment = edition.fixed_payment(params.get(param, ""))
    return payment.name(language()) if payment else params.get(param, "")


def _face_of(index: int):
    return lambda params, param, names, edition: face_label(list(params.get(param) or [])[index])


def _expropriated(params: dict, param: str, names: dict[str, str], edition) -> str:
    deed = _deed_name(edition, params.get(param))
    return _("the whole lot of %(deed)s", deed=deed) if params.get("whole_lot") else deed


def _undone(params: dict, param: str, names: dict[str, str], edition) -> str:
    return _describe(UndoneEntry(params.get(param, ""), params["undone_params"]), names, edition)


# Each wording a declared sentence may name (``core.actions.lines.WORDINGS``): the param
# ``param`` of the entry's ``params`` in the reader's words.
WORDINGS = {
    "who": lambda params, param, names, edition: account_name(params.get(param), names),
    "names": lambda params, param, names, edition: ", ".join(account_name(a, names) for a in params.get(param) or []),
    "money": lambda params, param, names, edition: money(params.get(param, 0), edition),
    "text": lambda params, param, names, edition: params.get(param),
    "deed": lambda params, param, names, edition: _deed_name(edition, params.get(param)),
    "deeds": lambda params, param, names, edition: ", ".join(_deed_name(edition, k) for k in params.get(param) or []),
    "building": lambda params, param, names, edition: _building(edition, params.get(param)),
    "big_building": lambda params, param, names, edition: _building(edition, "big"),
    "smalls": lambda params, param, names, edition: edition.buildings.small_plural(language()),
    "payment": _payment,
    "jail": lambda params, param, names, edition: jail_name(edition),
    "trade": lambda params, param, names, edition: trade_side(params.get(param), edition),
    "faces": lambda params, param, names, edition: faces_text(list(params.get(param) or [])),
    "first_face": _face_of(0),
    "second_face": _face_of(1),
    "face": lambda params, param, names, edition: face_label(params.get(param)),
    "die": lambda params, param, names, edition: _("yellow die") if params.get(param) == "buyer" else _("red die"),
    "won": lambda params, param, names, edition: (
        _deed_name(edition, params.get(param))
        if params.get(param) and not params.get("building")
        else _building(edition, params.get("building"))
    ),
    "unsold": lambda params, param, names, edition: (
        _deed_name(edition, params.get(param)) if params.get(param) else _building(edition, params.get("building"))
    ),
    "counts": _counts,
    "landing": lambda params, param, names, edition: landing_sentence(
        params,
        edition,
        account_name(params.get("player"), names),
        money(params.get("amount", 0), edition),
        _deed_name(edition, params.get("deed")),
    ),
    "hands": _hands,
    "expropriated": _expropriated,
    "undone": _undone,
    "taken_back": lambda params, param, names, edition: take_back_parts(
        params.get(param, ""), params.get("undone_params") or {}, edition
    )[0],
    "taken_back_amount": lambda params, param, names, edition: take_back_parts(
        params.get(param, ""), params.get("undone_params") or {}, edition
    )[1],
    "named_deed": lambda params, param, names, edition: deed_name(params.get(param), edition),
    "won_here": lambda params, param, names, edition: (
        deed_name(params.get(param), edition) if params.get(param) and not params.get("building") else _("the building")
    ),
    "net": lambda params, param, names, edition: params[param],  # given by the notice: ``notices.NET``
    "bracketed": lambda params, param, names, edition: f"({params[param]})" if params.get(param) else "",
    "square": lambda params, param, names, edition: _square_name(edition, params.get(param)),
}
assert set(WORDINGS) == set(DECLARED_WORDINGS), "every declared wording is worded here"


@dataclass(frozen=True)
class UndoneEntry:
    """An entry an undo reversed, as the undo keeps it: enough for ``describe`` to word it."""

    kind: str
    params: dict


def take_back_parts(kind: str, params: dict, edition) -> tuple[str, str]:
    """A player's one-tap GO or tax in a few words, as the take-back button and its feed line
    name it: what it was ("GO", "Income tax") and the amount with its sign ("+€ 200")."""
    amount = money(params.get("amount", 0), edition)
    if kind == "pass_go":
        return _("GO"), "+" + amount
    payment = edition.fixed_payment(params.get("payment", ""))
    return (payment.name(language()) if payment else params.get("payment", "")), "\u2212" + amount


def account_name(account, names: dict[str, str]) -> str:
    """An account in words: the bank, a pot, or a player's name."""
    if account == BANK:
        return _("the bank")
    if account == FREE_PARKING:
        return _("the Free Parking pot")
    return names.get(account, "?")


def _deed_name(edition, key) -> str:
    deed = edition.deed(key) if isinstance(key, str) else None
    return deed.name if deed else ""


def _square_name(edition, key) -> str:
    square = edition.square(key) if isinstance(key, str) else None
    return square.name(language()) if square else str(key)


def _building(edition, building) -> str:
    names = edition.buildings
    return (names.big if building == "big" else names.small)(language())


def trade_side(side, edition) -> str:
    """One side of a trade in words: cash, deeds, cards; "nothing" when empty."""
    side = side or {}
    parts = []
    if side.get("cash"):
        parts.append(money(side["cash"], edition))
    parts += [_deed_name(edition, key) for key in side.get("deeds", [])]
    if side.get("jail_cards"):
        parts.append(ngettext("%(num)d get-out-of-jail card", "%(num)d get-out-of-jail cards", side["jail_cards"]))
    return ", ".join(parts) or _("nothing")
