"""Per-game state in ``extra``, rent requests as money waiting for a yes, pinned editions,
request fingerprints.

Schema: ``extra`` (JSON) on game, player and holding; ``game.edition_hash``; the table
``edition_content``; ``request.fingerprint``; ``game.rent_requests`` and ``banco_schema`` go.

Data, game by game: each open rent request becomes a ``pending`` document of kind
``pay_rent`` in ``game.extra`` (and so do the rent requests inside journal entries' changes,
so undoing an old entry still works); the game's settings are the defaults with its own
auction countdown; its pots are empty; and it is pinned to its edition file's content as it
is now.

The conversions are written out here rather than imported from the app: a migration must
keep doing what it did when the app's code moves on.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""
import datetime as dt
import hashlib
import json
from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

EDITIONS = Path(__file__).resolve().parents[3] / "editions"
# core.settings' defaults when this revision was written (clean_settings(None)); a setting
# added later is read at its default when a game lacks it.
SETTINGS = {"strict_bank": False, "free_parking_pot": False, "auction_seconds": 20, "request_seconds": 0}

game = sa.table("game", sa.column("id", sa.String), sa.column("edition_id", sa.String),
                sa.column("auction_seconds", sa.Integer), sa.column("rent_requests", sa.JSON),
                sa.column("extra", sa.JSON), sa.column("edition_hash", sa.String))
player = sa.table("player", sa.column("extra", sa.JSON))
holding = sa.table("holding", sa.column("extra", sa.JSON))
entry = sa.table("entry", sa.column("id", sa.Integer), sa.column("changes", sa.JSON))
edition_content = sa.table("edition_content", sa.column("hash", sa.String), sa.column("edition_id", sa.String),
                           sa.column("data", sa.JSON), sa.column("created_at", sa.DateTime))


def upgrade():
    if op.get_context().as_sql:
        raise RuntimeError("Revision 0002 moves data game by game, which SQL written in advance cannot do: "
                           "run it on the database (the server does at start).")
    op.create_table(
        "edition_content",
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("edition_id", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("hash"),
    )
    # Nullable first: existing rows get their values below, then the columns are tightened.
    for table in ("game", "player", "holding"):
        op.add_column(table, sa.Column("extra", sa.JSON(), nullable=True))
    op.add_column("game", sa.Column("edition_hash", sa.String(64), nullable=True))
    op.add_column("request", sa.Column("fingerprint", sa.String(64), nullable=True))

    bind = op.get_bind()
    move_games(bind)
    move_journal(bind)
    bind.execute(player.update().values(extra={}))
    bind.execute(holding.update().values(extra={}))

    with op.batch_alter_table("game") as batch:
        batch.alter_column("extra", existing_type=sa.JSON(), nullable=False)
        batch.drop_column("rent_requests")
    for table in ("player", "holding"):
        with op.batch_alter_table(table) as batch:
            batch.alter_column("extra", existing_type=sa.JSON(), nullable=False)
    op.drop_table("banco_schema")


def downgrade():
    raise NotImplementedError("Banco's tables cannot go back before revision 0002: the money waiting for a yes "
                              "and the pinned editions have no place there. Restore a backup instead.")


def pending_of(request):
    """A released rent request as the ``pay_rent`` pending document that replaces it."""
    if request is None:
        return None
    return {"id": request["id"], "payer": request["payer"], "payee": request["owner"], "amount": request["amount"],
            "needs": "payer", "asked_by": request["owner"], "kind": "pay_rent",
            "params": {"from": request["payer"], "to": request["owner"], "deed": request["deed"],
                       "amount": request["amount"], "dice": request.get("dice")},
            "at": request["requested_at"], "expires_at": request.get("lapses_at")}


def content_hash(data) -> str:
    """As services.catalog.content_hash: the SHA-256 of the content in canonical JSON."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def pin(bind, edition_id, pinned: dict):
    """The hash of the edition file's content, stored once; ``None`` for an edition this
    server no longer has (the game then reads it by id, as before)."""
    if edition_id not in pinned:
        path = EDITIONS / f"{edition_id}.json"
        if not path.is_file():
            pinned[edition_id] = None
        else:
            data = json.loads(path.read_text(encoding="utf-8"))
            digest = pinned[edition_id] = content_hash(data)
            exists = bind.execute(sa.select(edition_content.c.hash).where(edition_content.c.hash == digest)).first()
            if exists is None:
                bind.execute(edition_content.insert().values(
                    hash=digest, edition_id=edition_id, data=data,
                    created_at=dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)))
    return pinned[edition_id]


def move_games(bind):
    pinned: dict = {}
    rows = bind.execute(sa.select(game.c.id, game.c.edition_id, game.c.auction_seconds, game.c.rent_requests)
                        .order_by(game.c.id)).all()
    for game_id, edition_id, auction_seconds, requests in rows:
        settings = {**SETTINGS, "auction_seconds": SETTINGS["auction_seconds"] if auction_seconds is None
                    else auction_seconds}
        extra = {"settings": settings, "pots": {},
                 "pending": {key: pending_of(r) for key, r in (requests or {}).items()}}
        bind.execute(game.update().where(game.c.id == game_id)
                     .values(extra=extra, edition_hash=pin(bind, edition_id, pinned)))


def move_journal(bind):
    """Rewrites the rent requests inside entries' changes ([target, ref, field, before, after])
    as pending documents, so undo replays them on the state as it is now kept."""
    rows = bind.execute(sa.select(entry.c.id, entry.c.changes)
                        .where(sa.cast(entry.c.changes, sa.Text).like('%"rent_request"%'))).all()
    for entry_id, changes in rows:
        if not any(c[0] == "rent_request" for c in changes or ()):
            continue
        rewritten = [["pending", ref, name, pending_of(before), pending_of(after)] if target == "rent_request"
                     else [target, ref, name, before, after]
                     for target, ref, name, before, after in changes]
        bind.execute(entry.update().where(entry.c.id == entry_id).values(changes=rewritten))
