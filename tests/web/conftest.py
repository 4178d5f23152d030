"""The page tests run with CSRF protection on, as in production."""

from __future__ import annotations

import pytest

from companion import store
from tests.conftest import make_app


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    with app.app_context():
        store.db.session.remove()
        store.db.engine.dispose()
