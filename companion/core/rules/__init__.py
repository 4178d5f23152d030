"""The rules of deeds: buying, rent, buildings, mortgages, auctions, trades, bankruptcy and
jail. Each function takes a ``GameState`` (and ``now`` where time matters) and returns an
``Outcome`` fully described by its postings and Changes, or raises a named refusal."""

from .auction import auction_close, auction_start, bid, building_auction_start, queued_auction
from .bankruptcy import Debt, Liquidation, bankrupt, debts_to, liquidation_value
from .buildings import break_shared, build, next_building, sell_building
from .deeds import buy, lift_cost, mortgage, pay_mortgage_fee, sale_price, sell_to_bank, unmortgage
from .expropriation import expropriation_roll, expropriation_settle, expropriation_start
from .jail import (
    draw_jail_card,
    go_to_jail,
    leave_jail_after_failed_roll,
    leave_jail_on_doubles,
    pay_jail_fine,
    use_jail_card,
)
from .lots import build_lot
from .rent import pay_rent, rent_confirm, rent_due, rent_lapse, rent_line, rent_request
from .squares import land_on_square, take_train
from .trade import require_deeds_tradable, require_tradable, trade_accept, trade_propose, trade_reject

__all__ = [
    "Debt",
    "Liquidation",
    "auction_close",
    "auction_start",
    "bankrupt",
    "bid",
    "break_shared",
    "build",
    "build_lot",
    "building_auction_start",
    "buy",
    "debts_to",
    "draw_jail_card",
    "expropriation_roll",
    "expropriation_settle",
    "expropriation_start",
    "go_to_jail",
    "land_on_square",
    "leave_jail_after_failed_roll",
    "leave_jail_on_doubles",
    "lift_cost",
    "liquidation_value",
    "mortgage",
    "next_building",
    "pay_jail_fine",
    "pay_mortgage_fee",
    "pay_rent",
    "queued_auction",
    "rent_confirm",
    "rent_due",
    "rent_lapse",
    "rent_line",
    "rent_request",
    "require_deeds_tradable",
    "require_tradable",
    "sale_price",
    "sell_building",
    "sell_to_bank",
    "take_train",
    "trade_accept",
    "trade_propose",
    "trade_reject",
    "unmortgage",
    "use_jail_card",
]
