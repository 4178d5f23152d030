"""Banco's commands for whoever runs the server: ``flask --app app banco ...``."""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from .services import verify_all


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
