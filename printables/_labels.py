"""The words printed on the sheets, in Italian and English.

The sheets are drawn outside any request, so they carry their own two-language table
instead of going through the web layer's translations.
"""
from __future__ import annotations

_LABELS: dict[str, dict[str, str]] = {
    "title_deed": {"it": "CONTRATTO DI PROPRIETÀ", "en": "TITLE DEED"},
    "price": {"it": "Prezzo", "en": "Price"},
    "rent": {"it": "Rendita", "en": "Rent"},
    "rent_site_only": {"it": "Rendita (solo terreno)", "en": "Rent (site only)"},
    "with_one": {"it": "con 1 {small}", "en": "with 1 {small}"},
    "with_many": {"it": "con {n} {small_plural}", "en": "with {n} {small_plural}"},
    "with_big": {"it": "con {big}", "en": "with {big}"},
    "small_cost": {"it": "Costo di ogni {small}", "en": "Each {small} costs"},
    "big_cost": {"it": "Costo per {big}", "en": "A {big} costs"},
    "big_cost_plus": {"it": "{cost} più {n} {small_plural}", "en": "{cost} plus {n} {small_plural}"},
    "owned_1": {"it": "Se ne possiedi 1", "en": "If 1 is owned"},
    "owned_n": {"it": "Se ne possiedi {n}", "en": "If {n} are owned"},
    "times_dice": {"it": "{k} × i dadi", "en": "{k} × dice"},
    # The rulebook's double rent on a whole colour group, one sentence per rent policy.
    "double_rent": {
        "it": "Se possiedi tutto il gruppo di colore, la rendita raddoppia sui terreni senza edifici.",
        "en": "If you own the whole colour group, the rent doubles on its sites without buildings.",
    },
    "double_on_unmortgaged_deeds": {
        "it": "Se possiedi tutto il gruppo di colore, la rendita raddoppia su ogni terreno senza edifici, "
              "anche se un altro è ipotecato.",
        "en": "If you own the whole colour group, the rent doubles on each of its sites without buildings, "
              "even if another is mortgaged.",
    },
    "double_if_none_mortgaged": {
        "it": "Se possiedi tutto il gruppo di colore e nessun terreno è ipotecato, la rendita raddoppia sui "
              "terreni senza edifici.",
        "en": "If you own the whole colour group and none of it is mortgaged, the rent doubles on its sites "
              "without buildings.",
    },
    "double_if_none_mortgaged_or_built": {
        "it": "Se possiedi tutto il gruppo di colore, senza edifici né ipoteche, la rendita raddoppia.",
        "en": "If you own the whole colour group, with no buildings and no mortgages, the rent doubles.",
    },
    "mortgage_value": {"it": "Valore ipotecario", "en": "Mortgage value"},
    "lift": {"it": "Per togliere l'ipoteca", "en": "To lift the mortgage"},
    "mortgaged": {"it": "IPOTECATA", "en": "MORTGAGED"},
    "mortgaged_hint": {
        "it": "Tieni la carta su questo lato finché la proprietà resta ipotecata.",
        "en": "Keep the card this side up while the property is mortgaged.",
    },
    "penalty": {"it": "Penale esproprio", "en": "Expropriation penalty"},
    "lot_penalty": {"it": "Penale esproprio del lotto", "en": "Penalty on the whole lot"},
    "deed_sale": {"it": "Rivenduta alla banca", "en": "Sold back to the bank"},
    "provisional": {"it": "PROVVISORIO", "en": "PROVISIONAL"},
    "provisional_hint": {"it": "verifica con la tua scatola", "en": "check your box"},
    "scan_code": {"it": "codice", "en": "code"},
    "poster_scan": {
        "it": "Inquadra con la fotocamera del telefono per entrare nella partita",
        "en": "Point your phone's camera here to join the game",
    },
    "poster_code": {"it": "oppure apri {url} e scrivi il codice", "en": "or open {url} and type the code"},
    "rejoin_title": {"it": "Rientra nella partita", "en": "Rejoin the game"},
    "rejoin_scan": {
        "it": "Inquadra per riaprire il tuo portafoglio",
        "en": "Scan to open your wallet again",
    },
    "rejoin_private": {
        "it": "Personale: chi la inquadra gioca al tuo posto.",
        "en": "Personal: whoever scans it plays as you.",
    },
    "money_title": {"it": "Banconote", "en": "Banknotes"},
    "money_intro": {
        "it": "{players} giocatori, {cash} a testa. Banconote da {w}×{h} mm: taglia lungo i segni.",
        "en": "{players} players, {cash} each. Notes are {w}×{h} mm: cut along the marks.",
    },
    "money_each": {"it": "Ogni giocatore riceve", "en": "Each player receives"},
    "money_note": {"it": "Banconota", "en": "Note"},
    "money_per_player": {"it": "A testa", "en": "Each"},
    "money_players": {"it": "Giocatori", "en": "Players"},
    "money_bank": {"it": "Banca", "en": "Bank"},
    "money_print": {"it": "Da tagliare", "en": "To cut"},
    "money_total": {"it": "Totale", "en": "Total"},
    "money_bank_hint": {
        "it": "La banca tiene {sets} dotazioni iniziali in più per stipendi e pagamenti.",
        "en": "The bank keeps {sets} extra starting sets for salaries and payouts.",
    },
    "money_print_hint": {
        "it": "Stampa al 100 % (dimensioni reali, senza adattare alla pagina).",
        "en": "Print at 100 % (actual size, no fit to page).",
    },
}


def label(key: str, lang: str, **values) -> str:
    """The text ``key`` in ``lang`` with ``values`` filled in."""
    return _LABELS[key][lang].format(**values)


def text_in(value, lang: str) -> str:
    """An edition's name field: a plain string, or a ``{"it": ..., "en": ...}`` mapping."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return value.get(lang) or value.get("it") or next(iter(value.values()), "")
    return ""
