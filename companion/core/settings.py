"""A game's own settings, chosen when it is created and fixed for the whole game.

Each setting is declared once here with its type, range and default; ``clean_settings``
validates what a client sends, and ``GameState.setting`` reads a game's value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import N_, BadInput

FREE_PARKING = "free_parking"


@dataclass(frozen=True)
class Setting:
    """``kind`` bool, int (from ``low`` to ``high``) or list: ``low`` to ``high`` entries, each
    one of ``values``."""

    name: str
    kind: type
    default: Any
    low: int | None = None
    high: int | None = None
    values: tuple[str, ...] = ()

    def bounds(self) -> tuple[int, int]:
        """``low`` and ``high``, which every setting but a yes or no has."""
        assert self.low is not None and self.high is not None, self.name
        return self.low, self.high


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        # Money a player asks from the bank waits on the banker's table for a yes.
        Setting("strict_bank", bool, False),
        # House rule: taxes and fines go into a pot that the player landing on Free Parking takes.
        Setting("free_parking_pot", bool, False),
        # Seconds an auction runs after each bid.
        Setting("auction_seconds", int, 20, 5, 600),
        # Seconds a payment request waits for the payer before it lapses (0: until answered).
        Setting("request_seconds", int, 0, 0, 3600),
        # The championship's preliminary rounds (FAQ 31): no deals or trades once two players are left.
        Setting("no_trades_two_left", bool, False),
        # House rule: play at a table size the rulebook allows but gives no starting values for
        # (the edition's ``house_sizes``: Motopolis' 7), at the edition file's own values.
        Setting("house_sizes", bool, False),
        # Minutes before the clock runs out from which the table and the phones say the game is in
        # its last minutes (0: they never do); a tournament's tables all get the same.
        Setting("last_minutes", int, 0, 0, 60),
        # Che Impresa!'s special dice, one entry per face: the rulebook does not give them, so a
        # group sets those of its box (null: the edition file's).
        Setting("buyer_die", list, None, 2, 12, ("si", "no", "vita")),
        Setting("owner_die", list, None, 2, 12, ("no", "doppio", "meta", "ritira", "vita")),
        # The bank's small and big buildings, where a group's box holds other counts than the
        # edition file (Petropolis' towers and platforms differ by printing); null: the edition's.
        Setting("supply_small", int, None, 0, 500),
        Setting("supply_big", int, None, 0, 500),
        # Niente è come sembra's fake money (null: the edition's): the share of the bank's notes
        # that are fake (0 to 1), the seconds a payment stays open to a check, and whether its
        # receiver may check it too.
        Setting("fake_note_share", float, None, 0, 1),
        Setting("check_seconds", int, None, 1, 120),
        Setting("receiver_checks", bool, None),
    )
}


def default_of(name: str) -> Any:
    return SETTINGS[name].default


def clean_settings(raw: object) -> dict[str, Any]:
    """The settings a client sent, each checked; missing ones take their default.

    Refuses (400, naming the key): settings that are not an object, an unknown key, and a
    value of the wrong type or outside its range.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise BadInput("invalid_settings", N_("Settings must be an object of names and values."))
    out = {name: s.default for name, s in SETTINGS.items()}
    for name, value in raw.items():
        setting = SETTINGS.get(name)
        if setting is None:
            raise BadInput("unknown_setting", N_("There is no setting called %(name)s."), name=str(name)[:40])
        out[name] = _clean(setting, value)
    return out


def _clean(setting: Setting, value: object) -> Any:
    if setting.kind is list:
        if value is None:
            return None
        low, high = setting.bounds()
        if not isinstance(value, list) or not low <= len(value) <= high or any(v not in setting.values for v in value):
            raise BadInput(
                "invalid_setting",
                N_("The setting %(name)s must list %(low)s to %(high)s faces among: %(values)s."),
                name=setting.name,
                low=setting.low,
                high=setting.high,
                values=", ".join(setting.values),
            )
        return list(value)
    if value is None and setting.default is None:
        return None
    if setting.kind is float:
        low, high = setting.bounds()
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise BadInput(
                "invalid_setting",
                N_("The setting %(name)s must be a number from %(low)s to %(high)s."),
                name=setting.name,
                low=setting.low,
                high=setting.high,
            )
        return float(value)
    if setting.kind is bool:
        if not isinstance(value, bool):
            raise BadInput("invalid_setting", N_("The setting %(name)s must be true or false."), name=setting.name)
        return value
    if value is None and setting.default is None:
        return None
    low, high = setting.bounds()
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadInput(
            "invalid_setting",
            N_("The setting %(name)s must be a whole number from %(low)s to %(high)s."),
            name=setting.name,
            low=setting.low,
            high=setting.high,
        )
    return value


def pots_for(settings: Mapping[str, Any]) -> dict[str, int]:
    """The pots a game with these settings has, each empty."""
    return {FREE_PARKING: 0} if settings.get("free_parking_pot") else {}


def building_supply(settings: Mapping[str, Any], small: int | None, big: int | None) -> tuple[int | None, int | None]:
    """The bank's small and big buildings at the start: the game's ``supply_small`` and
    ``supply_big`` where set, else ``small`` and ``big`` (the edition's; ``None``: unlimited)."""
    chosen_small, chosen_big = settings.get("supply_small"), settings.get("supply_big")
    return (small if chosen_small is None else chosen_small, big if chosen_big is None else chosen_big)
