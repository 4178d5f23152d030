#!/usr/bin/env python3
"""The floor: the least a Flask app can do to move money between two players, served as Banco is.

A bare Flask + Flask-SQLAlchemy app on SQLite (WAL, ``synchronous=FULL``, a write transaction
that takes the lock with ``BEGIN IMMEDIATE``: the same durability and locking as Banco), under
uvicorn with the app mounted through a2wsgi (Banco's server, without its live streams; uvicorn
takes httptools and uvloop where they are installed, as Banco's server does). It has
no rules, no journal, no idempotency keys, no live pages and no languages: one transfer reads
the payer by its token's hash and the payee, checks the cash, updates both and inserts one
row. ``bench/bench_server.py --floor`` runs it beside Banco in the same run, with the same
phones and the same requests, so "N times the floor" compares two servers under the same load.

It speaks just enough of Banco's API for the benchmark's phones:

- ``POST /api/v1/games`` ``{"players": [names]}`` answers 201 ``{"id", "banker_token",
  "players": [{"id", "name", "token"}]}``, every player holding 1500;
- ``POST /api/v1/games/{id}/actions`` with ``Authorization: Bearer <token>``:
  ``{"type": "start"}`` answers ``{"version"}``; ``{"type": "transfer", "to", "amount"}``
  answers ``{"version", "result": {"cash"}}``, 409 when the cash is short, 401 for a bad token.

    DATABASE_URL=sqlite:////tmp/floor.sqlite3 PORT=5001 python bench/floor_app.py
    FLOOR_SERVER=waitress DATABASE_URL=sqlite:////tmp/floor.sqlite3 PORT=5001 python bench/floor_app.py

``FLOOR_SERVER=waitress`` serves it under waitress instead: a thread per request, the other
common way to serve a Flask app. The floor is not the same under the two servers, so ratios are
given against both.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading

from flask import Flask, jsonify, request
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

STARTING_CASH = 1500


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
_writing = threading.local()
# FLOOR_QUEUE=1: the writers of the process queue on one lock before SQLite's (as Banco's do),
# instead of sleeping in SQLite's busy handler when the database is locked.
_QUEUE = threading.Lock() if os.environ.get("FLOOR_QUEUE") == "1" else None


class Account(db.Model):
    id: Mapped[str] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(index=True)
    name: Mapped[str] = mapped_column()
    token_hash: Mapped[str] = mapped_column(unique=True)
    cash: Mapped[int] = mapped_column(default=STARTING_CASH)


class Transfer(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column()
    payer: Mapped[str] = mapped_column()
    payee: Mapped[str] = mapped_column()
    amount: Mapped[int] = mapped_column()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_app(url: str) -> Flask:
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    db.init_app(app)
    with app.app_context():
        engine = db.engine

        @event.listens_for(engine, "connect")
        def _connect(dbapi_connection, _record):
            dbapi_connection.isolation_level = None
            for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=15000"):
                dbapi_connection.execute(f"PRAGMA {pragma}")

        @event.listens_for(engine, "begin")
        def _begin(connection):
            connection.exec_driver_sql("BEGIN IMMEDIATE" if getattr(_writing, "on", False) else "BEGIN")

        db.create_all()

    @app.post("/api/v1/games")
    def create_game():
        names = request.get_json()["players"]
        game_id = secrets.token_hex(6)
        players = []
        for i, name in enumerate(names):
            token = secrets.token_urlsafe(24)
            account = Account(id=f"{game_id}-{i}", game_id=game_id, name=name, token_hash=_hash(token))
            db.session.add(account)
            players.append({"id": account.id, "name": name, "token": token})
        db.session.commit()
        return jsonify({"id": game_id, "banker_token": players[0]["token"], "players": players}), 201

    @app.post("/api/v1/games/<game_id>/actions")
    def act(game_id):
        body = request.get_json()
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if body.get("type") == "start":
            return jsonify({"version": 0})
        if _QUEUE is None:
            return _transfer(game_id, token, body)
        with _QUEUE:
            return _transfer(game_id, token, body)

    def _transfer(game_id, token, body):
        _writing.on = True
        try:
            db.session.rollback()
            payer = db.session.query(Account).filter_by(token_hash=_hash(token), game_id=game_id).one_or_none()
            if payer is None:
                return jsonify({"error": {"code": "invalid_token"}}), 401
            payee = db.session.get(Account, body["to"])
            amount = int(body["amount"])
            if payee is None or payee.game_id != game_id or amount <= 0:
                return jsonify({"error": {"code": "bad_input"}}), 400
            if payer.cash < amount:
                db.session.rollback()
                return jsonify({"error": {"code": "insufficient_cash"}}), 409
            payer.cash -= amount
            payee.cash += amount
            row = Transfer(game_id=game_id, payer=payer.id, payee=payee.id, amount=amount)
            db.session.add(row)
            db.session.commit()
            return jsonify({"version": row.id, "result": {"cash": payer.cash}})
        finally:
            _writing.on = False
            db.session.rollback()

    @app.get("/api/v1/editions")
    def ready():
        return jsonify({"editions": []})

    return app


def main() -> None:
    app = create_app(os.environ["DATABASE_URL"])
    threads = int(os.environ.get("BANCO_THREADS", "32"))
    if os.environ.get("FLOOR_SERVER") == "waitress":
        # The floor under a thread-per-request server: waitress.
        from waitress import serve

        serve(app, host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ["PORT"]), threads=threads, _quiet=True)
        return
    import uvicorn
    from a2wsgi import WSGIMiddleware

    uvicorn.run(
        WSGIMiddleware(app, workers=threads),
        host=os.environ.get("HOST", "127.0.0.1"),
        port=int(os.environ["PORT"]),
        access_log=False,
        log_level="warning",
        lifespan="off",
        interface="asgi3",
    )


if __name__ == "__main__":
    main()
