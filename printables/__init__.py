"""Printable sheets for a table game: deed cards, the join poster, rejoin cards, banknotes.

Pure rendering: plain data in (an edition as the dict of its JSON file, URLs, names), PDF or
PNG bytes out. No Flask, no database, no import of the application: the web layer calls in.
Every sheet has ``*_pdf`` (a vector PDF, for printing at 100 %), ``*_png`` (the first page,
scaled for a preview) and ``*_pages`` (Pillow images, 300 dpi by default), all drawn by the
same code.
"""

from ._draw import DPI, PAPER_SIZES, SAFE_MM
from .counterfeit_money import counterfeit_money_pages, counterfeit_money_pdf, counterfeit_money_png, serial_url
from .decoder_chips import chip_count, decoder_chips_pages, decoder_chips_pdf, decoder_chips_png
from .deeds import (
    CARD_MM,
    CODE_ALPHABET,
    deed_card_image,
    deed_card_png,
    deed_cards_pages,
    deed_cards_pdf,
    deed_cards_png,
    deed_code,
    deed_codes,
    deed_key_for_code,
    deed_url,
    lift_value,
)
from .money import (
    NOTE_MM,
    money_pages,
    money_pdf,
    money_png,
    note_counts,
    note_image,
    starting_cash,
    starting_split,
    usable_split,
)
from .table import (
    REJOIN_CARD_MM,
    poster_pages,
    poster_pdf,
    poster_png,
    rejoin_cards_pages,
    rejoin_cards_pdf,
    rejoin_cards_png,
)

__all__ = [
    "CARD_MM",
    "CODE_ALPHABET",
    "DPI",
    "NOTE_MM",
    "PAPER_SIZES",
    "REJOIN_CARD_MM",
    "SAFE_MM",
    "chip_count",
    "counterfeit_money_pages",
    "counterfeit_money_pdf",
    "counterfeit_money_png",
    "decoder_chips_pages",
    "decoder_chips_pdf",
    "decoder_chips_png",
    "deed_card_image",
    "deed_card_png",
    "deed_cards_pages",
    "deed_cards_pdf",
    "deed_cards_png",
    "deed_code",
    "deed_codes",
    "deed_key_for_code",
    "deed_url",
    "lift_value",
    "money_pages",
    "money_pdf",
    "money_png",
    "note_counts",
    "note_image",
    "poster_pages",
    "poster_pdf",
    "poster_png",
    "rejoin_cards_pages",
    "rejoin_cards_pdf",
    "rejoin_cards_png",
    "serial_url",
    "starting_cash",
    "starting_split",
    "usable_split",
]
