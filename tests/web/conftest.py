"""The page tests run with CSRF protection on, as in production."""

from __future__ import annotations

import pytest

from tests.conftest import SharedApp


@pytest.fixture(scope="module")
def shared_page_app(tmp_path_factory):
    shared = SharedApp(tmp_path_factory.mktemp("app"))
    yield shared
    shared.close()


@pytest.fixture
def app(shared_page_app):
    """The app of the page tests: the module's one, as new."""
    return shared_page_app.renew()
