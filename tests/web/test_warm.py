"""What the server makes ready once it listens (``web.warm``): the first request after a
restart finds the templates compiled, each region's reading known, and the game's edition
parsed. The time it saves is measured by bench/bench_restart.py, not here."""

from __future__ import annotations

from unittest import mock

from companion.services import catalog
from companion.web import regions
from companion.web.warm import warm
from tests.conftest import make_app
from tests.web.test_pages import open_table, sit_down, start


def test_after_warming_the_first_region_compiles_and_parses_nothing(tmp_path):
    app = make_app(tmp_path)  # its own database, for the restart below to find
    client = app.test_client()
    game_id, _ = open_table(client, names=("Anna", "Bruno"))
    bruno = sit_down(app, game_id, "Bruno")
    start(client, game_id)

    restarted = make_app(tmp_path, fresh=False)  # a new server process, as far as its caches go
    regions._drawn_by.cache_clear()
    regions._names_read.cache_clear()
    warm(restarted)
    env = restarted.jinja_env
    assert {"wallet.html", "table.html", "screen.html", "base.html"} <= {key[1] for key in env.cache}
    phone = restarted.test_client()
    phone.set_cookie("session", bruno.get_cookie("session").value)
    with (
        mock.patch.object(env, "_parse", side_effect=AssertionError("a template parsed on a request")),
        mock.patch.object(catalog, "parse_edition", side_effect=AssertionError("an edition parsed on a request")),
    ):
        answer = phone.get(f"/g/{game_id}/me?regions=notices,balance-region,news,play")
        assert answer.status_code == 200 and set(answer.get_json()["regions"]) >= {"balance-region", "news"}
        assert phone.get(f"/g/{game_id}/me").status_code == 200


def test_built_in_editions_are_known_by_their_hash(app):
    with app.test_request_context():
        catalog.know_built_in()
        classic = catalog.built_in_editions()["classic-it"]
        assert catalog._content(catalog.content_hash(classic.raw)) is classic
