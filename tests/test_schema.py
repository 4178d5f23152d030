"""A database made by another version of the tables is refused at start, clearly."""

from __future__ import annotations

import sqlite3

import pytest

from companion import create_app
from companion.database import SchemaMismatch
from tests.conftest import EDITIONS_ONCE


def config(path):
    return {"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}


def test_a_new_database_gets_the_tables_and_opens_again(tmp_path):
    create_app(load_editions=EDITIONS_ONCE, test_config=config(tmp_path / "db.sqlite3"))
    create_app(
        load_editions=EDITIONS_ONCE, test_config=config(tmp_path / "db.sqlite3")
    )  # the second start finds its own tables


def test_an_older_database_is_refused_with_the_way_out(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE game (id VARCHAR(16) PRIMARY KEY)")
    with pytest.raises(SchemaMismatch, match="Start with a new database"):
        create_app(load_editions=EDITIONS_ONCE, test_config=config(path))
