"""The entries no action makes: the table's own (a game created, a player who joins or sits
down, the bank moving to another phone), in words."""

from __future__ import annotations

from ..errors import N_
from .lines import Line, line

# The entries that follow from these actions (or from the table), in words.
ENTRIES: dict[str, Line] = {
    "created": line(N_("The table is open.")),
    "join": line(N_("%(name)s joined the game."), name="who player"),
    "claim": line(N_("%(name)s sat down at the table."), name="who player"),
    "rejoin": line(N_("%(name)s is back on a new phone."), name="who player"),
    "bank_handoff": line(N_("The bank moved to another phone.")),
}
