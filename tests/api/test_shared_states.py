"""Pages read the core's view of a game once per version for the whole process
(``journal.state_of`` inside ``services.reading``, kept by ``repository.GAMES``): after an event
every open page of the game reads the same new version. The view is shared between threads, so
nothing may change it (it is frozen): a write never gets it, and rendering every live page
leaves it as a fresh read of the rows."""

from __future__ import annotations

import pytest

from companion import services
from companion.services import journal
from companion.services.repository import GAMES
from companion.store.mapping import load_state
from tests.web.test_live_regions import _act, _pages
from tests.web.test_live_regions import rich as rich  # a fixture, used by name

# On PostgreSQL too (python -m tests): the view shared per version, read inside each database's snapshots.
pytestmark = pytest.mark.database


def _shared_view(app, game_id):
    with app.app_context(), services.reading():
        return services.state_of(services.get_game(game_id))


def test_one_view_per_version_inside_snapshots_and_never_for_a_write(rich, app):
    game_id = rich[0]
    first = _shared_view(app, game_id)
    assert _shared_view(app, game_id) is first
    with app.app_context(), services.reading():
        assert services.state_of(services.get_game(game_id), deeds=False) is first  # the board is extra
    with app.app_context():
        assert services.state_of(services.get_game(game_id)) is not first  # outside a snapshot: its own
        with services.writing():
            assert services.state_of(services.get_game(game_id)) is not first
            with services.reading():  # a read inside a write reads the write's own view
                assert services.state_of(services.get_game(game_id)) is not first
    _act(app, game_id, "Anna", {"type": "transfer", "to": "Bruno", "amount": 10})
    after = _shared_view(app, game_id)
    assert after is not first and after.players != first.players


def test_every_live_page_leaves_the_shared_view_as_the_rows_say(rich, app):
    game_id, banker, anna, bruno = rich
    for device, path, _at_least in _pages(game_id, banker, anna, bruno, app.test_client()):
        assert device.get(path).status_code == 200
        assert (
            device.get(path + ("&" if "?" in path else "?") + "regions=deed-now,danger,state,results").status_code
            == 200
        )
    shared = _shared_view(app, game_id)
    with app.app_context():
        game = services.get_game(game_id)
        key = (services.database_key(), game_id, game.version)
        assert GAMES._shared[key][1] is shared  # the pages above read this very view
        assert shared == load_state(game, services.edition_of(game))


def test_two_apps_on_one_database_never_share_a_view(tmp_path):
    """As the tests do on PostgreSQL (each empties the same database): a game of the same id at
    the same version, written anew by another app, is read anew."""
    from tests.conftest import make_app

    first, second = make_app(tmp_path), make_app(tmp_path)
    with first.app_context():
        one = services.database_key()
        assert services.database_key() == one  # one name for one engine
    with second.app_context():
        assert services.database_key() != one
    for app in (first, second):
        with app.app_context():
            journal.db.session.remove()
            journal.db.engine.dispose()
