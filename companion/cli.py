"""Banco's commands for whoever runs the server: ``flask --app app banco ...``."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from .core.errors import BancoError
from .services import (
    HANDOFF_MINUTES,
    export_game,
    game_file_name,
    import_game,
    issue_bank_handoff,
    read_game_file,
    verify_all,
)
from .services.wording import say


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
        data = export_game(game_id)
    except BancoError as error:
        raise click.ClickException(say(error, "en")) from None
    target = path or Path(game_file_name(data))
    target.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    click.echo(f"game {game_id} at version {data['game']['version']} written to {target}")


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
