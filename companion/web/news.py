"""The news of a game's new versions, made once for every page at once (``companion.live.news``),
in each language the game is read in: each moved account's cash, the feed's new lines and each
player's new notices drawn as the pages draw them, the banker's undo, a roll of the dice, a turn
passed on, the clock paused or resumed and the auction's card (the phones' and the table
screen's) after a bid.

It runs once the versions are committed, on the newsroom's thread (``companion.live.newsroom``),
off the writer, reading the committed state in one snapshot; the broker hears of the versions
with it, so no page has to fetch what it says. A version it cannot say gets no news (``None``),
and its pages fetch their regions: an undo or a take back (they mark an older line of the feed), the dice,
the turn, the clock or the auction changed otherwise than by a roll, a turn passed on, the clock
paused or resumed or a bid, a notice that waits for its player's answer (its forms are drawn
with the reader's session), a version the game has moved on from by the time it is drawn
(a newer one, of this process or another, is committed).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping

from flask import current_app

from .. import services
from ..core.parts import AUCTION, CLOCK, DICE, TURN
from ..live.news import Cash, News, Roll, Turn, frozen_map
from ..services.wording import LANGUAGES
from .deeds import auction_view, quick_bids
from .dice import next_roller
from .feed import describe
from .notices import LOOKBACK, may_tell_anyone, news_for, recent_entries
from .speaking import gettext as _
from .speaking import spoken_in
from .templating import money

log = logging.getLogger(__name__)


def draw_news(
    game_id: str, versions: Mapping[int, frozenset[str] | None], languages: frozenset[str]
) -> dict[int, News | None]:
    """The news of ``game_id``'s committed ``versions`` (``make_news``), read in one snapshot
    of the database: the newsroom's drawing (``companion.live.newsroom``), off the writer."""
    with services.reading():
        return make_news(game_id, versions, languages)


def make_news(
    game_id: str, versions: Mapping[int, frozenset[str] | None], languages: frozenset[str]
) -> dict[int, News | None]:
    """The news of ``game_id``'s ``versions``, written by this transaction and about to be
    committed together, in ``languages`` (those of ``LANGUAGES`` its pages read it in: a page
    in another is told none, and fetches); a version missing from the answer has none. Never
    raises: news is a saving, and a page without it fetches."""
    try:
        return _made(game_id, versions, [lang for lang in LANGUAGES if lang in languages])
    except Exception:
        log.warning("the news of game %s's versions %s could not be made", game_id, sorted(versions), exc_info=True)
        return {}


def _made(game_id: str, changed: Mapping[int, frozenset[str] | None], languages: list[str]) -> dict[int, News | None]:
    versions = frozenset(changed)
    if not languages:
        return {}
    game = services.find_game(game_id)
    if game is None or game.version != max(versions):
        return {}  # another process wrote after these: its pages fetch what changed
    edition = services.edition_of(game)
    names = {p.id: p.name for p in game.players}
    # The newest entries are these versions' own: read alone, unless an auction's bidders are
    # told (who bid is read from the entries before).
    lines = services.recent_lines(game, len(versions))
    if {line.version for line in lines} != versions:
        return {}  # a version without its entry: its pages fetch what changed
    anyone = any(may_tell_anyone(line.kind) for line in lines)
    recent = recent_entries(game, LOOKBACK) if anyone else lines
    accounts = {posting.account for line in lines for posting in line.postings}
    cash = {p.id: p.cash for p in game.players}
    pots = services.state_of(game, deeds=False).pots if accounts - cash.keys() else {}
    moved = [
        (account, cash[account] if account in cash else pots[account])
        for account in sorted(accounts)
        if account in cash or account in pots
    ]
    # Who may have a notice: the players the entries name or moved money of (an auction's
    # bidders are not named: everyone is asked then).
    named = {value for line in lines for value in (line.params or {}).values() if isinstance(value, str)}
    readers = [p.id for p in game.players if anyone or p.id in accounts or p.id in named]
    drawn = current_app.jinja_env.get_template("_feed_line.html").module
    feed_line, notice_line = drawn.feed_line, drawn.notice_line  # type: ignore[attr-defined]
    undo = services.undo_offer(game, lines)

    texts: dict[str, dict[str, str]] = {account: {} for account, _amount in moved}
    feed: dict[int, dict[str, tuple[str, ...]]] = {version: {} for version in versions}
    notices: dict[int, dict[tuple[str, str], tuple[str, ...]]] = {version: {} for version in versions}
    unsaid = {line.actor for line in lines if services.taken_back(line.kind)}
    # A roll: the roller's own pages draw it with their forms ("You rolled", the total offered).
    rolls = {line.version: line.params for line in lines if line.kind == "roll"}
    unsaid |= {str(roll.get("player")) for roll in rolls.values()}
    if rolls:
        said_roll = _macro("_dice_macros.html", "said_roll")
    roll_drawn: dict[int, dict[str, str]] = {version: {} for version in rolls}
    roll_note: dict[int, dict[str, str]] = {version: {} for version in rolls}
    turns = _turns_passed(game, lines)
    if turns:
        said_turn = _macro("_turn_macros.html", "said_turn")
    turn_drawn: dict[int, dict[str, str]] = {version: {} for version in turns}
    newest = max(lines, key=lambda line: line.version)
    clock = _clock_moved(game, newest)
    if clock is not None:
        said_clock = _macro("_clock_macros.html", "said_clock")
    clock_drawn: dict[str, str] = {}
    bid = _bid(game, edition, newest)
    if bid is not None:
        said_auction = _macro("_auction_macros.html", "said_auction")
        said_screen_auction = _macro("_auction_macros.html", "said_screen_auction")
        said_raises = _macro("_quick_bids_macros.html", "said_raises")
    auction_drawn: dict[str, str] = {}
    screen_auction_drawn: dict[str, str] = {}
    raises_drawn: dict[tuple[str, str], str] = {}
    # No news: a version that marks an older line (an undo, a take back), and one that changes the
    # dice otherwise than by a roll, the turn otherwise than by passing it on as news says it, the
    # clock otherwise than by pausing or resuming it, or the auction otherwise than by a bid (the
    # pages write each from its own news alone; an auction opening or closing is fetched).
    said_by = {
        DICE: set(rolls),
        TURN: set(turns),
        CLOCK: {clock["version"]} if clock is not None else set(),
        AUCTION: {bid["version"]} if bid is not None else set(),
    }
    silent = {line.version for line in lines if line.reverses}
    silent |= {
        v
        for v, parts in changed.items()
        if parts is not None and any(part in parts and v not in said for part, said in said_by.items())
    }
    undo_words: dict[str, str | None] = {}
    for lang in languages:
        with spoken_in(lang):
            for account, amount in moved:
                texts[account][lang] = money(amount, edition)
            said_lines = {line.version: describe(line, names, edition) for line in lines}
            for line in lines:
                item = {
                    "version": line.version,
                    "text": said_lines[line.version],
                    "reversed": line.reversed_by is not None,
                    "kind": line.kind,
                }
                feed[line.version][lang] = (str(feed_line(item)),)
            for player in readers:
                said = news_for(game, player, versions, recent)
                if said is None:
                    unsaid.add(player)
                    continue
                for n in said:
                    notices[n["version"]][(player, lang)] = (
                        *notices[n["version"]].get((player, lang), ()),
                        str(notice_line(n)),
                    )
            for version, roll in rolls.items():
                who = _("%(name)s rolled", name=names.get(roll.get("player"), "?"))
                roll_drawn[version][lang] = str(said_roll(roll, who))
                total = roll.get("total")
                roll_note[version][lang] = _("last roll: %(total)s", total=total) if total is not None else ""
            for version, turn in turns.items():
                shown = {"number": turn["round"], "limit": edition.turns.limit}
                turn_drawn[version][lang] = str(said_turn(shown, False, names.get(turn["to"], "?")))
            if clock is not None:
                clock_drawn[lang] = str(said_clock(clock["view"], game.status))
            if bid is not None:
                auction_drawn[lang] = str(said_auction(bid["view"], game, edition, names, bid["href"]))
                screen_auction_drawn[lang] = str(said_screen_auction(bid["view"], game, edition, names))
                for player, raises in bid["raises"].items():
                    raises_drawn[(player, lang)] = str(said_raises(raises, edition, ""))
            if undo is not None:
                what = said_lines.get(undo.version) or describe(undo, names, edition)
                undo_words[lang] = _("Undo: %(what)s", what=what)
            else:
                undo_words[lang] = None
    public = not game.cash_private
    after = next_roller(services.state_of(game, deeds=False)) if rolls else None
    said_rolls = {
        version: Roll(frozen_map(roll_drawn[version]), frozen_map(roll_note[version]), after) for version in rolls
    }
    said_cash = tuple(
        Cash(account, amount, frozen_map(texts[account]), public or account in pots) for account, amount in moved
    )
    return {
        version: None
        if version in silent or not feed[version]
        else News(
            cash=said_cash,
            feed=frozen_map(feed[version]),
            notices=frozen_map(notices[version]),
            undo=frozen_map(undo_words),
            unsaid_to=frozenset(unsaid),
            roll=said_rolls.get(version),
            turn=Turn(
                frozen_map(turn_drawn[version]),
                turns[version]["to"],
                turns[version]["round"],
                frozenset({turns[version]["from"], turns[version]["to"]}),
            )
            if version in turns
            else None,
            clock=frozen_map(clock_drawn) if clock is not None and version == clock["version"] else None,
            auction=frozen_map(auction_drawn) if bid is not None and version == bid["version"] else None,
            screen_auction=frozen_map(screen_auction_drawn) if bid is not None and version == bid["version"] else None,
            raises=frozen_map(raises_drawn) if bid is not None and version == bid["version"] else None,
            ticking_since=_ticking_since(version, clock, bid),
        )
        for version in versions
    }


def _macro(template: str, name: str):
    """The macro ``name`` of ``template``, which draws a piece of a page for news as the page draws it."""
    return getattr(current_app.jinja_env.get_template(template).module, name)


def _turns_passed(game, lines) -> dict[int, dict]:
    """The versions among ``lines`` that pass the turn on to a player while the game goes on,
    with their entries' params (``from``, ``to``, ``round``). Not one that ends the game (the
    last round, the time up), nor any while the time is up: the pages then name the player who
    finishes the turn, which news does not say."""
    passed = {
        line.version: line.params
        for line in lines
        if line.kind == "end_turn" and line.params and line.params.get("to") is not None
    }
    if not passed or game.status != "running" or services.time_up_view(game, services.state_of(game, deeds=False)):
        return {}
    return passed


def _clock_moved(game, newest) -> dict | None:
    """The clock paused or resumed by ``newest`` (the commit's newest line), as it stands now (``version``,
    ``view``), while the game goes on and its time is not up; ``None`` otherwise. Only the
    newest: the clock drawn is the one committed, which an older line of the same commit no
    longer shows."""
    if newest.kind not in ("clock_pause", "clock_resume") or game.status != "running":
        return None
    view = services.clock_view(game)
    if view is None or view["remaining_seconds"] == 0:
        return None  # the time up: its words name the player who finishes the turn
    return {"version": newest.version, "view": view, "made": time.monotonic()}


def _bid(game, edition, newest) -> dict | None:
    """The bid made by ``newest`` (the commit's newest line), the auction's card as it stands now
    (``version``, ``view``, ``href``: the link to the deed auctioned) and each player's quick
    raises (``raises``), while the auction is open and its time not up; ``None`` otherwise (an
    auction opening or closing changes the pages' forms: they fetch)."""
    if newest.kind != "bid" or game.status != "running":
        return None
    view = auction_view(game, edition)
    if view is None or view["over"]:
        return None
    href = None
    if view["deed_obj"] is not None:
        values = {"game_id": game.id, "deed_key": view["deed"]}
        href = current_app.url_map.bind("localhost").build("deeds.deed_page", values)
    raises = {p.id: quick_bids(game, edition, p.id) for p in game.players if not p.bankrupt}
    return {"version": newest.version, "view": view, "href": href, "raises": raises, "made": time.monotonic()}


def _ticking_since(version: int, clock: dict | None, bid: dict | None) -> float | None:
    """When ``version``'s news drew a countdown (a running clock, an auction's seconds left)."""
    if clock is not None and clock["version"] == version and clock["view"]["running"]:
        return clock["made"]
    if bid is not None and bid["version"] == version:
        return bid["made"]
    return None
