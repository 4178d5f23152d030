"""Tournaments: registering players, drawing each round's tables (one game per table, created
and ready to start), the semi-finals and the final seeded from the standings, the general
standings from the games' tournament points, and the referee's token."""

from __future__ import annotations

import secrets

from ..core import tournament as rules
from ..core import waiting
from ..core.errors import N_, BadInput, Forbidden, NotFound, RuleViolation, Unauthorized
from ..core.state import BANKER, FINISHED
from ..store import Game, Tournament, TournamentPlayer, TournamentTable, db, now_utc
from .catalog import editions
from .clock import view as clock_view
from .games import (
    EDITION_CLOCK,
    ID_ALPHABET,
    check_seed,
    clean_name,
    clock_minutes,
    create_game,
    offered_edition,
    random_id,
)
from .journal import state_of
from .repository import plausible_id
from .results import score
from .seats import hash_secret
from .tx import writing

MAX_TOURNAMENT_NAME = 80


def _clean_title(name) -> str:
    if not isinstance(name, str) or not " ".join(name.split()):
        raise BadInput("invalid_name", N_("Give the tournament a name."))
    name = " ".join(name.split())
    if len(name) > MAX_TOURNAMENT_NAME or not name.isprintable():
        raise BadInput(
            "invalid_name", N_("A tournament's name is at most %(max)s printable characters."), max=MAX_TOURNAMENT_NAME
        )
    return name


# Tables warn of their last minutes this long before the round's end, unless the tournament
# says otherwise (a round too short for it gets no warning).
LAST_MINUTES = 10
# Preliminary rounds before the semi-finals, unless the tournament says otherwise: the rulebook
# sums "the various rounds" without saying how many; two suit a club evening.
PRELIMINARY_ROUNDS = 2


def finals_of(t: Tournament) -> rules.Finals:
    """The tournament's semi-final and final settings (a tournament opened before they
    existed: two tables of its size, then one)."""
    given = t.settings or {}
    return rules.Finals(
        semi_finalists=given.get("semi_finalists", 2 * t.table_size),
        semi_final_tables=given.get("semi_final_tables", 2),
        final_players=given.get("final_players", t.table_size),
        finalists_by=given.get("finalists_by", "places"),
    )


def last_minutes_of(t: Tournament) -> int:
    return (t.settings or {}).get("last_minutes", 0)


def preliminary_rounds_of(t: Tournament) -> int:
    """How many preliminary rounds the tournament plans before its semi-finals or final."""
    return (t.settings or {}).get("preliminary_rounds", PRELIMINARY_ROUNDS)


def _clean_preliminary_rounds(rounds) -> int:
    if rounds is None:
        return PRELIMINARY_ROUNDS
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 20:
        raise BadInput("invalid_preliminary_rounds", N_("The preliminary rounds must be 1 to 20."))
    return rounds


def _clean_finals(finals, table_size: int, edition) -> rules.Finals:
    if finals is None:
        finals = {}
    if not isinstance(finals, dict):
        raise BadInput("invalid_finals", N_("The semi-finals and the final take whole numbers of players and tables."))
    defaults = rules.Finals(semi_finalists=2 * table_size, semi_final_tables=2, final_players=table_size)
    chosen = rules.Finals(
        **{
            field: finals.get(field, getattr(defaults, field))
            for field in ("semi_finalists", "semi_final_tables", "final_players", "finalists_by")
        }
    )
    if chosen.semi_finalists == 0 or chosen.semi_final_tables == 0:
        chosen = rules.Finals(0, 0, chosen.final_players, chosen.finalists_by)
    rules.check_finals(chosen, edition.min_players, edition.max_players)
    return chosen


def _clean_last_minutes(last_minutes, round_minutes) -> int:
    if last_minutes is None:
        return LAST_MINUTES if round_minutes and round_minutes > 2 * LAST_MINUTES else 0
    if (
        isinstance(last_minutes, bool)
        or not isinstance(last_minutes, int)
        or not 0 <= last_minutes <= 60
        or (last_minutes and (not round_minutes or last_minutes >= round_minutes))
    ):
        raise BadInput(
            "invalid_last_minutes", N_("The last minutes' warning must be 0 to 60 minutes, shorter than a round.")
        )
    return last_minutes


def create_tournament(
    name,
    edition_id,
    names,
    table_size=4,
    round_minutes=EDITION_CLOCK,
    seed=None,
    finals=None,
    last_minutes=None,
    preliminary_rounds=None,
) -> dict:
    """Opens a tournament of an edition with its players; returns its id, the director's
    token and the players' ids. ``finals`` may set ``semi_finalists`` (0: no semi-finals),
    ``semi_final_tables``, ``final_players`` and ``finalists_by`` (``places`` or ``points``):
    the rulebook leaves them to the organisers; ``last_minutes`` is when the tables warn that
    the round is ending (by default 10, none for a round of 20 minutes or less);
    ``preliminary_rounds`` how many rounds come before the semi-finals (by default 2): the desk
    puts the next step by it, and the director may still draw another round.

    Refuses: a bad name, an unknown edition, an edition without tournament points, players
    that are not a list of distinct names, fewer players than one table needs, a table size
    outside the edition's player range, a round time that is not 1 to 1440 minutes, a seed
    that is not a whole number, semi-finals or a final that cannot be seated within the
    edition's player range, a warning that is not 0 to 60 minutes shorter than a round, and
    preliminary rounds that are not 1 to 20.
    """
    title = _clean_title(name)
    edition = offered_edition(edition_id)
    if edition.tournament_points is None:
        raise BadInput("no_tournament_points", N_("This edition has no tournament points: pick the championship."))
    names = _clean_names(edition, names)
    _check_table_size(edition, table_size)
    round_minutes = clock_minutes(edition, round_minutes)
    check_seed(seed)
    chosen = _clean_finals(finals, table_size, edition)
    warning = _clean_last_minutes(last_minutes, round_minutes)
    planned = _clean_preliminary_rounds(preliminary_rounds)
    token = secrets.token_urlsafe(24)
    with writing():
        t = Tournament(
            id=random_id(ID_ALPHABET, 10),
            name=title,
            edition_id=edition.id,
            table_size=table_size,
            round_minutes=round_minutes,
            seed=seed if seed is not None else secrets.randbits(52),
            director_token_hash=hash_secret(token),
            settings={**chosen.__dict__, "last_minutes": warning, "preliminary_rounds": planned},
        )
        db.session.add(t)
        players = [TournamentPlayer(id=random_id(), tournament_id=t.id, seq=i, name=n) for i, n in enumerate(names)]
        db.session.add_all(players)
    return {"id": t.id, "director_token": token, "players": [{"id": p.id, "name": p.name} for p in players]}


def _clean_names(edition, names) -> list[str]:
    """The players' names, cleaned (``clean_name``); refuses what is not a list of them, a name
    twice (case aside) and fewer players than one table needs."""
    if not isinstance(names, list):
        raise BadInput("invalid_players", N_("Players must be a list of names."))
    names = [clean_name(n) for n in names]
    if len({n.casefold() for n in names}) != len(names):
        raise BadInput("duplicate_name", N_("Two players cannot have the same name."))
    if len(names) < edition.min_players:
        raise BadInput("too_few_players", N_("A round needs at least %(min)s players."), min=edition.min_players)
    return names


def _check_table_size(edition, table_size) -> None:
    """Refuses a table size that is not a whole number within the edition's player range."""
    if (
        isinstance(table_size, bool)
        or not isinstance(table_size, int)
        or not edition.min_players <= table_size <= edition.max_players
    ):
        raise BadInput(
            "invalid_table_size",
            N_("A table seats %(min)s to %(max)s players."),
            min=edition.min_players,
            max=edition.max_players,
        )


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


def _token_matches(token, token_hash: str | None) -> bool:
    return (
        isinstance(token, str)
        and bool(token)
        and token_hash is not None
        and secrets.compare_digest(hash_secret(token), token_hash)
    )


def is_director(tournament_id, token) -> bool:
    """Whether ``token`` is the director's of this tournament (an unknown tournament: no)."""
    found = db.session.get(Tournament, tournament_id) if plausible_id(tournament_id) else None
    return found is not None and _token_matches(token, found.director_token_hash)


def is_referee(tournament_id, token) -> bool:
    """Whether ``token`` is the referee's of this tournament (an unknown tournament: no)."""
    found = db.session.get(Tournament, tournament_id) if plausible_id(tournament_id) else None
    return found is not None and _token_matches(token, found.referee_token_hash)


def issue_referee_token(tournament_id, token) -> dict:
    """A new referee's token: the referee's devices see every table (``referee_view``) and
    change nothing. Issuing one signs out the devices holding the one before. Refuses: an
    unknown tournament and anyone but the director."""
    with writing():
        t = get_tournament(tournament_id)
        _require_director(t, token)
        referee = secrets.token_urlsafe(24)
        t.referee_token_hash = hash_secret(referee)
    return {"referee_token": referee}


def require_referee(tournament_id, token) -> Tournament:
    """The tournament, for its director or referee. Refuses: an unknown tournament, no token
    (401) and any other token (403)."""
    t = get_tournament(tournament_id)
    if not isinstance(token, str) or not token:
        raise Unauthorized("missing_token", N_("Send your token as 'Authorization: Bearer <token>'."))
    if not (_token_matches(token, t.director_token_hash) or _token_matches(token, t.referee_token_hash)):
        raise Forbidden("not_referee", N_("Only the tournament's director or referee can see this."))
    return t


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


def _game_of(tb: TournamentTable) -> Game:
    game = db.session.get(Game, tb.game_id)
    assert game is not None  # a table's game is a foreign key, and games are never deleted
    return game


def _finished(tb: TournamentTable) -> bool:
    return _game_of(tb).status == FINISHED


def _check_stage(t: Tournament, rounds: dict[int, list[TournamentTable]], stage, force) -> None:
    """Refuses a stage out of turn: an unknown stage, anything after the final, a round
    after the semi-finals, the semi-finals twice or where the tournament has none, the final
    before the semi-finals, either before a round is played, and (a round unless forced, the
    semi-finals and the final always: they are seeded from results) tables still playing."""
    if stage not in rules.STAGES:
        raise BadInput("invalid_stage", N_("The stage is round, semi_final or final."))
    _check_order(finals_of(t), {tables[0].stage for tables in rounds.values()}, stage)
    if stage == rules.ROUND:
        if rounds and force is not True:
            last = max(rounds)
            _check_played({last: rounds[last]}, N_ROUND_PLAYING)
    else:
        _check_played(dict(sorted(rounds.items())), N_FINALS_PLAYING)


def _check_order(finals: rules.Finals, drawn: set, stage) -> None:
    """Refuses ``stage`` after the stages ``drawn``: anything after the final, a round after
    the semi-finals, the semi-finals twice or where the tournament has none, the final before
    the semi-finals, and either before a round is played."""
    if rules.FINAL in drawn:
        raise RuleViolation("final_drawn", N_("The final is drawn: the tournament has no more rounds."))
    if stage == rules.ROUND and rules.SEMI_FINAL in drawn:
        raise RuleViolation("semi_finals_drawn", N_("The semi-finals are drawn: the final comes next."))
    if stage != rules.ROUND and rules.ROUND not in drawn:
        raise RuleViolation(
            "no_round_played", N_("The semi-finals and the final are drawn from the standings: play a round first.")
        )
    if stage == rules.SEMI_FINAL and rules.SEMI_FINAL in drawn:
        raise RuleViolation("semi_finals_drawn", N_("The semi-finals are drawn: the final comes next."))
    if stage == rules.SEMI_FINAL and not finals.semi_finalists:
        raise RuleViolation("no_semi_finals", N_("This tournament has no semi-finals: draw the final."))
    if stage == rules.FINAL and finals.semi_finalists and rules.SEMI_FINAL not in drawn:
        raise RuleViolation("semi_finals_first", N_("Draw the semi-finals first: the final is filled from them."))


# Why a draw waits for tables still playing: a round may be forced past them; the semi-finals
# and the final are seeded from every result.
N_ROUND_PLAYING = N_("Tables %(tables)s of round %(round)s are still playing: end them, or force the draw.")
N_FINALS_PLAYING = N_(
    "Tables %(tables)s of round %(round)s are still playing: the semi-finals and the "
    "final are drawn from every result, so end them first."
)


def _check_played(rounds: dict[int, list[TournamentTable]], message: str) -> None:
    """Refuses (with ``message``) while a table of ``rounds`` is still playing, naming the
    first round's tables that are."""
    for number, tables in rounds.items():
        playing = [tb for tb in tables if not _finished(tb)]
        if playing:
            raise RuleViolation(
                "tables_still_playing", message, tables=", ".join(str(tb.number) for tb in playing), round=number
            )


def _seat_stage(t: Tournament, rounds, stage, number: int) -> list[list[str]]:
    """Who sits where at the next ``stage``: a round drawn as even as the count allows; the
    semi-finals seeded from the standings and dealt to the tables back and forth; the final
    filled from the semi-finals (or seeded from the standings where there are none)."""
    edition = editions()[t.edition_id]
    players = [p.id for p in t.players if not p.withdrawn]
    if stage == rules.ROUND:
        sizes = rules.table_sizes(len(players), t.table_size, edition.min_players, edition.max_players)
        met = rules.met_before([tb.seats for tb in tables] for tables in rounds.values())
        return rules.draw(players, sizes, met, f"{t.seed}:{number}")
    finals = finals_of(t)
    table = rules.standings([p.id for p in t.players], _results(t, rounds, rules.ROUND))
    if stage == rules.SEMI_FINAL:
        seeds = rules.seeded(table, players, finals.semi_finalists, t.seed)
        return rules.snake(seeds, finals.semi_final_tables)
    if not finals.semi_finalists:
        return [rules.seeded(table, players, finals.final_players, t.seed)]
    semi = [
        pid for tables in rounds.values() if tables[0].stage == rules.SEMI_FINAL for tb in tables for pid in tb.seats
    ]
    seeds = rules.seeded(table, semi, len(semi), t.seed)
    still_in = set(players)
    results = [r for r in _results(t, rounds, rules.SEMI_FINAL) if r.player in still_in]
    return [rules.finalists(results, seeds, finals.final_players, finals.finalists_by)]


def draw_round(tournament_id, token, force=False, stage=rules.ROUND) -> dict:
    """Draws the next ``stage``: a preliminary ``round`` (the players still in, at tables as
    even as the count allows, meeting again only where no other draw exists, drawn from the
    tournament's seed), the ``semi_final`` tables (the best of the standings, seeded 1-4-5-8 /
    2-3-6-7) or the ``final``. One game per table, created with its tokens and ready to start,
    on the round's clock with the tournament's last minutes' warning; a preliminary game has
    no trades once two players are left, a semi-final or final keeps them (FAQ 31).

    Refuses: an unknown tournament, anyone but the director, too few players for a table, a
    stage out of turn (``_check_stage``), and (unless ``force``, for a round only) a draw while
    tables are still playing, naming them.
    """
    t = get_tournament(tournament_id)
    _require_director(t, token)
    rounds = _rounds(t)
    _check_stage(t, rounds, stage, force)
    number = max(rounds, default=0) + 1
    drawn = _seat_stage(t, rounds, stage, number)
    names = {p.id: p.name for p in t.players}
    game_settings = {"no_trades_two_left": stage == rules.ROUND, "last_minutes": last_minutes_of(t)}
    created = []
    for i, seats in enumerate(drawn, start=1):
        game = create_game(
            t.edition_id,
            [names[pid] for pid in seats],
            t.round_minutes,
            seed=(t.seed + number * 1000 + i) % 2**52,
            settings=game_settings,
        )
        created.append((i, seats, game))
    with writing():
        for i, seats, game in created:
            db.session.add(
                TournamentTable(
                    tournament_id=t.id, round=number, number=i, game_id=game["id"], seats=list(seats), stage=stage
                )
            )
    return {
        "round": number,
        "stage": stage,
        "tables": [{"number": i, "game": game, "players": list(seats)} for i, seats, game in created],
    }


def _table_results(tb: TournamentTable, game: Game) -> list[rules.Result]:
    seat_of = {p.id: tb.seats[p.seat] for p in game.players}
    return [
        rules.Result(seat_of[row["player"]], row["tournament_points"] or 0, row["rank"], row["total"] or 0)
        for row in score(game)["standings"]
    ]


def _results(t: Tournament, rounds, stage: str) -> list[rules.Result]:
    out = []
    for tables in rounds.values():
        for tb in tables:
            game = _game_of(tb)
            if tb.stage == stage and game.status == FINISHED:
                out.extend(_table_results(tb, game))
    return out


def tournament_view(tournament_id) -> dict:
    """``GET /api/v1/tournaments/{id}``: the rounds (each with its ``stage``) with each table's
    game, status and, once finished, its results; the general standings from every finished
    preliminary game's tournament points (the semi-finals and the final rank their own
    tables: their points are not added); the semi-final and final settings and the champion
    once the final is over (null while it plays, or where its first place is shared)."""
    t = get_tournament(tournament_id)
    names = {p.id: p.name for p in t.players}
    results, rounds, champion = [], [], None
    for number, tables in sorted(_rounds(t).items()):
        shown = []
        for tb in tables:
            game = _game_of(tb)
            table = {
                "number": tb.number,
                "game": game.id,
                "status": game.status,
                "players": list(tb.seats),
                "results": [],
            }
            if game.status == FINISHED:
                got = _table_results(tb, game)
                table["results"] = [{"player": r.player, "place": r.place, "points": r.points} for r in got]
                if tb.stage == rules.ROUND:
                    results.extend(got)
                elif tb.stage == rules.FINAL:
                    first = [r.player for r in got if r.place == 1]
                    champion = first[0] if len(first) == 1 else None  # a shared first place names no one
            shown.append(table)
        rounds.append({"round": number, "stage": tables[0].stage, "tables": shown})
    general = rules.standings([p.id for p in t.players], results)
    finals = finals_of(t)
    return {
        "id": t.id,
        "name": t.name,
        "edition": t.edition_id,
        "table_size": t.table_size,
        "round_minutes": t.round_minutes,
        "last_minutes": last_minutes_of(t),
        "preliminary_rounds": preliminary_rounds_of(t),
        "finals": {**finals.__dict__, "champion": champion},
        "players": [{"id": p.id, "name": p.name, "withdrawn": p.withdrawn} for p in t.players],
        "rounds": rounds,
        "standings": [
            {
                "player": s.player,
                "name": names[s.player],
                "points": s.points,
                "played": s.played,
                "wins": s.wins,
                "worth": s.worth,
                "rank": s.rank,
            }
            for s in general
        ],
    }


def _deed_name(state, key: str | None) -> str | None:
    deed = state.edition.deed(key) if key else None
    return deed.name if deed else key


def referee_view(tournament_id, token) -> dict:
    """``GET /api/v1/tournaments/{id}/tables`` (director or referee): every table of the rounds
    in play (the last, and any earlier one still playing), each with its stage, status, clock,
    players and what its game waits on and on whom (``core.waiting``). Refuses: an unknown
    tournament, no token, and a token that is neither the director's nor the referee's."""
    t = require_referee(tournament_id, token)
    names = {p.id: p.name for p in t.players}
    rounds = _rounds(t)
    now = now_utc()
    out = []
    for number, tables in sorted(rounds.items()):
        games = [_game_of(tb) for tb in tables]
        if number != max(rounds) and all(g.status == FINISHED for g in games):
            continue
        shown = []
        for tb, game in zip(tables, games):
            state = state_of(game)
            player_names = {p.id: p.name for p in game.players}
            waits = [
                {
                    "kind": w.kind,
                    "who": w.who,
                    "name": player_names.get(w.who) if w.who not in (None, BANKER) else None,
                    "deed": _deed_name(state, w.deed),
                }
                for w in waiting.waiting_on(state, now)
            ]
            shown.append(
                {
                    "number": tb.number,
                    "game": game.id,
                    "status": game.status,
                    "clock": clock_view(game),
                    "players": [{"id": pid, "name": names[pid]} for pid in tb.seats],
                    "waiting_on": waits,
                }
            )
        out.append({"round": number, "stage": tables[0].stage, "tables": shown})
    return {"id": t.id, "name": t.name, "rounds": out}
