"""Tournaments: the semi-finals and the final (each table's stage, the tournament's settings
for them) and the referee's token.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("referee_token_hash", sa.String(length=64), nullable=True))
    with op.batch_alter_table("tournament_table") as batch:
        batch.add_column(sa.Column("stage", sa.String(length=16), nullable=False, server_default="round"))


def downgrade() -> None:
    with op.batch_alter_table("tournament_table") as batch:
        batch.drop_column("stage")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("referee_token_hash")
        batch.drop_column("settings")
