"""Tournaments: rounds of tables, each table a game, for the championship as it is played.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("edition_id", sa.String(length=64), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("round_minutes", sa.Integer(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("director_token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("director_token_hash"),
    )
    op.create_table(
        "tournament_player",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_tournament_player_tournament_id", "tournament_player", ["tournament_id"])
    op.create_table(
        "tournament_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "round", "number"),
    )
    op.create_index("ix_tournament_table_tournament_id", "tournament_table", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_table_tournament_id", table_name="tournament_table")
    op.drop_table("tournament_table")
    op.drop_index("ix_tournament_player_tournament_id", table_name="tournament_player")
    op.drop_table("tournament_player")
    op.drop_table("tournament")
