"""What a version tells each reader: the news an event carries, so a page shows a payment
without fetching anything (``docs/live.md``, *News*).

A version's ``News`` is made once, in the write transaction that makes the version, by the app
(``companion.web.news``), in the languages its game is read in, handed to the broker once the
version is committed, and never changes: every stream of the game reads the same value, each
taking what its reader may see (``told``): the cash of the accounts the version moved (a
player's own always, the others' only where the game shows cash, or to the banker), the feed's
new lines in the reader's language, the reader's own new notices, a roll of the dice (to every
page but its roller's), a turn passed on and the clock paused or resumed, a bid (the auction's
card), and for the banker the words of what *undo* would reverse now. Plain Python, on the
loop's floor: the streams make their events from it.

A version whose effect news cannot say (an undo, which marks an older line; money asked, whose
notice carries forms) has none (``None``): its events say only their parts and the page fetches
its regions, as before news.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

# What a merged event carries at most: a page shows no more lines nor notices than these.
FEED_LINES = 30
NOTICES = 8
# A countdown drawn longer ago than this (a running clock, an auction's time left) is no news: a
# page catching up later (back from the pocket) would show the seconds left as they were then. It
# fetches instead.
TICKING_FRESH_SECONDS = 2.0


@dataclass(frozen=True)
class Reader:
    """Who a stream's page is for: its language, the player its session is seated as (whose
    notices and cash it shows), and whether it may see every player's cash."""

    lang: str
    player: str | None
    sees_all_cash: bool
    banker: bool = False  # the Bank's pages: told what undo would reverse
    screen: bool = False  # the table screen: told a bid's auction as it draws it, large


@dataclass(frozen=True)
class Cash:
    """One account's cash after a version: the amount, and as each language writes it."""

    account: str
    amount: int
    text: Mapping[str, str]
    public: bool  # shown to every reader (a pot, or any cash in a game that shows it)


@dataclass(frozen=True)
class Roll:
    """A roll of the dice, as every page but its roller's shows it: drawn in each language for
    the pages that did not roll (``_dice_macros.html``, ``said_roll``), the Dice sheet's short
    note (empty for a roll with no total), and who most likely rolls next."""

    drawn: Mapping[str, str]  # language -> the roll's HTML
    note: Mapping[str, str]  # language -> "last roll: 7"
    next_roller: str | None


@dataclass(frozen=True)
class Turn:
    """A turn passed on: whose turn it is and the round, drawn in each language as a page the
    turn does not concern shows them (``_turn_macros.html``, ``said_turn``), the player, the
    round's number, and the players it concerns (who ended it and who plays now: their turn
    cards gain or lose a form, which their pages fetch)."""

    drawn: Mapping[str, str]  # language -> "Bruno's turn · round 3 of 40" in HTML
    player: str
    number: int
    concerns: frozenset[str]


@dataclass(frozen=True)
class News:
    """What one version changed, for every reader; made once and read by many, never changed."""

    cash: tuple[Cash, ...]
    # language -> the version's feed lines (HTML), newest first: one key for each language the
    # news is made in (those its game's pages read it in), which are the only ones it tells
    feed: Mapping[str, tuple[str, ...]]
    notices: Mapping[tuple[str, str], tuple[str, ...]]  # (player, language) -> their new notices (HTML)
    undo: Mapping[str, str | None]  # language -> the banker's undo confirmation, None when nothing to undo
    # Players whose own pages draw something from this version that news cannot say (the take
    # back a one-tap move offers its player, the forms of a player's own roll): their pages go
    # by the parts.
    unsaid_to: frozenset[str] = frozenset()
    roll: Roll | None = None  # the version's roll of the dice
    turn: Turn | None = None  # the turn passed on
    # The clock paused or resumed, drawn in each language as every page shows it (``said_clock``);
    # the Bank fetches its clock card beside it (the form that does it).
    clock: Mapping[str, str] | None = None
    # A bid: the auction's card drawn in each language (``said_auction``), the same on every page
    # but the table screen's, which draws it large (``said_screen_auction``), and each player's
    # quick raises, drawn for them (``said_raises``) but for the CSRF token of their session, which
    # the browser fills in.
    auction: Mapping[str, str] | None = None
    screen_auction: Mapping[str, str] | None = None
    raises: Mapping[tuple[str, str], str] | None = None  # (player, language) -> their raises' HTML
    # When what is drawn counts seconds down (a running clock, an auction's time left): the
    # ``time.monotonic`` it was drawn at. The browser ticks it on from there.
    ticking_since: float | None = None

    @cached_property
    def concerned(self) -> frozenset[str]:
        """The players this version tells something of their own: whose cash it moved where
        the cash is not shown to everyone, whose notices or quick raises it holds, whom a turn
        passed on concerns, whose pages it leaves unsaid. To every other player it says what it
        says to a page with no seat."""
        said = {moved.account for moved in self.cash if not moved.public}
        said.update(player for player, _lang in self.notices)
        said.update(player for player, _lang in self.raises or {})
        return frozenset(said | (self.turn.concerns if self.turn is not None else frozenset()) | self.unsaid_to)


class Alike:
    """What one step of a game's versions (one event's, oldest first) tells every reader alike,
    read once for all of them: the readers it tells alike are told one same event, made once
    (``told``). A reader's seat counts only where one of them concerns its player
    (``News.concerned``), its sight of every player's cash only where they moved cash not shown
    to everyone, its being the table screen only where they draw an auction (the screen draws it
    large). Where one of them has no news, every reader is told alike: the parts alone."""

    __slots__ = ("auction", "concerned", "private_cash", "versions", "whole")

    def __init__(self, versions: Sequence[News | None]) -> None:
        known = [news for news in versions if news is not None]
        self.versions = versions
        self.whole = len(known) == len(versions)
        self.concerned: frozenset[str] = frozenset().union(*(news.concerned for news in known))
        self.private_cash = any(not moved.public for news in known for moved in news.cash)
        self.auction = any(news.auction is not None or news.screen_auction is not None for news in known)

    def key(self, reader: Reader) -> tuple:
        """What of ``reader`` changes what it is told: equal for readers told alike."""
        if not self.whole:
            return ()
        return (
            reader.lang,
            reader.player if reader.player in self.concerned else None,
            reader.sees_all_cash and self.private_cash,
            reader.banker,
            reader.screen and self.auction,
        )

    def seen_as(self, reader: Reader) -> Reader:
        """The reader ``key`` says: told what ``reader`` is told (``reader`` itself where one
        of the versions has no news: every reader is told nothing then)."""
        return Reader(*self.key(reader)) if self.whole else reader


def frozen_map(values: Mapping) -> Mapping:
    """``values`` as a mapping nothing can change."""
    return MappingProxyType(dict(values))


def told(versions: Sequence[News | None], reader: Reader, now: float | None = None) -> dict | None:
    """What ``versions`` (oldest first, one event's) tell ``reader``: ``{"cash": {account:
    {"amount", "text"}}, "feed": [...], "notices": [...], "undo": ..., "roll": {"drawn",
    "note", "next"}, "turn": {"drawn", "player", "number", "concerns_you"}, "clock": html,
    "auction": html (as the table screen draws it, for the screen), "raises": html}``, the
    newest first, the newest amount of each account, the newest roll, turn, clock, auction and
    the reader's own raises (each only when one of them rolled, passed the turn on, paused or
    resumed the clock, or bid). A turn concerns the two players it passes between and the
    banker, whose turn cards have forms that name the player in turn. ``None`` when one of them
    has no news for this reader, when one of them draws a countdown more than
    ``TICKING_FRESH_SECONDS`` before ``now`` (``time.monotonic``), when one of them is not made
    in the reader's language (nobody read the game in it when it was made), or there are none."""
    if not _all_said(versions, reader, time.monotonic() if now is None else now):
        return None
    known = [news for news in versions if news is not None]
    newest_first = known[::-1]  # the newest amount, lines, roll, turn, clock, auction lead
    said: dict = {
        "cash": _cash(newest_first, reader),
        "feed": [line for news in newest_first for line in news.feed.get(reader.lang, ())][:FEED_LINES],
        "notices": _notices(newest_first, reader)[:NOTICES],
    }
    if reader.banker:
        said["undo"] = known[-1].undo.get(reader.lang)
    for key, drawn in _pieces(newest_first, reader).items():
        if drawn is not None:
            said[key] = drawn
    return said


def _all_said(versions: Sequence[News | None], reader: Reader, now: float) -> bool:
    """Whether every one of ``versions`` has news for ``reader``, made in its language, and
    none draws a countdown older than ``TICKING_FRESH_SECONDS``."""
    if not versions:
        return False
    for news in versions:
        if news is None or reader.player in news.unsaid_to or reader.lang not in news.feed:
            return False
        if news.ticking_since is not None and now - news.ticking_since > TICKING_FRESH_SECONDS:
            return False
    return True


def _cash(newest_first: list[News], reader: Reader) -> dict[str, dict]:
    """The newest amount of each account ``reader`` may see."""
    cash: dict[str, dict] = {}
    for news in newest_first:
        for moved in news.cash:
            seen = moved.public or reader.sees_all_cash or moved.account == reader.player
            if seen and moved.account not in cash:
                cash[moved.account] = {"amount": moved.amount, "text": moved.text.get(reader.lang, "")}
    return cash


def _notices(newest_first: list[News], reader: Reader) -> list[str]:
    if reader.player is None:
        return []
    return [line for news in newest_first for line in news.notices.get((reader.player, reader.lang), ())]


def _pieces(newest_first: list[News], reader: Reader) -> dict[str, object]:
    """The newest roll, turn, clock, auction and the reader's own raises, as ``told`` says them
    (``None`` for each the versions did not draw)."""
    lang = reader.lang
    roll = next((news.roll for news in newest_first if news.roll is not None), None)
    turn = next((news.turn for news in newest_first if news.turn is not None), None)
    clock = next((news.clock for news in newest_first if news.clock is not None), None)
    auction = next((news.auction for news in newest_first if news.auction is not None), None)
    screen = next((news.screen_auction for news in newest_first if news.screen_auction is not None), None)
    raises = next((news.raises for news in newest_first if news.raises is not None), None)
    drawn_auction = screen if reader.screen else auction
    return {
        "roll": _roll(roll, lang) if roll is not None else None,
        "turn": _turn(turn, reader) if turn is not None else None,
        "clock": clock.get(lang, "") if clock is not None else None,
        "auction": drawn_auction.get(lang, "") if drawn_auction is not None else None,
        "raises": raises.get((reader.player, lang)) if raises is not None and reader.player is not None else None,
    }


def _roll(roll: Roll, lang: str) -> dict:
    return {"drawn": roll.drawn.get(lang, ""), "note": roll.note.get(lang, ""), "next": roll.next_roller}


def _turn(turn: Turn, reader: Reader) -> dict:
    """A turn passed on, as ``reader`` is told it: it concerns the two players it passes
    between and the banker, whose turn cards have forms that name the player in turn."""
    return {
        "drawn": turn.drawn.get(reader.lang, ""),
        "player": turn.player,
        "number": turn.number,
        "concerns_you": reader.banker or reader.player in turn.concerns,
    }
