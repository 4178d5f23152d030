"""Limits per address counted in the database (on PostgreSQL), for every server process on it:
each place taken, by key, with when it leaves its window.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "limit_place",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("leaves_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_limit_place_key_leaves_at", "limit_place", ["key", "leaves_at"])
    op.create_index("ix_limit_place_leaves_at", "limit_place", ["leaves_at"])


def downgrade() -> None:
    op.drop_index("ix_limit_place_leaves_at", table_name="limit_place")
    op.drop_index("ix_limit_place_key_leaves_at", table_name="limit_place")
    op.drop_table("limit_place")
