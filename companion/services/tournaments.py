"""Tournaments: registering players, drawing each round's tables (one game per table, created
and ready to start), and the general standings from the games' tournament points."""
from __future__ import annotations

import secrets

from sqlalchemy import select

from ..core import tournament as rules
from ..core.errors import N_, BadInput, Forbidden, NotFound, RuleViolation, Unauthorized
from ..core.state import FINISHED
from ..store import Game, Tournament, TournamentPlayer, TournamentTable, db
from .catalog import editions
from .games import EDITION_CLOCK, ID_ALPHABET, clean_name, create_game, random_id
from .results import score
from .seats import hash_secret
from .tx import plausible_id, writing

MAX_TOURNAMENT_NAME = 80


def _clean_title(name) -> str:
    if not isinstance(name, str) or not " ".join(name.split()):
        raise BadInput("invalid_name", N_("Give the tournament a name."))
    name = " ".join(name.split())
    if len(name) > MAX_TOURNAMENT_NAME or not name.isprintable():
        raise BadInput("invalid_name", N_("A tournament's name is at most %(max)s printable characters."),
                       max=MAX_TOURNAMENT_NAME)
    return name


def create_tournament(name, edition_id, names, table_size=4, round_minutes=EDITION_CLOCK, seed=None) -> dict:
    """Opens a tournament of an edition with its players; returns its id, the director's
    token and the players' ids.

    Refuses: a bad name, an unknown edition, an edition without tournament points, players
    that are not a list of distinct names, fewer players than one table needs, a table size
    outside the edition's player range, a round time that is not 1 to 1440 minutes, and a seed
    that is not a whole number.
    """
    title = _clean_title(name)
    edition = editions().get(edition_id) if isinstance(edition_id, str) else None
    if edition is None:
        raise BadInput("unknown_edition", N_("There is no such edition."))
    if edition.tournament_points is None:
        raise BadInput("no_tournament_points", N_("This edition has no tournament points: pick the championship."))
    if not isinstance(names, list):
        raise BadInput("invalid_players", N_("Players must be a list of names."))
    names = [clean_name(n) for n in names]
    if len({n.casefold() for n in names}) != len(names):
        raise BadInput("duplicate_name", N_("Two players cannot have the same name."))
    if len(names) < edition.min_players:
        raise BadInput("too_few_players", N_("A round needs at least %(min)s players."), min=edition.min_players)
    if (isinstance(table_size, bool) or not isinstance(table_size, int)
            or not edition.min_players <= table_size <= edition.max_players):
        raise BadInput("invalid_table_size", N_("A table seats %(min)s to %(max)s players."),
                       min=edition.min_players, max=edition.max_players)
    if round_minutes is EDITION_CLOCK:
        round_minutes = edition.time_limit_minutes
    if round_minutes is not None and (isinstance(round_minutes, bool) or not isinstance(round_minutes, int)
                                      or not 1 <= round_minutes <= 1440):
        raise BadInput("invalid_time_limit", N_("The time limit must be 1 to 1440 minutes."))
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 2**62):
        raise BadInput("invalid_seed", N_("The seed must be a whole number."))
    token = secrets.token_urlsafe(24)
    with writing():
        t = Tournament(id=random_id(ID_ALPHABET, 10), name=title, edition_id=edition.id, table_size=table_size,
                       round_minutes=round_minutes, seed=seed if seed is not None else secrets.randbits(52),
                       director_token_hash=hash_secret(token))
        db.session.add(t)
        players = [TournamentPlayer(id=random_id(), tournament_id=t.id, seq=i, name=n) for i, n in enumerate(names)]
        db.session.add_all(players)
    return {"id": t.id, "director_token": token, "players": [{"id": p.id, "name": p.name} for p in players]}


def get_tournament(tournament_id) -> Tournament:
    """The tournament; refuses an unknown id (404)."""
    found = db.session.get(Tournament, tournament_id) if plausible_id(tournament_id) else None
    if found is None:
        raise NotFound("unknown_tournament", N_("There is no such tournament."))
    return found


def _require_director(t: Tournament, token) -> None:
    if not isinstance(token, str) or not token:
        raise Unauthorized("missing_token", N_("Send your token as 'Authorization: Bearer <token>'."))
    if not secrets.compare_digest(hash_secret(token), t.director_token_hash):
        raise Forbidden("not_director", N_("Only the tournament's director can do this."))


def is_director(tournament_id, token) -> bool:
    """Whether ``token`` is the director's of this tournament (an unknown tournament: no)."""
    found = db.session.get(Tournament, tournament_id) if plausible_id(tournament_id) else None
    return (found is not None and isinstance(token, str) and bool(token)
            and secrets.compare_digest(hash_secret(token), found.director_token_hash))


def register(tournament_id, token, name) -> dict:
    """A late arrival joins the tournament, from the next round on. Refuses: an unknown
    tournament, anyone but the director, a bad name and a name already registered."""
    with writing():
        t = get_tournament(tournament_id)
        _require_director(t, token)
        name = clean_name(name)
        if any(p.name.casefold() == name.casefold() for p in t.players):
            raise BadInput("duplicate_name", N_("Two players cannot have the same name."))
        player = TournamentPlayer(id=random_id(), tournament_id=t.id, seq=len(t.players), name=name)
        db.session.add(player)
    return {"id": player.id, "name": player.name}


def withdraw(tournament_id, token, player_id) -> dict:
    """A player leaves the tournament: drawn at no later table; their points so far stay in
    the standings. Refuses: an unknown tournament or player, anyone but the director, and a
    player already withdrawn."""
    with writing():
        t = get_tournament(tournament_id)
        _require_director(t, token)
        player = next((p for p in t.players if p.id == player_id), None)
        if player is None:
            raise NotFound("unknown_player", N_("There is no such player in this game."))
        if player.withdrawn:
            raise RuleViolation("already_withdrawn", N_("%(name)s has already withdrawn."), name=player.name)
        player.withdrawn = True
    return {"id": player.id, "name": player.name, "withdrawn": True}


def _rounds(t: Tournament) -> dict[int, list[TournamentTable]]:
    rounds: dict[int, list[TournamentTable]] = {}
    for table in t.tables:
        rounds.setdefault(table.round, []).append(table)
    return rounds


def draw_round(tournament_id, token, force=False) -> dict:
    """Draws the next round: the players still in, at tables as even as the count allows,
    meeting again only where no other draw exists, drawn from the tournament's seed; one game
    per table, created with its tokens and ready to start, on the round's clock.

    Refuses: an unknown tournament, anyone but the director, too few players for a table, and
    (unless ``force``) a round while tables of the previous one are still playing, naming them.
    """
    t = get_tournament(tournament_id)
    _require_director(t, token)
    rounds = _rounds(t)
    if rounds and force is not True:
        playing = [tb.number for tb in rounds[max(rounds)] if db.session.get(Game, tb.game_id).status != FINISHED]
        if playing:
            raise RuleViolation("tables_still_playing",
                                N_("Tables %(tables)s of round %(round)s are still playing: end them, or force "
                                   "the draw."), tables=", ".join(map(str, playing)), round=max(rounds))
    edition = editions()[t.edition_id]
    players = [p for p in t.players if not p.withdrawn]
    sizes = rules.table_sizes(len(players), t.table_size, edition.min_players, edition.max_players)
    met = rules.met_before([tb.seats for tb in tables] for tables in rounds.values())
    number = max(rounds, default=0) + 1
    drawn = rules.draw([p.id for p in players], sizes, met, f"{t.seed}:{number}")
    names = {p.id: p.name for p in t.players}
    created = []
    for i, seats in enumerate(drawn, start=1):
        game = create_game(t.edition_id, [names[pid] for pid in seats], t.round_minutes,
                           seed=(t.seed + number * 1000 + i) % 2**52)
        created.append((i, seats, game))
    with writing():
        for i, seats, game in created:
            db.session.add(TournamentTable(tournament_id=t.id, round=number, number=i, game_id=game["id"],
                                           seats=list(seats)))
    return {"round": number, "tables": [{"number": i, "game": game, "players": list(seats)}
                                        for i, seats, game in created]}


def tournament_view(tournament_id) -> dict:
    """``GET /api/v1/tournaments/{id}``: the rounds with each table's game and status, and the
    general standings from every finished game's tournament points."""
    t = get_tournament(tournament_id)
    names = {p.id: p.name for p in t.players}
    results, rounds = [], []
    for number, tables in sorted(_rounds(t).items()):
        shown = []
        for tb in tables:
            game = db.session.get(Game, tb.game_id)
            seat_of = {p.id: tb.seats[p.seat] for p in game.players}
            shown.append({"number": tb.number, "game": game.id, "status": game.status,
                          "players": list(tb.seats)})
            if game.status == FINISHED:
                for row in score(game)["standings"]:
                    results.append(rules.Result(seat_of[row["player"]], row["tournament_points"] or 0,
                                                row["rank"], row["total"] or 0))
        rounds.append({"round": number, "tables": shown})
    table = rules.standings([p.id for p in t.players], results)
    return {"id": t.id, "name": t.name, "edition": t.edition_id, "table_size": t.table_size,
            "round_minutes": t.round_minutes,
            "players": [{"id": p.id, "name": p.name, "withdrawn": p.withdrawn} for p in t.players],
            "rounds": rounds,
            "standings": [{"player": s.player, "name": names[s.player], "points": s.points, "played": s.played,
                           "wins": s.wins, "worth": s.worth, "rank": s.rank} for s in table]}
