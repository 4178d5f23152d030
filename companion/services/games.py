"""Games and the people at them: opening a table, joining it, finding it."""

from __future__ import annotations

import re
import secrets
import unicodedata

from sqlalchemy import select

from ..core.editions.edition import Edition
from ..core.errors import N_, BadInput, Forbidden, NotFound, RuleViolation
from ..core.guards import plays_size, require_rulebook_size
from ..core.settings import building_supply, clean_settings, pots_for
from ..core.state import SETUP, Outcome
from ..store import Game, Holding, Player, db
from ..store.mapping import initial_extra
from .catalog import edition_of, editions, pin
from .journal import BANKER, new_entry
from .repository import plausible_id
from .seats import hash_secret
from .tx import lock_game, writing

MAX_NAME = 40
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed safely
ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def random_id(alphabet: str = ID_ALPHABET, length: int = 8) -> str:
    """``length`` letters of ``alphabet`` drawn from the system's randomness. Both alphabets
    have 32 letters: each letter is then 5 bits of one draw (one system call per id, not one
    per letter: every action draws an id, inside the write transaction)."""
    size = len(alphabet)
    if size & (size - 1):  # not a power of two: letter by letter, without bias
        return "".join(secrets.choice(alphabet) for _ in range(length))
    bits = size.bit_length() - 1
    number = secrets.randbits(bits * length)
    return "".join(alphabet[(number >> (bits * i)) & (size - 1)] for i in range(length))


def normalise_join_code(code) -> str:
    if not isinstance(code, str):
        return ""
    return re.sub(r"[\s-]", "", code).upper()


def clean_name(name) -> str:
    """A player's name, trimmed; refuses non-text, empty names, control characters and names
    longer than 40 characters. Markup is allowed: it is only ever shown escaped."""
    if not isinstance(name, str):
        raise BadInput("invalid_name", N_("A name must be text."))
    name = " ".join(name.split())
    if not name:
        raise BadInput("invalid_name", N_("Enter a name."))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in name):
        raise BadInput("invalid_name", N_("A name cannot hold control characters."))
    if len(name) > MAX_NAME:
        raise BadInput("invalid_name", N_("A name can be at most %(max)s characters."), max=MAX_NAME)
    return name


def game_by_join_code(code) -> Game:
    """The game whose join code this is; refuses an unknown code (404)."""
    code = normalise_join_code(code)
    game = (
        db.session.execute(select(Game).where(Game.join_code == code)).scalar_one_or_none()
        if plausible_id(code)
        else None
    )
    if game is None:
        raise NotFound("unknown_join_code", N_("No game has this code. Check it with the banker."))
    return game


# ``time_limit_minutes`` not given at all: the edition's own clock (90 minutes in the
# championship, none in the classic game). ``None`` given: no clock.
EDITION_CLOCK = object()


def create_game(
    edition_id,
    names,
    time_limit_minutes=EDITION_CLOCK,
    seed=None,
    *,
    auction_seconds=None,
    settings=None,
    hand_out_tokens=True,
    banker_seat: int | None = None,
) -> dict:
    """Opens a game in ``setup`` with the named players and returns its secrets. Without a
    ``time_limit_minutes`` the game takes its edition's clock; ``None`` means no clock.

    With ``hand_out_tokens`` every player gets a token now (API clients); without, players
    claim their seats from their phones. ``banker_seat`` gives the host that seat too.
    Refuses: an unknown edition, a list of names that is not a list, more names than the
    edition seats (fewer when the banker plays too, where the edition says so), a table of a
    size the rulebook gives no values for unless ``settings`` play that house rule, a bad or
    repeated name, a time limit that is not 1 to 1440 minutes, a
    seed that is not a whole number, an auction countdown that is not 5 to 600 seconds, and
    settings ``core.settings`` refuses (an unknown name among them).
    """
    edition = offered_edition(edition_id)
    names = _names(edition, names)
    time_limit_minutes = clock_minutes(edition, time_limit_minutes)
    check_seed(seed)
    settings = _settings(settings, auction_seconds)
    _check_banker_seat(edition, banker_seat, len(names))
    require_rulebook_size(edition, len(names), settings["house_sizes"], BadInput)
    with writing():
        banker_token = secrets.token_urlsafe(24)
        game = _new_game(edition, settings, seed, time_limit_minutes, banker_token)
        players = _seat_players(game, names, hand_out_tokens, banker_seat)
        for deed in edition.deeds:
            db.session.add(Holding(game_id=game.id, deed_key=deed.key, position=deed.position))
        if banker_seat is not None:
            game.banker_player_id = players[banker_seat][0].id
        db.session.flush()
        new_entry(game, Outcome("created", params={"players": len(names)}, undoable=False), BANKER)
    return {
        "id": game.id,
        "join_code": game.join_code,
        "banker_token": banker_token,
        "players": [{"id": p.id, "name": p.name, "token": t} for p, t in players if t],
    }


def offered_edition(edition_id) -> Edition:
    """The edition new games can use under ``edition_id``; refuses any other (400)."""
    edition = editions().get(edition_id) if isinstance(edition_id, str) else None
    if edition is None:
        raise BadInput("unknown_edition", N_("There is no such edition."))
    return edition


def _names(edition, names) -> list[str]:
    """The players' names, cleaned (``clean_name``); refuses what is not a list of them, more
    than the edition seats and a name twice (case aside)."""
    if not isinstance(names, list):
        raise BadInput("invalid_players", N_("Players must be a list of names."))
    names = [clean_name(n) for n in names]
    if len(names) > edition.max_players:
        raise BadInput("too_many_players", N_("This game takes at most %(max)s players."), max=edition.max_players)
    if len({n.casefold() for n in names}) != len(names):
        raise BadInput("duplicate_name", N_("Two players cannot have the same name."))
    return names


def _whole(value) -> bool:
    """Whether ``value`` is a whole number (``True`` and ``False`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def clock_minutes(edition, minutes):
    """A game's (or a tournament round's) clock in minutes: the edition's own when not given
    at all (``EDITION_CLOCK``), ``None`` for none; refuses anything but 1 to 1440 minutes."""
    if minutes is EDITION_CLOCK:
        minutes = edition.time_limit_minutes
    if minutes is not None and not (_whole(minutes) and 1 <= minutes <= 1440):
        raise BadInput("invalid_time_limit", N_("The time limit must be 1 to 1440 minutes."))
    return minutes


def check_seed(seed) -> None:
    """Refuses a seed that is not a whole number that fits the games' records (below 2**62)."""
    if seed is not None and not (_whole(seed) and abs(seed) < 2**62):
        raise BadInput("invalid_seed", N_("The seed must be a whole number."))


def _settings(settings, auction_seconds) -> dict:
    """The game's settings (``core.settings.clean_settings``) with its auction countdown;
    refuses a countdown that is not 5 to 600 seconds, then what ``clean_settings`` refuses."""
    if auction_seconds is not None and not (_whole(auction_seconds) and 5 <= auction_seconds <= 600):
        raise BadInput("invalid_auction_seconds", N_("The auction countdown must be 5 to 600 seconds."))
    settings = clean_settings(settings)
    if auction_seconds is not None:
        settings["auction_seconds"] = auction_seconds
    return settings


def _check_banker_seat(edition, banker_seat: int | None, count: int) -> None:
    """Refuses a banker's seat that is not one of the ``count`` players', and a table too big
    for a banker who plays too."""
    if banker_seat is None:
        return
    if not 0 <= banker_seat < count:
        raise BadInput("invalid_player", N_("There is no such player in this game."))
    if count > _seats_with_banker(edition):
        raise BadInput(
            "too_many_players_banker_plays",
            N_("When the banker plays too, this game takes at most %(max)s players."),
            max=_seats_with_banker(edition),
        )


def _new_game(edition, settings: dict, seed, time_limit_minutes, banker_token: str) -> Game:
    """The game's row, in setup, added to the session."""
    # The box's building counts where the group set them (they differ by printing), else the edition's.
    supply = building_supply(settings, edition.buildings.supply_small, edition.buildings.supply_big)
    game = Game(
        id=random_id(ID_ALPHABET, 10),
        edition_id=edition.id,
        status=SETUP,
        version=0,
        join_code=unused_join_code(),
        banker_token_hash=hash_secret(banker_token),
        # Without a seed the game still gets one, drawn now: its random parts stay
        # repeatable from the game's own record (undo, replays, a dispute).
        seed=seed if seed is not None else secrets.randbits(52),
        cash_private=edition.cash_private,
        auction_seconds=settings["auction_seconds"],
        edition_hash=pin(edition),
        extra=initial_extra(settings, pots_for(settings)),
        time_limit_seconds=time_limit_minutes * 60 if time_limit_minutes else None,
        bank_small=supply[0],
        bank_big=supply[1],
    )
    db.session.add(game)
    return game


def _seat_players(game: Game, names: list[str], hand_out_tokens: bool, banker_seat: int | None) -> list:
    """The players' rows in seat order, each with its token (``None``: claimed from a phone)."""
    players = []
    for seat, name in enumerate(names):
        token = secrets.token_urlsafe(24) if hand_out_tokens or seat == banker_seat else None
        player = Player(
            id=random_id(ID_ALPHABET, 8),
            game_id=game.id,
            seat=seat,
            name=name,
            token_hash=hash_secret(token) if token else None,
        )
        db.session.add(player)
        players.append((player, token))
    return players


def _seats_with_banker(edition) -> int:
    """The most players at a table whose banker plays too (Motopolis: 6; the seventh seat only
    when the banker does not play)."""
    return edition.max_players_with_banker or edition.max_players


def unused_join_code() -> str:
    while True:
        code = random_id(JOIN_ALPHABET, 6)
        if db.session.execute(select(Game.id).where(Game.join_code == code)).first() is None:
            return code


def join(game_id, join_code, name) -> dict:
    """Adds a player who joins with the game's code while it is in setup; returns their token.

    Refuses: an unknown game (404), a wrong code (403), a game already started (409), a full
    table (409; fuller sooner where the banker plays and the edition seats fewer then, or
    where the next seat is a size the rulebook gives no values for and the game did not tick
    that house rule), a bad name or one already taken (400/409).
    """
    name = clean_name(name)
    with writing():
        game = lock_game(game_id)
        # As bytes: compare_digest refuses text with non-ASCII characters (a 500, found by fuzzing).
        if not secrets.compare_digest(
            normalise_join_code(join_code).encode("utf-8", "surrogatepass"), game.join_code.encode()
        ):
            raise Forbidden("wrong_join_code", N_("That join code is not this game's."))
        if game.status != SETUP:
            raise RuleViolation("already_started", N_("The game has already started."))
        edition = edition_of(game)
        if len(game.players) >= edition.max_players:
            raise RuleViolation(
                "table_full", N_("The table is full: at most %(max)s players."), max=edition.max_players
            )
        if game.banker_player_id is not None and len(game.players) >= _seats_with_banker(edition):
            raise RuleViolation(
                "table_full_banker_plays",
                N_("The table is full: with the banker playing, at most %(max)s players."),
                max=_seats_with_banker(edition),
            )
        settings = (game.extra or {}).get("settings") or {}
        if not plays_size(edition, len(game.players) + 1, bool(settings.get("house_sizes"))):
            raise RuleViolation(
                "table_full_house_size",
                N_(
                    "The table is full: the rulebook gives no starting cash for %(n)s players, "
                    "and this game does not play %(n)s as a house rule."
                ),
                n=len(game.players) + 1,
            )
        if any(p.name.casefold() == name.casefold() for p in game.players):
            raise RuleViolation("name_taken", N_("%(name)s is already at this table."), name=name)
        token = secrets.token_urlsafe(24)
        player = Player(
            id=random_id(ID_ALPHABET, 8),
            game_id=game.id,
            name=name,
            token_hash=hash_secret(token),
            seat=max((p.seat for p in game.players), default=-1) + 1,
        )
        db.session.add(player)
        db.session.flush()
        new_entry(game, Outcome("join", params={"player": player.id}, undoable=False), player.id)
    return {"id": player.id, "name": player.name, "token": token}
