"""A bad edition file is reported when the server starts and left out; it never stops the
server, and the good editions are still offered."""

from __future__ import annotations

import json
import logging

from companion.core.editions.loading import EDITIONS_DIR
from companion.store import db
from tests.conftest import Api, make_app


def test_a_bad_edition_file_is_logged_and_skipped(tmp_path, caplog):
    editions = tmp_path / "editions"
    editions.mkdir()
    good = json.loads((EDITIONS_DIR / "classic-it.json").read_text(encoding="utf-8"))
    (editions / "classic-it.json").write_text(json.dumps(good), encoding="utf-8")
    bad = dict(good, id="broken", mortgage={"policy": "lap_deadline", "transfer_fee_percent": 0})
    (editions / "broken.json").write_text(json.dumps(bad), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        app = make_app(tmp_path, EDITIONS_DIR=str(editions))
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "edition file skipped: broken.json: broken: mortgage.laps is missing" in warnings
    status, body = Api(app.test_client()).get("/api/v1/editions")
    assert status == 200 and [e["id"] for e in body["editions"]] == ["classic-it"]
    with app.app_context():
        db.engine.dispose()
