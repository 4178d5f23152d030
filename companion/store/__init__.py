"""Storage: the SQLAlchemy tables, the row <-> state mapping and the schema's migrations.
Nothing here knows a rule; services are the only callers."""

from .models import (
    CustomEdition,
    EditionContent,
    Entry,
    Game,
    Holding,
    LimitPlace,
    Player,
    Posting,
    PrintedAddress,
    Request,
    Tournament,
    TournamentPlayer,
    TournamentTable,
    db,
    now_utc,
)
from .rows import GameRecord

__all__ = [
    "CustomEdition",
    "EditionContent",
    "Entry",
    "Game",
    "GameRecord",
    "Holding",
    "LimitPlace",
    "Player",
    "Posting",
    "PrintedAddress",
    "Request",
    "Tournament",
    "TournamentPlayer",
    "TournamentTable",
    "db",
    "now_utc",
]
