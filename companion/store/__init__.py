"""Storage: the SQLAlchemy tables, the row <-> state mapping and the schema's migrations.
Nothing here knows a rule; services are the only callers."""
from .models import (EditionContent, Entry, Game, Holding, Player, Posting, PrintedAddress, Request, Tournament,
                     TournamentPlayer, TournamentTable, db,
                     now_utc)

__all__ = ["EditionContent", "Entry", "Game", "Holding", "Player", "Posting", "PrintedAddress", "Request", "Tournament",
           "TournamentPlayer", "TournamentTable", "db",
           "now_utc"]
