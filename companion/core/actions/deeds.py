"""The deeds' actions: buying, rent, buildings, mortgages, lots, and going bankrupt."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import rules
from ..errors import N_, BadInput, NotFound, Np_
from ..rules.lots import PLACES
from ..state import GameState, Outcome
from .action import (
    AMOUNT,
    COUNTS,
    DICE_TOTAL,
    FLAG,
    INVALID_BUILDING,
    NOBODYS,
    OTHERS,
    OWN,
    PLAYER,
    TEXT,
    UNKNOWN_DEED,
    UNKNOWN_PLAYER,
    Action,
    Asked,
    Field,
    Handler,
    Offer,
)
from .lines import Line, Say, Tell, has, line

if TYPE_CHECKING:
    from ..editions.edition import Edition

DEED = Field("deed", TEXT, "The key of one of the edition's deeds.", refusal=UNKNOWN_DEED)
DICE = Field("dice", DICE_TOTAL, "The dice total, where the rent goes by the dice (a utility's).")
BUILDING = Field(
    "building",
    TEXT,
    "Which building, where the deed could take either.",
    choices=("small", "big"),
    refusal=INVALID_BUILDING,
)
REQUEST = Field("request", TEXT, "The id of the rent asked.", refusal=(NotFound, "unknown_rent_request"))


def _amount(text: str) -> tuple[Say, ...]:
    """A button's words that name the money it moves as ``%(amount)s``."""
    return (Say(text, {"amount": "money amount"}),)


def _one_at_a_time(edition: Edition) -> tuple[dict[str, object], ...]:
    """One building at a time where the edition builds so (not a whole lot at once)."""
    return ({},) if edition.buildings.placement == "one_at_a_time" else ()


def _deed_action(rule: Callable[[GameState, str, str], Outcome]) -> Handler:
    """An action on one deed by the acting player: ``buy``, ``mortgage``..."""
    return lambda state, asked: rule(state, asked.player(), asked.get("deed"))


def _pay_rent(state: GameState, asked: Asked) -> Outcome:
    return rules.pay_rent(state, asked.player(), asked.get("deed"), asked.get("dice"))


def _rent_request(state: GameState, asked: Asked) -> Outcome:
    return rules.rent_request(
        state, asked.new_id(), asked.player(), asked.get("payer"), asked.get("deed"), asked.now, asked.get("dice")
    )


def _rent_confirm(state: GameState, asked: Asked) -> Outcome:
    return rules.rent_confirm(state, asked.get("request"), asked.player(), asked.now)


def _rent_lapse(state: GameState, asked: Asked) -> Outcome:
    by = None if asked.by.is_banker else asked.by.player_id
    return rules.rent_lapse(state, asked.get("request"), by, asked.now)


def _build(state: GameState, asked: Asked) -> Outcome:
    return rules.build(state, asked.player(), asked.get("deed"), asked.get("building"))


def _sell_building(state: GameState, asked: Asked) -> Outcome:
    return rules.sell_building(state, asked.player(), asked.get("deed"), break_hotel=asked.get("break_hotel") is True)


def _build_lot(state: GameState, asked: Asked) -> Outcome:
    return rules.build_lot(state, asked.player(), asked.get("group"), asked.get("counts"), asked.get("place"))


def _bankrupt(state: GameState, asked: Asked) -> Outcome:
    return rules.bankrupt(
        state,
        asked.player(),
        asked.get("creditor"),
        asked.get("amount"),
        deed=asked.get("deed"),
        dice=asked.get("dice"),
        request=asked.get("request"),
        payment=asked.get("payment"),
        now=asked.now,
    )


ACTIONS = (
    Action(
        "buy",
        _deed_action(rules.buy),
        (PLAYER, DEED),
        line=line(
            N_("%(name)s bought %(deed)s for %(amount)s."), name="who player", deed="deed deed", amount="money amount"
        ),
        # Not a word of a deed being auctioned: the auction itself is on top of its page.
        offers=(
            Offer(
                NOBODYS,
                _amount(N_("Buy for %(amount)s")),
                closed=Say(N_("Buy")),
                unsaid=("deed_in_auction",),
                landing=True,
            ),
        ),
        about="Buys a deed nobody owns at its printed price.",
    ),
    Action(
        "pay_rent",
        _pay_rent,
        (PLAYER, DEED, DICE),
        line=line(
            N_("%(payer)s paid %(to)s %(amount)s rent for %(deed)s."),
            payer="who from",
            amount="money amount",
            deed="deed deed",
            to="who to",
        ),
        received=Say(
            N_("%(amount)s from %(name)s: rent on %(deed)s."),
            {"amount": "net @net", "name": "who from", "deed": "named_deed deed"},
        ),
        offers=(
            Offer(
                OTHERS,
                (Say(N_("Pay rent to %(name)s: %(amount)s"), {"name": "who to", "amount": "money amount"}),),
                closed=Say(N_("Rent")),
                by_dice=True,
                landing=True,
            ),
        ),
        about="Pays the rent the rules give to whoever is owed it.",
    ),
    Action(
        "rent_request",
        _rent_request,
        (PLAYER, DEED, Field("payer", TEXT, "The player who landed.", refusal=UNKNOWN_PLAYER), DICE),
        line=line(
            N_("%(owner)s asked %(payer)s for %(amount)s rent for %(deed)s."),
            owner="who to",
            payer="who from",
            amount="money amount",
            deed="deed deed",
        ),
        told=(
            Tell(
                Say(
                    N_("%(name)s asks you for %(amount)s rent on %(deed)s."),
                    {"name": "who to", "amount": "money amount", "deed": "named_deed deed"},
                ),
                to="from",
            ),
        ),
        about="The owner asks the player who landed for the rent: it waits for their yes.",
    ),
    Action(
        "rent_confirm",
        _rent_confirm,
        (PLAYER, REQUEST),
        reads_deeds=False,
        about="The player asked pays the rent asked.",
    ),
    Action(
        "rent_lapse",
        _rent_lapse,
        (REQUEST,),
        reads_deeds=False,
        line=line(
            N_("The request for %(payer)s to pay the rent for %(deed)s lapsed."), deed="deed deed", payer="who from"
        ),
        about="The rent asked lapses unpaid.",
    ),
    Action(
        "build",
        _build,
        (PLAYER, DEED, BUILDING),
        line=line(
            N_("%(name)s built a %(building)s on %(deed)s for %(amount)s."),
            name="who player",
            deed="deed deed",
            amount="money amount",
            building="building building",
        ),
        # Not a word where building never applies on the deed.
        offers=(
            Offer(OWN, (Say(N_("Build")),), each=_one_at_a_time, closed=Say(N_("Build")), unsaid=("not_buildable",)),
        ),
        about="One building up, by the edition's rules.",
    ),
    Action(
        "sell_building",
        _sell_building,
        (
            PLAYER,
            DEED,
            Field("break_hotel", FLAG, "Break the big building into small ones."),
        ),
        line=Line(
            (
                Say(
                    N_("%(name)s broke the %(building)s on %(deed)s into %(small)s and got %(amount)s."),
                    {
                        "name": "who player",
                        "building": "big_building building",
                        "deed": "deed deed",
                        "amount": "money amount",
                        "small": "smalls building",
                    },
                    when=has("broken"),
                ),
                Say(
                    N_("%(name)s sold a %(building)s on %(deed)s back to the bank for %(amount)s."),
                    {
                        "name": "who player",
                        "deed": "deed deed",
                        "amount": "money amount",
                        "building": "building building",
                    },
                ),
            )
        ),
        offers=(
            Offer(OWN, (Say(N_("Sell a building")),)),
            Offer(
                OWN,
                (
                    Say(
                        N_("Break the %(big)s into %(small)s"),
                        {"big": "big_building building", "small": "smalls building"},
                        when=lambda p, e: bool(e.buildings.big),
                    ),
                    Say(N_("Break the big building into small ones")),
                ),
                each=lambda edition: ({"break_hotel": True},),
            ),
        ),
        about="One building down, sold back to the bank.",
    ),
    Action(
        "mortgage",
        _deed_action(rules.mortgage),
        (PLAYER, DEED),
        line=line(
            N_("%(name)s mortgaged %(deed)s and got %(amount)s."),
            name="who player",
            deed="deed deed",
            amount="money amount",
        ),
        offers=(Offer(OWN, _amount(N_("Mortgage for %(amount)s"))),),
        about="Mortgages a deed.",
    ),
    Action(
        "unmortgage",
        _deed_action(rules.unmortgage),
        (PLAYER, DEED),
        line=line(
            N_("%(name)s paid %(amount)s to lift the mortgage on %(deed)s."),
            name="who player",
            deed="deed deed",
            amount="money amount",
        ),
        offers=(Offer(OWN, _amount(N_("Lift the mortgage for %(amount)s"))),),
        about="Lifts a deed's mortgage.",
    ),
    Action(
        "pay_mortgage_fee",
        _deed_action(rules.pay_mortgage_fee),
        (PLAYER, DEED),
        line=line(
            N_("%(name)s paid a fee of %(amount)s on the mortgaged %(deed)s."),
            name="who player",
            deed="deed deed",
            amount="money amount",
        ),
        offers=(Offer(OWN, _amount(N_("Pay the fee of %(amount)s and keep it mortgaged"))),),
        about="Pays the fee on a mortgaged deed, where the edition has one.",
    ),
    Action(
        "sell_to_bank",
        _deed_action(rules.sell_to_bank),
        (PLAYER, DEED),
        line=line(
            N_("%(name)s sold %(deed)s to the bank for %(amount)s."),
            name="who player",
            deed="deed deed",
            amount="money amount",
        ),
        # Where deeds are sold back to the bank, a built deed says why it cannot be sold yet.
        offers=(
            Offer(
                OWN,
                _amount(N_("Sell to the bank for %(amount)s")),
                closed=Say(N_("Sell to the bank")),
                why=("deed_sale_buildings_first",),
            ),
        ),
        about="Sells a deed back to the bank at its price, once unbuilt (where the edition has deed_sale).",
    ),
    Action(
        "build_lot",
        _build_lot,
        (
            PLAYER,
            Field("group", TEXT, "The lot (group) to build on."),
            Field("counts", COUNTS, "How many to build on each deed of the lot."),
            Field(
                "place",
                TEXT,
                "Where the player is, which sets how many may go up.",
                choices=PLACES,
                refusal=(BadInput, "invalid_place"),
            ),
        ),
        line=line(
            N_("%(name)s built %(what)s: %(counts)s, for %(amount)s."),
            name="who player",
            counts="counts counts",
            amount="money amount",
            what="smalls counts",
        ),
        about="Builds on a whole lot at once (Monopoly Città).",
    ),
    Action(
        "bankrupt",
        _bankrupt,
        (
            PLAYER,
            Field(
                "creditor",
                TEXT,
                'A player id or "bank": to whom the debt is owed (needed with amount; a rent, a request or a '
                "payment names its own, which this may repeat).",
                refusal=UNKNOWN_PLAYER,
            ),
            Field(
                "amount",
                AMOUNT,
                "The debt: an amount owed to creditor. Name one debt: amount, deed (a rent), request or payment.",
            ),
            Field("deed", TEXT, "The debt: the rent on this deed, as pay_rent computes it.", refusal=UNKNOWN_DEED),
            Field("dice", DICE_TOTAL, "With deed: the dice total, where the rent goes by the dice."),
            Field(
                "request",
                TEXT,
                "The debt: a request for money (a rent request among them) waiting on the player.",
                refusal=(NotFound, "unknown_request"),
            ),
            Field(
                "payment",
                TEXT,
                "The debt: one of the edition's fixed payments (a tax, a fine), owed to the bank.",
                refusal=(NotFound, "unknown_payment"),
            ),
        ),
        line=Line(
            (
                Say(
                    N_("%(name)s cannot pay %(creditor)s %(debt)s and goes bankrupt, out of the game."),
                    {"name": "who player", "creditor": "who creditor", "debt": "money debt"},
                    when=has("debt"),
                ),
                Say(
                    N_("%(name)s went bankrupt owing %(creditor)s and is out of the game."),
                    {"name": "who player", "creditor": "who creditor"},
                ),
            ),
            (
                Say(
                    N_("%(amount)s passed to %(heir)s."),
                    {"amount": "money cash", "heir": "who heir"},
                    when=lambda p, e: bool(p.get("cash")) and bool(p.get("heir")),
                ),
                Say.counted(
                    Np_("%(num)d deed passed to %(heir)s.", "%(num)d deeds passed to %(heir)s."),
                    count="deed_count",
                    words={"heir": "who heir"},
                    when=lambda p, e: bool(p.get("deed_count")) and bool(p.get("heir")),
                ),
                Say(
                    N_("The bank paid %(creditor)s %(paid)s."),
                    {"creditor": "who creditor", "paid": "money creditor_paid"},
                    when=has("creditor_paid"),
                ),
                Say(
                    N_("%(name)s is the last player left and wins: the game is over."),
                    {"name": "who winner"},
                    when=has("winner"),
                ),
            ),
        ),
        about="A player who cannot pay a debt (named: amount with creditor, deed, request or payment) hands "
        "everything over as the edition says. Refused while the player could still pay it, saying how much.",
    ),
)
