"""Banco's commands for whoever runs the server: ``flask --app app banco ...``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.engine import make_url

from . import backups
from .core.errors import BancoError
from .database import SchemaMismatch, elsewhere
from .services import (
    HANDOFF_MINUTES,
    export_game,
    import_game,
    issue_bank_handoff,
    read_game_file,
    verify_all,
)
from .services.wording import say
from .store import db, migrations


@click.group()
def banco() -> None:
    """Banco's maintenance commands."""


@banco.command()
@with_appcontext
def verify() -> None:
    """Checks every game: each balance equals its journal, every entry balances, versions run
    without a gap. Prints a line for each game with problems and a summary; exits 1 on any."""
    checked, findings = verify_all()
    by_game: dict[str, list[str]] = {}
    for finding in findings:
        by_game.setdefault(finding.game_id, []).append(finding.problem)
    for game_id, problems in by_game.items():
        click.echo(f"game {game_id}: {'; '.join(problems)}")
    games = f"{checked} game{'' if checked == 1 else 's'} checked"
    if not findings:
        click.echo(f"{games}, all balanced")
        return
    click.echo(f"{games}, {len(findings)} problem{'' if len(findings) == 1 else 's'}")
    raise click.exceptions.Exit(1)


@banco.command("export")
@click.argument("game_id")
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def export_command(game_id: str, path: Path | None) -> None:
    """Writes the game GAME_ID as a file (PATH, by default banco-<edition>-<game>-v<version>.json
    here), as the Bank's download and GET /api/v1/games/<id>/export give it; prints where."""
    try:
        file = export_game(game_id)
    except BancoError as error:
        raise click.ClickException(say(error, "en")) from None
    target = path or Path(file.name)
    with target.open("w", encoding="utf-8") as out:
        out.writelines(file.pieces)
    click.echo(f"game {game_id} at version {file.version} written to {target}")


@banco.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@with_appcontext
def import_command(path: Path) -> None:
    """Carries on the game saved in PATH: a new game at the file's version, every entry checked
    (exits 1, naming the first wrong one, and stores nothing, when the file does not check
    out). Prints its join code and a link that gives its bank to the phone that opens it."""
    try:
        made = import_game(read_game_file(path.read_bytes()), hand_out_tokens=False)
    except BancoError as error:
        raise click.ClickException(say(error, "en")) from None
    base = current_app.config.get("PUBLIC_URL", "")
    secret = issue_bank_handoff(made["id"])
    click.echo(f"game {made['id']} made from {path}")
    click.echo(f"join code: {made['join_code']} (players sit down again at {base}/j/{made['join_code']})")
    click.echo(
        f"the bank: open {base}/g/{made['id']}/bank/{secret} on the banker's phone within {HANDOFF_MINUTES} minutes"
    )
    click.echo(f"banker token (API): {made['banker_token']}")


# --- backups: a copy of the whole database, and one put back ----------------------------------


@banco.command()
@click.argument("path", required=False, type=click.Path(path_type=Path))
@with_appcontext
def backup(path: Path | None) -> None:
    """Copies the whole database to PATH (a new file, or a folder), or into the backups folder
    (BANCO_BACKUP_DIR, instance/backups), while the server may go on serving; prints where.
    Refuses a file that exists and too little room. On PostgreSQL, says how to use pg_dump."""
    database = _sqlite_file("pg_dump")
    if path is None or path.is_dir():
        folder = path or Path(current_app.config["BACKUP_DIR"])
        folder.mkdir(parents=True, exist_ok=True)
        path = backups.name_for(database, folder)
    path = path.resolve()
    try:
        size = backups.take(database, path)
        games = backups.banco_games(path)
    except backups.CopyRefused as error:
        raise click.ClickException(f"Nothing was backed up: {error}") from None
    click.echo(f"Backed up {_games(games)} ({size / 1024 / 1024:.1f} MB) to {path}")


@banco.command()
@click.argument("path", type=click.Path(path_type=Path))
@with_appcontext
def restore(path: Path) -> None:
    """Puts the backup PATH in place of the database, once it is known to be a Banco database
    whose every game verifies (as banco verify), keeping the database as it was in the backups
    folder. Refuses while a server is running on the database; refuses a file that is not a
    Banco database, or does not verify, changing nothing. On PostgreSQL, says how to use
    pg_restore."""
    database = _sqlite_file("pg_restore")
    path = path.resolve()
    if not path.is_file():
        raise click.ClickException(f"There is no file {path}.")
    if database.exists() and path.samefile(database):
        raise click.ClickException(f"{path} is the database itself: name a backup.")
    lock = backups.ServerLock(database)
    try:
        lock.take()
    except backups.Locked as error:
        raise click.ClickException(f"Nothing was restored: {error}") from None
    candidate = database.with_name(f".{database.name}.restoring")
    try:
        candidate.unlink(missing_ok=True)  # a restore that was stopped half-way left it
        checked = _checked_backup(path, candidate)
        db.session.remove()
        db.engine.dispose()  # this command's own connections to the database, closed
        kept = _keep_as_it_was(database)
        try:
            backups.put_back(candidate, database)
        except sqlite3.Error as error:  # another program has it open: one transaction, so nothing changed
            raise click.ClickException(f"Nothing was restored: {database} could not be written ({error}).") from None
    finally:
        for left in (candidate, *(candidate.with_name(candidate.name + end) for end in ("-wal", "-shm", "-journal"))):
            left.unlink(missing_ok=True)  # the check opened it as the server does: in WAL
        lock.release()
    click.echo(f"Restored {path} into {database}: {_games(checked)} checked, all balanced.")
    if kept is not None:
        click.echo(f"The database as it was is kept in {kept}.")


def _checked_backup(path: Path, candidate: Path) -> int:
    """Copies the backup at ``path`` to ``candidate``, brings its tables up to date and verifies
    every game there; returns how many games it holds. Refuses (a ``ClickException`` saying
    why) a file that is not a Banco database, tables too new, and any game that does not verify."""
    try:
        backups.banco_games(path)
        revision = backups.revision_of(path)
        if revision is not None and not migrations.known(revision):
            raise click.ClickException(
                f"Nothing was restored: {path} was saved by a newer Banco (its tables are at revision "
                f"{revision}; this Banco knows up to {migrations.head()}). Update Banco, then restore it."
            )
        backups.take(path, candidate)
        with elsewhere(candidate):
            checked, findings = verify_all()
    except (backups.CopyRefused, SchemaMismatch) as error:
        raise click.ClickException(f"Nothing was restored: {error}") from None
    except click.ClickException:
        raise
    except Exception as error:
        # Tables named like Banco's that are not Banco's: whatever fails in reading them, the
        # answer is one sentence, never a traceback, and the database is untouched.
        reason = str(error).strip().splitlines()[0] if str(error).strip() else error.__class__.__name__
        raise click.ClickException(
            f"Nothing was restored: {path} has tables named like Banco's, but they cannot be read as "
            f"Banco's ({reason})."
        ) from None
    if findings:
        for finding in findings:
            click.echo(f"game {finding.game_id}: {finding.problem}")
        problems = f"{len(findings)} problem{'' if len(findings) == 1 else 's'}"
        raise click.ClickException(f"Nothing was restored: {path} does not verify ({problems}).")
    return checked


def _keep_as_it_was(database: Path) -> Path | None:
    """A copy of the database about to be replaced, in the backups folder; ``None`` when it
    holds no game. Refuses (a ``ClickException``) to go on when it cannot be kept."""
    if not database.exists() or backups.banco_games(database) == 0:
        return None
    folder = Path(current_app.config["BACKUP_DIR"])
    try:
        folder.mkdir(parents=True, exist_ok=True)
        kept = backups.name_for(database, folder, backups.BEFORE_RESTORE)
        backups.take(database, kept)
    except (backups.CopyRefused, OSError) as error:
        raise click.ClickException(
            f"Nothing was restored: the database as it is could not be kept first ({error})"
        ) from None
    return kept


def _sqlite_file(tool: str) -> Path:
    """The database's file; on PostgreSQL, exits 1 saying how ``tool`` (pg_dump, pg_restore) does it."""
    database = current_app.config.get("DATABASE_FILE")
    if database is not None:
        return Path(database)
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() != "postgresql":
        raise click.ClickException("This database lives in memory: there is nothing to back up or restore.")
    address = url.set(drivername="postgresql").render_as_string(hide_password=True)
    name = url.database or "banco"
    if tool == "pg_dump":
        how = (
            "Back it up with pg_dump, which copies it consistently while the server runs:\n\n"
            f"    pg_dump --format=custom --file={name}-$(date +%Y-%m-%d-%H%M).dump '{address}'\n"
        )
    else:
        how = (
            "Restore a pg_dump backup with pg_restore while the server is stopped (--clean drops "
            "what the backup holds before it writes it back):\n\n"
            f"    pg_restore --clean --if-exists --no-owner --dbname='{address}' {name}-YYYY-MM-DD-HHMM.dump\n\n"
            "then check it: flask --app app banco verify\n"
        )
    raise click.ClickException(f"This database is PostgreSQL: Banco copies SQLite files only. {how}")


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"
