"""How the feed says an entry, and how a notice tells one player: sentences as data.

A ``Say`` is one sentence (an English msgid marked with ``N_``; its Italian is in the catalog)
whose placeholders are the entry's params put in words: ``words`` maps each placeholder to
``"how param"``, where *how* is one of the wordings the web layer knows (``WORDINGS``: a
player's or the bank's name, an amount of money, a deed's name...) and *param* the entry's
param it words. A ``Line`` says the first of its ``says`` whose ``when`` holds, then each of
its ``more`` whose ``when`` holds. A ``Tell`` is a notice: a sentence for the one player it
concerns (``NOTICES``: what someone else's entry tells a player; ``RECEIVED``: how money that
reached a player is told, by kind). The core never translates: the web layer reads these and
speaks the reader's language (``web/feed.py``, ``web/notices.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..editions.edition import Edition

Params = Mapping[str, Any]
When = Callable[[Params, "Edition"], bool]

# The wordings a ``Say`` may name: the web layer has one function for each (``web/feed.py``).
WORDINGS = frozenset(
    {
        "who",  # an account: a player's name, the bank, a pot
        "names",  # a list of players' names
        "money",  # an amount in the edition's money
        "text",  # the param as it is (a reason, a number)
        "deed",  # a deed's name
        "deeds",  # a list of deeds' names
        "building",  # the edition's small or big building ("small", "big")
        "big_building",  # the edition's big building, whatever the param
        "smalls",  # the edition's small buildings, in the plural
        "payment",  # one of the edition's fixed payments, by its key
        "jail",  # what the board calls jail
        "trade",  # one side of a trade
        "faces",  # dice faces, added up
        "first_face",  # the first of a roll's faces
        "second_face",  # the second of a roll's faces
        "face",  # one die's face
        "die",  # the expropriation's die: the buyer's yellow or the owner's red
        "won",  # what an auction sold: the deed, or the building
        "unsold",  # what an auction did not sell: the deed, or the building
        "counts",  # how many buildings went on each deed of a lot
        "landing",  # a landing on a computed square, in the words of the square's policy
        "hands",  # the deeds dealt to each player at the start
        "expropriated",  # what an expropriation is for: a deed, or the whole lot of it
        "undone",  # the entry an undo reversed, in its own words
        "taken_back",  # what a player took back ("GO", a tax)
        "taken_back_amount",  # its amount, with its sign
        "named_deed",  # a deed's name, or its key when the edition has none such
        "won_here",  # what an auction sold: the deed, or "the building"
        "net",  # the money that reached the reader, with its sign
        "bracketed",  # a text in brackets, when there is one
        "square",  # one of the edition's computed squares, by its key
    }
)


@dataclass(frozen=True)
class Say:
    """One sentence: ``text`` (``N_``) with its placeholders worded from the entry's params
    (``words``: placeholder to ``"how param"``); ``plural`` and ``count`` for a sentence that
    goes by a number (``count`` the param, filled in as ``num``); ``tail`` a wording put after
    the sentence; said when ``when`` holds (always, without one)."""

    text: str
    words: Mapping[str, str] = field(default_factory=dict)
    when: When | None = None
    plural: str | None = None
    count: str | None = None
    tail: str | None = None

    def holds(self, params: Params, edition: Edition) -> bool:
        return self.when is None or bool(self.when(params, edition))

    @classmethod
    def counted(
        cls, forms: tuple[str, str], count: str, words: Mapping[str, str] | None = None, when: When | None = None
    ) -> Say:
        """A sentence that goes by the number in the param ``count``: ``forms`` its singular and
        plural (``Np_``, extracted as one catalog entry with both)."""
        return cls(forms[0], words or {}, when=when, plural=forms[1], count=count)


@dataclass(frozen=True)
class Line:
    """An entry in words: the first of ``says`` that holds, then each of ``more`` that holds,
    one after the other; or, ``worded_by``, one wording of the web layer that words the whole
    entry (a landing on a square, which its policy words)."""

    says: tuple[Say, ...]
    more: tuple[Say, ...] = ()
    worded_by: str | None = None

    def sentences(self, params: Params, edition: Edition) -> list[Say]:
        """The sentences this line says for ``params``: none when no ``says`` holds."""
        first = next((say for say in self.says if say.holds(params, edition)), None)
        if first is None:
            return []
        return [first, *(say for say in self.more if say.holds(params, edition))]


# Who a notice is for, besides a player a param names: the players who bid in the auction the
# entry ends, and the one whose best bid the entry's bid beat.
BIDDER = "@bidder"
OUTBID = "@outbid"
INFO, PLUS, MINUS = "info", "plus", "minus"


@dataclass(frozen=True)
class Tell:
    """A notice to one player of what someone else did: ``say`` to the player the param ``to``
    names (or ``BIDDER``, ``OUTBID``), in a ``tone`` (``info``; ``plus`` for money in,
    ``minus`` for money out); ``even_mine`` when it is said even to the player who did it
    (an auction's outcome concerns every bidder, whoever closed it)."""

    say: Say
    to: str
    tone: str = INFO
    even_mine: bool = False


def line(text: str, **words: str) -> Line:
    """A line of one sentence, always said."""
    return Line((Say(text, words),))


def has(name: str) -> When:
    """When the entry has the param ``name`` (and it is not empty)."""
    return lambda params, edition: bool(params.get(name))


def lacks(name: str) -> When:
    """When the entry lacks the param ``name`` (or it is empty)."""
    return lambda params, edition: not params.get(name)


def equals(name: str, value: object) -> When:
    """When the entry's param ``name`` is ``value``."""
    return lambda params, edition: params.get(name) == value
