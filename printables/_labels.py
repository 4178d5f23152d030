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
    # Printed money with serials, and the decoder chips (Niente è come sembra on paper).
    "fake_title": {"it": "Banconote e carte Imprevisti della partita", "en": "This game's notes and Imprevisti cards"},
    "fake_intro": {
        "it": "Solo per la partita {game}. Alcune banconote e {fake} carte Imprevisti su {cards} sono false: "
        "niente sulla carta lo dice. Inquadra il codice con il telefono di un giocatore della partita e "
        "tocca «Controlla questa banconota»: il telefono dice VERA o FALSA e gira uno dei tuoi gettoni sul rosso.",
        "en": "For game {game} only. Some notes, and {fake} of the {cards} Imprevisti cards, are fake: nothing "
        "on the paper tells. Scan the code with the phone of a player in the game and tap «Check this note»: the "
        "phone says GENUINE or FAKE and turns one of your chips red.",
    },
    "fake_rules": {
        "it": "Banconota falsa: chi controlla la tiene e chi paga paga di nuovo, a mano (il telefono non sposta "
        "denaro). Carta Imprevisti falsa: chi controlla riceve {bounty} dalla banca e la carta torna nel "
        "mazzo senza effetto.",
        "en": "A fake note: the checker keeps it and the payer pays again, by hand (the phone moves no money). "
        "A fake Imprevisti card: the checker gets {bounty} from the bank and the card goes back to the "
        "pile unused.",
    },
    "fake_cards_row": {"it": "Carte Imprevisti", "en": "Imprevisti cards"},
    "fake_cards_hint": {
        "it": "Le carte Imprevisti hanno uno spazio bianco: scrivici il testo della carta o incollaci quella "
        "della scatola.",
        "en": "The Imprevisti cards have a blank space: write the card's text there or stick the box's card on it.",
    },
    "imprevisti": {"it": "IMPREVISTI", "en": "IMPREVISTI (CHANCE)"},
    "imprevisti_blank": {"it": "testo della carta", "en": "the card's text"},
    "chips_title": {"it": "Gettoni Decoder", "en": "Decoder chips"},
    "chips_intro": {
        "it": "{chips} gettoni per giocatore ({players} giocatori) e {spares} di scorta. Stampa fronte-retro, "
        "capovolgendo sul lato lungo: il rosso finisce dietro il verde. Ritaglia i cerchi.",
        "en": "{chips} chips per player ({players} players) and {spares} spares. Print both sides, flipping on "
        "the long edge: red lands behind green. Cut out the circles.",
    },
    "chips_rules": {
        "it": "Ogni giocatore inizia con {chips} gettoni sul verde.|Per controllare una banconota o una carta "
        "Imprevisti, annuncialo prima che passi di mano e gira un gettone sul rosso.|Non si controllano il "
        "proprio denaro né quello che paga la banca.|In prigione non si usa il decoder.|Al VIA, passando o "
        "fermandosi, tutti i propri gettoni tornano sul verde.|Banconota falsa: chi controlla la tiene e "
        "chi paga paga di nuovo. Carta Imprevisti falsa: chi controlla riceve {bounty} dalla banca.",
        "en": "Each player starts with {chips} chips green side up.|To check a note or an Imprevisti card, say "
        "so before it changes hands and turn one chip red.|You cannot check your own money, nor money the "
        "bank pays out.|In jail you cannot use the decoder.|At GO, passing or landing, all your chips turn "
        "green again.|A fake note: the checker keeps it and the payer pays again. A fake Imprevisti card: "
        "the checker gets {bounty} from the bank.",
    },
    "chip_green": {"it": "VERDE", "en": "GREEN"},
    "chip_red": {"it": "ROSSO", "en": "RED"},
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
