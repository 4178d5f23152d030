"""Which server address the printed QR codes hold. Deed cards are printed once and kept for
many evenings; if the laptop gets another address on the Wi-Fi, their codes stop opening, and
the table says so."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from ..store import PrintedAddress, db, now_utc
from .tx import writing

DEEDS = "deeds"


def record(kind: str, base_url: str) -> None:
    """Remembers that sheets of ``kind`` were just printed with ``base_url`` in their codes."""
    with writing():
        row = db.session.get(PrintedAddress, kind, with_for_update=True)
        if row is not None:
            row.base_url, row.at = base_url, now_utc()
            return
        try:
            # In a savepoint: two first printings at the same instant both insert; the second
            # finds the row taken (PostgreSQL refuses the duplicate) and updates it instead.
            with db.session.begin_nested():
                db.session.add(PrintedAddress(kind=kind, base_url=base_url, at=now_utc()))
        except IntegrityError:
            row = db.session.get(PrintedAddress, kind, with_for_update=True, populate_existing=True)
            assert row is not None  # the row the INSERT ran into
            row.base_url, row.at = base_url, now_utc()


def moved_since_printing(base_url: str) -> PrintedAddress | None:
    """The last printing of deed cards when it holds another address than ``base_url`` (the
    address phones reach now), else ``None``."""
    row = db.session.get(PrintedAddress, DEEDS)
    return row if row is not None and row.base_url != base_url else None
