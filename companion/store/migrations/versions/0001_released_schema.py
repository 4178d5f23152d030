"""The tables as the releases before migrations made them (``banco_schema`` version 2).

A database those releases made holds exactly this and no ``alembic_version``: the server
stamps it at this revision and upgrades it from here.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "banco_schema",
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("version"),
    )
    op.create_table(
        "game",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("edition_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("join_code", sa.String(12), nullable=False),
        sa.Column("banker_token_hash", sa.String(64), nullable=False),
        sa.Column("banker_player_id", sa.String(16), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("cash_private", sa.Boolean(), nullable=False),
        sa.Column("time_limit_seconds", sa.Integer(), nullable=True),
        sa.Column("clock_elapsed_seconds", sa.Float(), nullable=False),
        sa.Column("clock_running_since", sa.DateTime(), nullable=True),
        sa.Column("bank_small", sa.Integer(), nullable=True),
        sa.Column("bank_big", sa.Integer(), nullable=True),
        sa.Column("auction_seconds", sa.Integer(), nullable=False),
        sa.Column("auctions_held", sa.Integer(), nullable=False),
        sa.Column("auction", sa.JSON(), nullable=True),
        sa.Column("trades", sa.JSON(), nullable=False),
        sa.Column("rent_requests", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("join_code"),
        sa.UniqueConstraint("banker_token_hash"),
    )
    op.create_table(
        "entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("undoable", sa.Boolean(), nullable=False),
        sa.Column("reverses", sa.Integer(), nullable=True),
        sa.Column("reversed_by", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "version"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.ForeignKeyConstraint(["reverses"], ["entry.id"]),
        sa.ForeignKeyConstraint(["reversed_by"], ["entry.id"]),
    )
    op.create_table(
        "holding",
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("deed_key", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.String(16), nullable=True),
        sa.Column("mortgaged", sa.Boolean(), nullable=False),
        sa.Column("houses", sa.Integer(), nullable=False),
        sa.Column("hotel", sa.Boolean(), nullable=False),
        sa.Column("fee_due", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "deed_key"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
    )
    op.create_table(
        "player",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("rejoin_hash", sa.String(64), nullable=True),
        sa.Column("rejoin_expires", sa.DateTime(), nullable=True),
        sa.Column("cash", sa.BigInteger(), nullable=False),
        sa.Column("in_jail", sa.Boolean(), nullable=False),
        sa.Column("bankrupt", sa.Boolean(), nullable=False),
        sa.Column("jail_cards", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.UniqueConstraint("token_hash"),
        sa.UniqueConstraint("rejoin_hash"),
    )
    op.create_index("ix_player_game_id", "player", ["game_id"])
    op.create_table(
        "request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "actor", "key"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
    )
    op.create_table(
        "posting",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("account", sa.String(16), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["entry_id"], ["entry.id"]),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
    )
    op.create_index("ix_posting_game_account", "posting", ["game_id", "account"])
    op.create_index("ix_posting_entry_id", "posting", ["entry_id"])
    # The releases wrote their tables' version here at creation.
    op.execute("INSERT INTO banco_schema (version) VALUES (2)")


def downgrade():
    for table in ("posting", "request", "player", "holding", "entry", "game", "banco_schema"):
        op.drop_table(table)
