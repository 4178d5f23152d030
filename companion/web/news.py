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
    if not languages:
        return {}
    game = services.find_game(game_id)
    if game is None or game.version != max(changed):
        return {}  # the game has moved on from these: its pages fetch what changed
    story = _Story.read(game, frozenset(changed))
    if story is None:
        return {}
    drawing = _Drawing(story)
    for lang in languages:
        with spoken_in(lang):
            drawing.draw(lang)
    silent = story.silent(changed)
    return {
        version: None if version in silent or not drawing.feed[version] else drawing.news(version)
        for version in story.versions
    }


class _Story:
    """What a game's new versions did, read once from the game and its newest entries: the
    lines, the cash moved, who may have a notice, the rolls, the turns passed on, the clock
    paused or resumed, the bid, what undo would reverse."""

    def __init__(self, game, edition, versions: frozenset[int], lines: list) -> None:
        self.game, self.edition, self.versions, self.lines = game, edition, versions, lines
        self.names = {p.id: p.name for p in game.players}
        anyone = any(may_tell_anyone(line.kind) for line in lines)
        # An auction's bidders are told of it, and who bid is read from the entries before.
        self.recent = recent_entries(game, LOOKBACK) if anyone else lines
        accounts = {posting.account for line in lines for posting in line.postings}
        self.pots = services.state_of(game, deeds=False).pots if accounts - set(self.names) else {}
        self.moved = _moved(game, accounts, self.pots)
        self.readers = _may_have_notices(game, lines, accounts, anyone)
        self.undo = services.undo_offer(game, lines)
        self.rolls = {line.version: line.params for line in lines if line.kind == "roll"}
        self.turns = _turns_passed(game, lines)
        newest = max(lines, key=lambda line: line.version)
        self.clock = _clock_moved(game, newest)
        self.bid = _bid(game, edition, newest)

    @classmethod
    def read(cls, game, versions: frozenset[int]) -> _Story | None:
        """The story of ``versions``, the newest of ``game``; ``None`` when one of them has no
        entry of its own (its pages fetch what changed)."""
        lines = services.recent_lines(game, len(versions))
        if {line.version for line in lines} != versions:
            return None
        return cls(game, services.edition_of(game), versions, lines)

    def silent(self, changed: Mapping[int, frozenset[str] | None]) -> set[int]:
        """The versions news cannot say: one that marks an older line (an undo, a take back),
        and one that changes the dice otherwise than by a roll, the turn otherwise than by
        passing it on as news says it, the clock otherwise than by pausing or resuming it, or
        the auction otherwise than by a bid (the pages write each from its own news alone; an
        auction opening or closing is fetched)."""
        said_by = {
            DICE: set(self.rolls),
            TURN: set(self.turns),
            CLOCK: {self.clock["version"]} if self.clock is not None else set(),
            AUCTION: {self.bid["version"]} if self.bid is not None else set(),
        }
        silent = {line.version for line in self.lines if line.reverses}
        return silent | {
            version
            for version, parts in changed.items()
            if parts is not None and any(part in parts and version not in said for part, said in said_by.items())
        }


def _moved(game, accounts: set[str], pots: Mapping[str, int]) -> list[tuple[str, int]]:
    """Each account of ``accounts`` with its cash now (a player's, or a pot's), by name."""
    cash = {p.id: p.cash for p in game.players}
    return [
        (account, cash[account] if account in cash else pots[account])
        for account in sorted(accounts)
        if account in cash or account in pots
    ]


def _may_have_notices(game, lines, accounts: set[str], anyone: bool) -> list[str]:
    """The players who may have a notice: those the entries name or moved money of (an
    auction's bidders are not named: everyone is asked then)."""
    named = {value for line in lines for value in (line.params or {}).values() if isinstance(value, str)}
    return [p.id for p in game.players if anyone or p.id in accounts or p.id in named]


class _Drawing:
    """A story drawn in each language, as the pages draw it, then made into each version's news."""

    def __init__(self, story: _Story) -> None:
        self.story = story
        versions = story.versions
        self.texts: dict[str, dict[str, str]] = {account: {} for account, _amount in story.moved}
        self.feed: dict[int, dict[str, tuple[str, ...]]] = {version: {} for version in versions}
        self.notices: dict[int, dict[tuple[str, str], tuple[str, ...]]] = {version: {} for version in versions}
        # A take back's actor, and a roll's roller: their own pages draw it with their forms.
        self.unsaid = {line.actor for line in story.lines if services.taken_back(line.kind)}
        self.unsaid |= {str(roll.get("player")) for roll in story.rolls.values()}
        self.roll_drawn: dict[int, dict[str, str]] = {version: {} for version in story.rolls}
        self.roll_note: dict[int, dict[str, str]] = {version: {} for version in story.rolls}
        self.turn_drawn: dict[int, dict[str, str]] = {version: {} for version in story.turns}
        self.clock_drawn: dict[str, str] = {}
        self.auction_drawn: dict[str, str] = {}
        self.screen_auction_drawn: dict[str, str] = {}
        self.raises_drawn: dict[tuple[str, str], str] = {}
        self.undo_words: dict[str, str | None] = {}
        drawn = current_app.jinja_env.get_template("_feed_line.html").module
        self._feed_line, self._notice_line = drawn.feed_line, drawn.notice_line  # type: ignore[attr-defined]

    def draw(self, lang: str) -> None:
        """Draws the story in ``lang`` (the current language, ``spoken_in``)."""
        said_lines = self._draw_lines(lang)
        self._draw_notices(lang)
        self._draw_rolls(lang)
        self._draw_turns(lang)
        self._draw_clock_and_bid(lang)
        story = self.story
        if story.undo is None:
            self.undo_words[lang] = None
        else:
            what = said_lines.get(story.undo.version) or describe(story.undo, story.names, story.edition)
            self.undo_words[lang] = _("Undo: %(what)s", what=what)

    def _draw_lines(self, lang: str) -> dict[int, str]:
        story = self.story
        for account, amount in story.moved:
            self.texts[account][lang] = money(amount, story.edition)
        said = {line.version: describe(line, story.names, story.edition) for line in story.lines}
        for line in story.lines:
            item = {
                "version": line.version,
                "text": said[line.version],
                "reversed": line.reversed_by is not None,
                "kind": line.kind,
            }
            self.feed[line.version][lang] = (str(self._feed_line(item)),)
        return said

    def _draw_notices(self, lang: str) -> None:
        story = self.story
        for player in story.readers:
            said = news_for(story.game, player, story.versions, story.recent)
            if said is None:
                self.unsaid.add(player)
                continue
            for notice in said:
                told = self.notices[notice["version"]]
                told[(player, lang)] = (*told.get((player, lang), ()), str(self._notice_line(notice)))

    def _draw_rolls(self, lang: str) -> None:
        story = self.story
        if not story.rolls:
            return
        said_roll = _macro("_dice_macros.html", "said_roll")
        for version, roll in story.rolls.items():
            who = _("%(name)s rolled", name=story.names.get(roll.get("player"), "?"))
            self.roll_drawn[version][lang] = str(said_roll(roll, who))
            total = roll.get("total")
            self.roll_note[version][lang] = _("last roll: %(total)s", total=total) if total is not None else ""

    def _draw_turns(self, lang: str) -> None:
        story = self.story
        if not story.turns:
            return
        said_turn = _macro("_turn_macros.html", "said_turn")
        for version, turn in story.turns.items():
            shown = {"number": turn["round"], "limit": story.edition.turns.limit}
            self.turn_drawn[version][lang] = str(said_turn(shown, False, story.names.get(turn["to"], "?")))

    def _draw_clock_and_bid(self, lang: str) -> None:
        story = self.story
        if story.clock is not None:
            said_clock = _macro("_clock_macros.html", "said_clock")
            self.clock_drawn[lang] = str(said_clock(story.clock["view"], story.game.status))
        bid = story.bid
        if bid is None:
            return
        auction_macros = current_app.jinja_env.get_template("_auction_macros.html").module
        said_raises = _macro("_quick_bids_macros.html", "said_raises")
        names, game, edition = story.names, story.game, story.edition
        self.auction_drawn[lang] = str(auction_macros.said_auction(bid["view"], game, edition, names, bid["href"]))  # type: ignore[attr-defined]
        self.screen_auction_drawn[lang] = str(auction_macros.said_screen_auction(bid["view"], game, edition, names))  # type: ignore[attr-defined]
        for player, raises in bid["raises"].items():
            self.raises_drawn[(player, lang)] = str(said_raises(raises, edition, ""))

    def news(self, version: int) -> News:
        """The news of ``version``, drawn in every language."""
        story = self.story
        public = not story.game.cash_private
        bid_here = story.bid is not None and version == story.bid["version"]
        return News(
            cash=tuple(
                Cash(account, amount, frozen_map(self.texts[account]), public or account in story.pots)
                for account, amount in story.moved
            ),
            feed=frozen_map(self.feed[version]),
            notices=frozen_map(self.notices[version]),
            undo=frozen_map(self.undo_words),
            unsaid_to=frozenset(self.unsaid),
            roll=self._roll(version),
            turn=self._turn(version),
            clock=frozen_map(self.clock_drawn)
            if story.clock is not None and version == story.clock["version"]
            else None,
            auction=frozen_map(self.auction_drawn) if bid_here else None,
            screen_auction=frozen_map(self.screen_auction_drawn) if bid_here else None,
            raises=frozen_map(self.raises_drawn) if bid_here else None,
            ticking_since=_ticking_since(version, story.clock, story.bid),
        )

    def _roll(self, version: int) -> Roll | None:
        if version not in self.story.rolls:
            return None
        after = next_roller(services.state_of(self.story.game, deeds=False))
        return Roll(frozen_map(self.roll_drawn[version]), frozen_map(self.roll_note[version]), after)

    def _turn(self, version: int) -> Turn | None:
        turn = self.story.turns.get(version)
        if turn is None:
            return None
        concerns = frozenset({turn["from"], turn["to"]})
        return Turn(frozen_map(self.turn_drawn[version]), turn["to"], turn["round"], concerns)


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
