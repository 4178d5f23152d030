"""A game as a file (docs/gamefile.md): written from a game's rows, and made into a new game on
any Banco server after every entry of it is checked (``core.gamefile``).

The file holds no secret: no token, no join code, no rejoin or hand-off code, not the secret
behind the game's printed serials. A game made from it has a new id, a new join code, a new
banker token and new player ids (the journal's are replaced wherever it names them), so the
same file can be imported twice, even on the server it came from.
"""

from __future__ import annotations

import json
import math
import re
import secrets
from collections.abc import Iterator
from dataclasses import fields
from typing import Any, NamedTuple, cast

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import aliased

from ..core import gamefile
from ..core.changes import Touched
from ..core.editions.edition import Edition, EditionError
from ..core.editions.loading import parse_edition
from ..core.errors import N_, BancoError
from ..core.gamefile import FORMAT, FORMAT_VERSION, FileEntry, refused
from ..core.ledger import Posting as CorePosting
from ..core.replay import starting_state
from ..core.settings import clean_settings, pots_for
from ..core.state import DOCUMENT_FIELDS, RUNNING, Change, GameState
from ..store import EditionContent, Entry, Game, GameRecord, Holding, Player, Posting, db, now_utc
from . import clock, gamefile_play
from .bodies import parse_json
from .catalog import content_hash, edition_of, plain
from .games import ID_ALPHABET, clean_name, random_id, unused_join_code
from .journal import MAX_VERSION, state_of, verify_game
from .repository import GAMES
from .seats import hash_secret
from .tx import get_game, reading, writing

_TOP = {"format", "format_version", "exported_at", "game", "edition", "seats", "state", "journal"}
_GAME = {"id", "created_at", "version", "seed", "time_limit_seconds", "clock", "banker_player"}
_PLAYER_ID = re.compile(r"^[a-z0-9]{4,16}$")
MAX_CLOCK_SECONDS = 10**8  # far beyond any game: a play-off adds minutes to a day's limit
_DOCUMENT_ATTRS = frozenset(spec.attr for spec in DOCUMENT_FIELDS.values())
_STATE_FIELDS = [f.name for f in fields(GameState) if f.name not in ("edition", "players", "deeds")]


# --- export ------------------------------------------------------------------------------------


# Entries read from the database at a time while a game file is written: the file's writer
# holds one batch, whatever the journal's length.
EXPORT_BATCH = 1000


class GameFile(NamedTuple):
    """A game file being written: the name it is offered under, the game's version, and its text
    piece by piece (reading the pieces to the end, or closing them, ends the file's snapshot)."""

    name: str
    version: int
    pieces: Iterator[str]


def export_game(game_id: str) -> GameFile:
    """The game file of ``game_id`` as it stands now, read in one snapshot: its text is the JSON
    of the format (compact, not ASCII-escaped) and a newline, the journal read and written a
    batch of entries at a time. Refuses an unknown game (404) before any piece is written."""
    pieces = _file_pieces(game_id)
    head = next(pieces)
    return GameFile(file_name(head), head["game"]["version"], cast(Iterator[str], pieces))


def _file_pieces(game_id: str) -> Iterator[Any]:
    """The game file's head (everything but the journal, as a dict), then its text piece by
    piece: the head's, each batch of entries', the end. All of it from one snapshot."""
    with reading():
        game = get_game(game_id)
        head = _head(game)
        yield head
        yield _json(head)[:-1] + ',"journal":['
        previous, after = "", 0
        while batch := _entries(game.id, after, game.version):
            texts = []
            for item in batch:
                item["digest"] = previous = gamefile.entry_digest(previous, item)
                texts.append(_json(item))
            yield ("," if after else "") + ",".join(texts)
            after = batch[-1]["version"]
        yield "]}\n"


def _json(value: Any) -> str:
    """JSON as a game file writes it: compact, not ASCII-escaped."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _head(game: GameRecord) -> dict[str, Any]:
    """Every part of ``game``'s file but the journal, in the file's order."""
    elapsed = clock.elapsed(game)
    running = game.status == RUNNING and game.clock_running_since is not None
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": gamefile.moment_text(now_utc()),
        "game": {
            "id": game.id,
            "created_at": gamefile.moment_text(game.created_at),
            "version": game.version,
            "seed": game.seed,
            "time_limit_seconds": game.time_limit_seconds,
            "clock": {"elapsed_seconds": elapsed, "running": running},
            "banker_player": game.banker_player_id,
        },
        "edition": _pinned(game.edition_hash, edition_of(game)),
        "seats": [{"id": p.id, "name": p.name} for p in game.players],
        "state": gamefile.state_document(state_of(game)),
    }


def _entries(game_id: str, after: int, upto: int) -> list[dict[str, Any]]:
    """The next ``EXPORT_BATCH`` entries of ``game_id`` after version ``after`` (up to ``upto``)
    as the file writes them, without their digests."""
    reversed_ = aliased(Entry)
    rows = db.session.execute(
        select(
            Entry.id,
            Entry.version,
            Entry.kind,
            Entry.actor,
            Entry.at,
            Entry.params,
            Entry.changes,
            Entry.undoable,
            reversed_.version,
        )
        .outerjoin(reversed_, reversed_.id == Entry.reverses)
        .where(Entry.game_id == game_id, Entry.version > after, Entry.version <= upto)
        .order_by(Entry.version)
        .limit(EXPORT_BATCH)
    ).all()
    postings: dict[int, list[list[Any]]] = {}
    if rows:
        for entry_id, account, amount in db.session.execute(
            select(Posting.entry_id, Posting.account, Posting.amount)
            .where(Posting.entry_id.in_([r[0] for r in rows]))
            .order_by(Posting.id)
        ):
            postings.setdefault(entry_id, []).append([account, amount])
    return [
        {
            "version": version,
            "kind": kind,
            "actor": actor,
            "at": gamefile.moment_text(at),
            "params": params or {},
            "changes": changes or [],
            "postings": postings.get(entry_id, []),
            "undoable": undoable,
            "reverses": reverses,
        }
        for entry_id, version, kind, actor, at, params, changes, undoable, reverses in rows
    ]


def _pinned(digest: str | None, edition: Edition) -> dict[str, Any]:
    """The edition content the game is pinned to, as stored, with its hash (a game from before
    editions were pinned: the content it plays now)."""
    row = db.session.get(EditionContent, digest) if digest is not None else None
    if row is not None:
        return {"hash": row.hash, "content": row.data}
    content = plain(edition.raw)
    return {"hash": content_hash(content), "content": content}


def file_name(data: dict[str, Any]) -> str:
    """The name the file is offered under: the edition, the game and its version."""
    return f"banco-{data['edition']['content'].get('id', 'game')}-{data['game']['id']}-v{data['game']['version']}.json"


# --- import ------------------------------------------------------------------------------------


def read_game_file(raw: bytes) -> dict[str, Any]:
    """The JSON object of a game file's bytes, read as strictly as every request's body
    (``bodies.parse_json``); refuses (``invalid_game_file``) anything that is not one."""
    try:
        return parse_json(raw)
    except BancoError as error:
        raise refused(N_("This game file is not valid JSON: %(reason)s"), reason=error) from None


def import_game(data: object, hand_out_tokens: bool = True) -> dict[str, Any]:
    """A new game made from the game file ``data`` (parsed JSON), at the file's version, every
    entry checked on the way in; returns what ``create_game`` returns (tokens for every seat
    with ``hand_out_tokens``; without, the players claim their seats with the new join code).

    Refuses (400 ``invalid_game_file``, naming the first thing that is wrong) anything but a
    game file of this format and version, an edition whose content does not match its hash or
    cannot be played, seats that are not a table's, settings this Banco refuses, and a journal
    any of whose entries does not check out (``core.gamefile``), or that does not lead to the
    state the file holds; nothing is stored then."""
    edition, digest, seats, game_part, settings = _header(data)
    assert isinstance(data, dict)  # _header refuses anything else
    ids = {old: _new_player_id() for old, _name in seats}
    entries = [_remapped(e, ids) for e in gamefile.read_journal(data["journal"], {old for old, _ in seats})]
    last = entries[-1].version
    if game_part["version"] != last:
        raise refused(N_("Version %(version)s is missing from the game file's journal."), version=last + 1)
    start = starting_state(
        edition, [(ids[old], name) for old, name in seats], settings, pots_for(settings), seed=game_part["seed"]
    )
    state = gamefile_play.play_file(start, entries)
    held = data["state"]
    if not isinstance(held, dict):
        raise refused(N_("The game file has no state."))
    where = gamefile.first_difference(gamefile.remap(held, ids), gamefile.state_document(state))
    if where is not None:
        for old, name in seats:  # the players by name, not by ids that are new to the reader
            where = where.replace(f".{ids[old]}.", f".{name}.")
        raise refused(N_("The state in the game file does not match its journal (at %(where)s)."), where=where)
    return _store(edition, digest, data["edition"]["content"], game_part, ids, seats, state, entries, hand_out_tokens)


def _header(data: object) -> tuple[Edition, str, list[tuple[str, str]], dict[str, Any], dict[str, Any]]:
    """What the file says of its game besides the journal, each part checked: the edition (by
    its hash), the seats (id, name), the game's own values, the settings."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise refused(N_("This is not a Banco game file."))
    version = data.get("format_version")
    if not _whole(version) or version != FORMAT_VERSION:  # 1.0 and true equal 1 in Python, not in the format
        raise refused(
            N_("This game file is of format version %(found)s; this Banco reads version %(version)s."),
            found=str(data.get("format_version")),
            version=FORMAT_VERSION,
        )
    missing = sorted(_TOP - set(data)) or sorted(set(data) - _TOP)
    if missing:
        raise refused(N_("The game file's part '%(part)s' is missing or unknown."), part=missing[0])
    edition, digest = _edition(data["edition"])
    seats = _seats(data["seats"], edition)
    game_part = _game_part(data["game"], {old for old, _ in seats})
    state = data["state"]
    raw_settings = state.get("settings") if isinstance(state, dict) else None
    try:
        settings = clean_settings(raw_settings)
    except BancoError as error:
        raise refused(N_("The game file's settings cannot be used: %(reason)s"), reason=error) from None
    return edition, digest, seats, game_part, settings


def _edition(part: object) -> tuple[Edition, str]:
    if not isinstance(part, dict) or set(part) != {"hash", "content"} or not isinstance(part["content"], dict):
        raise refused(N_("The game file's part '%(part)s' is missing or unknown."), part="edition")
    if not isinstance(part["hash"], str) or content_hash(part["content"]) != part["hash"]:
        raise refused(N_("The edition in the game file does not match its hash."))
    try:
        edition = parse_edition(part["content"])
    except EditionError as error:
        raise refused(
            N_("The edition in the game file cannot be played: %(problem)s"), problem=error.problems[0]
        ) from None
    return edition, part["hash"]


def _seats(part: object, edition: Edition) -> list[tuple[str, str]]:
    """The seats in order, (id, name): ids shaped as Banco makes them, none a deed's key, each
    once; names as a new game takes them, each once; no more than the edition seats."""
    if not isinstance(part, list) or len(part) > edition.max_players:
        raise refused(N_("The game file's seats are not a table of this edition."))
    seats = []
    for seat in part:
        if not isinstance(seat, dict) or set(seat) != {"id", "name"}:
            raise refused(N_("The game file's seats are not a table of this edition."))
        old = seat["id"]
        if not isinstance(old, str) or not _PLAYER_ID.match(old) or old == "bank" or edition.deed(old) is not None:
            raise refused(N_("The game file's seats are not a table of this edition."))
        try:
            name = clean_name(seat["name"])
        except BancoError as error:
            raise refused(N_("A name in the game file cannot be used: %(reason)s"), reason=error) from None
        seats.append((old, name))
    if len({old for old, _ in seats}) != len(seats) or len({n.casefold() for _, n in seats}) != len(seats):
        raise refused(N_("The game file's seats are not a table of this edition."))
    return seats


def _game_part(part: object, seat_ids: set[str]) -> dict[str, Any]:
    if not isinstance(part, dict) or set(part) != _GAME:
        raise refused(N_("The game file's part '%(part)s' is missing or unknown."), part="game")
    version, seed, limit, ticking = part["version"], part["seed"], part["time_limit_seconds"], part["clock"]
    wrong = None
    if not _whole(version) or not 1 <= version <= MAX_VERSION:
        wrong = "version"
    elif seed is not None and (not _whole(seed) or abs(seed) >= 2**62):
        wrong = "seed"
    elif limit is not None and (not _whole(limit) or not 1 <= limit <= MAX_CLOCK_SECONDS):
        wrong = "time_limit_seconds"
    elif not _clock(ticking):
        wrong = "clock"
    elif part["banker_player"] is not None and not (
        isinstance(part["banker_player"], str) and part["banker_player"] in seat_ids
    ):
        wrong = "banker_player"
    elif gamefile.parse_moment(part["created_at"]) is None:
        wrong = "created_at"
    if wrong is not None:
        raise refused(N_("The game file's value '%(part)s' cannot be used."), part=f"game.{wrong}")
    return part


def _clock(ticking: object) -> bool:
    if not isinstance(ticking, dict) or set(ticking) != {"elapsed_seconds", "running"}:
        return False
    elapsed = ticking["elapsed_seconds"]
    return (
        isinstance(ticking["running"], bool)
        and isinstance(elapsed, (int, float))
        and not isinstance(elapsed, bool)
        and math.isfinite(elapsed)
        and 0 <= elapsed <= MAX_CLOCK_SECONDS
    )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _new_player_id() -> str:
    return random_id(ID_ALPHABET, 8)


def _remapped(entry: FileEntry, ids: dict[str, str]) -> FileEntry:
    """``entry`` with each player's old id replaced by the new one, wherever it names it."""
    remap = gamefile.remap
    return FileEntry(
        entry.version,
        entry.kind,
        remap(entry.actor, ids),
        entry.at,
        remap(entry.params, ids),
        tuple(Change(*remap([c.target, c.ref, c.field, c.before, c.after], ids)) for c in entry.changes),
        tuple(CorePosting(remap(p.account, ids), p.amount) for p in entry.postings),
        entry.undoable,
        entry.reverses,
    )


_ENTRY, _POSTING = Entry.__table__, Posting.__table__


def _store(
    edition: Edition,
    digest: str,
    content: dict[str, Any],
    game_part: dict[str, Any],
    ids: dict[str, str],
    seats: list[tuple[str, str]],
    state: GameState,
    entries: list[FileEntry],
    hand_out_tokens: bool,
) -> dict[str, Any]:
    """Writes the checked game in one transaction: its edition's content (once per hash), the
    game, its seats, its deeds, the state the journal left (``store.mapping`` through the
    repository of states), and the journal itself; then ``banco verify``'s check of it, which
    must find nothing."""
    elapsed = float(game_part["clock"]["elapsed_seconds"])
    running = game_part["clock"]["running"] and state.status == RUNNING and game_part["time_limit_seconds"]
    with writing():
        if db.session.get(EditionContent, digest) is None:
            db.session.add(EditionContent(hash=digest, edition_id=edition.id, data=content))
        banker_token = secrets.token_urlsafe(24)
        tokens = {new: secrets.token_urlsafe(24) if hand_out_tokens else None for new in ids.values()}
        banker = game_part["banker_player"]
        game = Game(
            id=random_id(ID_ALPHABET, 10),
            edition_id=edition.id,
            status=state.status,
            version=0,
            join_code=unused_join_code(),
            banker_token_hash=hash_secret(banker_token),
            banker_player_id=ids[banker] if banker is not None else None,
            seed=state.seed,
            cash_private=edition.cash_private,
            auction_seconds=state.setting("auction_seconds"),
            edition_hash=digest,
            extra={},
            time_limit_seconds=game_part["time_limit_seconds"],
            clock_elapsed_seconds=elapsed,
            clock_running_since=now_utc() if running else None,
            created_at=gamefile.parse_moment(game_part["created_at"]),
            players=[
                Player(
                    id=ids[old], seat=seat, name=name, token_hash=hash_secret(t) if (t := tokens[ids[old]]) else None
                )
                for seat, (old, name) in enumerate(seats)
            ],
            holdings=[Holding(deed_key=d.key, position=d.position) for d in edition.deeds],
        )
        db.session.add(game)
        db.session.flush()
        everything = Touched(
            game={n for n in _STATE_FIELDS if n not in _DOCUMENT_ATTRS and n != "pots"},
            players=set(state.players),
            deeds=set(state.deeds),
            documents=set(_DOCUMENT_ATTRS),
            pots=True,
        )
        connection = db.session.connection()
        GAMES.save(connection, game, state, everything, entries[-1].version)
        _write_journal(game.id, entries)
        found = verify_game(game)
        if found:
            raise refused(N_("The game file does not check out: %(problem)s"), problem=found[0].problem)
    return {
        "id": game.id,
        "join_code": game.join_code,
        "banker_token": banker_token,
        "players": [
            {"id": ids[old], "name": name, "token": tokens[ids[old]]} for old, name in seats if tokens[ids[old]]
        ],
    }


def _write_journal(game_id: str, entries: list[FileEntry]) -> None:
    """The entries as rows, then their postings, then which entry reverses which (by id)."""
    db.session.execute(
        insert(_ENTRY),
        [
            {
                "game_id": game_id,
                "version": e.version,
                "kind": e.kind,
                "actor": e.actor,
                "params": e.params,
                "changes": [[c.target, c.ref, c.field, c.before, c.after] for c in e.changes],
                "undoable": e.undoable,
                "at": e.at,
            }
            for e in entries
        ],
    )
    row_of = {
        row.version: row.id
        for row in db.session.execute(select(_ENTRY.c.version, _ENTRY.c.id).where(_ENTRY.c.game_id == game_id))
    }
    postings = [
        {"entry_id": row_of[e.version], "game_id": game_id, "account": p.account, "amount": p.amount}
        for e in entries
        for p in e.postings
    ]
    if postings:
        db.session.execute(insert(_POSTING), postings)
    undone = [(row_of[e.version], row_of[e.reverses]) for e in entries if e.reverses is not None]
    if undone:
        db.session.execute(
            update(_ENTRY).where(_ENTRY.c.id == bindparam("row")).values(reverses=bindparam("target")),
            [{"row": row, "target": target} for row, target in undone],
        )
        db.session.execute(
            update(_ENTRY).where(_ENTRY.c.id == bindparam("row")).values(reversed_by=bindparam("by")),
            [{"row": target, "by": row} for row, target in undone],
        )
