"""The tables. No rules here: ``store.mapping`` turns rows into the core's ``GameState`` and back.
A change to a table or column comes with a migration: see docs/migrations.md."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, ClassVar

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Index, Integer, String, Table, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    if TYPE_CHECKING:
        # Every class here maps one Table (DeclarativeBase says only "a FromClause").
        __table__: ClassVar[Table]


db = SQLAlchemy(model_class=Base)

if TYPE_CHECKING:
    # db.Model is Base with Flask-SQLAlchemy's mixins (table names from class names), a class
    # made at run time that mypy cannot follow: for the checker the tables derive from Base.
    Model = Base
else:
    Model = db.Model


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Game(Model):
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    edition_id: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="setup")
    version: Mapped[int] = mapped_column(default=0)
    join_code: Mapped[str] = mapped_column(String(12), unique=True)
    banker_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    banker_player_id: Mapped[str | None] = mapped_column(String(16))
    seed: Mapped[int | None] = mapped_column(BigInteger)
    cash_private: Mapped[bool] = mapped_column(default=False)
    time_limit_seconds: Mapped[int | None] = mapped_column()
    clock_elapsed_seconds: Mapped[float] = mapped_column(default=0.0)
    clock_running_since: Mapped[dt.datetime | None] = mapped_column()
    bank_small: Mapped[int | None] = mapped_column()
    bank_big: Mapped[int | None] = mapped_column()
    auction_seconds: Mapped[int] = mapped_column(default=20)
    auctions_held: Mapped[int] = mapped_column(default=0)
    # The open auction, pending trades and rent requests: small documents the rules replace
    # whole (see core/state.py for their shape), so JSON columns fit them.
    auction: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    trades: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The game's settings and every other part of its state the core declares (pots, money
    # waiting for a yes, ...): see store/mapping.py. A new kind of state needs no new column.
    extra: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The exact edition content the game started with (EditionContent.hash).
    edition_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=now_utc)

    players: Mapped[list[Player]] = relationship(order_by="Player.seat", back_populates="game")
    holdings: Mapped[list[Holding]] = relationship(order_by="Holding.position")


class Player(Model):
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), index=True)
    seat: Mapped[int] = mapped_column()
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    rejoin_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    rejoin_expires: Mapped[dt.datetime | None] = mapped_column()
    cash: Mapped[int] = mapped_column(BigInteger, default=0)
    in_jail: Mapped[bool] = mapped_column(default=False)
    bankrupt: Mapped[bool] = mapped_column(default=False)
    jail_cards: Mapped[int] = mapped_column(default=0)
    extra: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    game: Mapped[Game] = relationship(back_populates="players")

    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    @property
    def claimed(self) -> bool:
        """Whether a phone (or an API client) holds this player's secret."""
        return self.token_hash is not None


class Holding(Model):
    """One deed of the board in one game: who owns it and what stands on it."""

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), primary_key=True)
    deed_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column()
    owner_id: Mapped[str | None] = mapped_column(String(16))
    mortgaged: Mapped[bool] = mapped_column(default=False)
    houses: Mapped[int] = mapped_column(default=0)
    hotel: Mapped[bool] = mapped_column(default=False)
    fee_due: Mapped[bool] = mapped_column(default=False)
    extra: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class EditionContent(Model):
    """An edition file's content as a game started with it, by its SHA-256: a game keeps
    these rules even when the file changes later."""

    __tablename__ = "edition_content"
    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    edition_id: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(default=now_utc)


class CustomEdition(Model):
    """An edition imported on this server (or saved from the editor), beside the built-in files:
    its id, and its current content in ``edition_content`` by hash. Importing the same id again
    points it at the new content; games keep the hash they started with."""

    __tablename__ = "custom_edition"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    edition_hash: Mapped[str] = mapped_column(ForeignKey("edition_content.hash"))
    created_at: Mapped[dt.datetime] = mapped_column(default=now_utc)
    updated_at: Mapped[dt.datetime] = mapped_column(default=now_utc)


class PrintedAddress(Model):
    """The server address printed into QR codes, per kind of sheet (``deeds``: deed cards of
    any edition), and when it was last printed: the table warns when phones now reach another
    address, since those printed codes no longer open."""

    __tablename__ = "printed_address"
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    base_url: Mapped[str] = mapped_column(String(300))
    at: Mapped[dt.datetime] = mapped_column(default=now_utc)


class LimitPlace(Model):
    """A place taken in a limit per client address (a guess of a secret, a new game, tournament
    or edition: ``services.limits``), on PostgreSQL, where every server process counts in this
    table. Its times are the database's clock; a place is deleted once it has left its window
    (``leaves_at``), or given back (a new thing refused)."""

    __tablename__ = "limit_place"
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer(), "sqlite"), primary_key=True)
    # The limit's scope, the kind of new thing (if any) and the address, as ``guess 10.0.0.2``.
    key: Mapped[str] = mapped_column(String(200))
    taken_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    leaves_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_limit_place_key_leaves_at", "key", "leaves_at"),
        Index("ix_limit_place_leaves_at", "leaves_at"),
    )


class Tournament(Model):
    """A tournament: rounds of tables of one edition, each table a game, whose tournament
    points add up into the general standings. The director holds its token."""

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    edition_id: Mapped[str] = mapped_column(String(64))
    table_size: Mapped[int] = mapped_column()
    round_minutes: Mapped[int | None] = mapped_column()
    seed: Mapped[int] = mapped_column(BigInteger)
    director_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=now_utc)
    # The semi-finals' and final's settings and the last minutes' warning (``services.tournaments``).
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The referee's devices sign in with this token's hash: they see every table, change nothing.
    referee_token_hash: Mapped[str | None] = mapped_column(String(64))

    players: Mapped[list[TournamentPlayer]] = relationship(order_by="TournamentPlayer.seq")
    tables: Mapped[list[TournamentTable]] = relationship(order_by="(TournamentTable.round, TournamentTable.number)")


class TournamentPlayer(Model):
    __tablename__ = "tournament_player"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournament.id"), index=True)
    seq: Mapped[int] = mapped_column()
    name: Mapped[str] = mapped_column(String(40))
    withdrawn: Mapped[bool] = mapped_column(default=False)


class TournamentTable(Model):
    """One table of one round: its game, and the tournament players in its seat order."""

    __tablename__ = "tournament_table"
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournament.id"), index=True)
    round: Mapped[int] = mapped_column()
    number: Mapped[int] = mapped_column()
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"))
    seats: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # "round" (a preliminary round), "semi_final" or "final" (``core.tournament.STAGES``).
    stage: Mapped[str] = mapped_column(String(16), default="round", server_default="round")

    __table_args__ = (UniqueConstraint("tournament_id", "round", "number"),)


class Entry(Model):
    """One change to a game: a line of the journal and of the feed. Never updated but for
    ``reversed_by``, never deleted."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"))
    version: Mapped[int] = mapped_column()
    kind: Mapped[str] = mapped_column(String(32))
    actor: Mapped[str] = mapped_column(String(16))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    changes: Mapped[list[Any]] = mapped_column(JSON, default=list)
    undoable: Mapped[bool] = mapped_column(default=True)
    reverses: Mapped[int | None] = mapped_column(ForeignKey("entry.id"))
    reversed_by: Mapped[int | None] = mapped_column(ForeignKey("entry.id"))
    at: Mapped[dt.datetime] = mapped_column(default=now_utc)

    postings: Mapped[list[Posting]] = relationship(order_by="Posting.id")

    __table_args__ = (UniqueConstraint("game_id", "version"),)


class Posting(Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("entry.id"), index=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"))
    account: Mapped[str] = mapped_column(String(16))
    amount: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_posting_game_account", "game_id", "account"),)


class Request(Model):
    """The first answer to an idempotency key, replayed to any retry with the same key and
    the same request (``fingerprint``, the SHA-256 of the request without its key)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"))
    actor: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(100))
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[dt.datetime] = mapped_column(default=now_utc)

    __table_args__ = (UniqueConstraint("game_id", "actor", "key"),)
