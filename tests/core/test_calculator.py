"""The score calculator for paper games: entries typed on a phone become the state the final
count reads, counted by the same code as a game. Totals are worked out by hand from the
printed deeds; every impossible entry is refused, naming it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.core import rules
from companion.core.calculator import DeedEntry as D
from companion.core.calculator import PlayerEntry as P
from companion.core.calculator import WrongEntries, clean_names, game_state, kept_even
from companion.core.errors import BadInput, BancoError, RuleViolation
from companion.core.score import standings
from tests.core.conftest import EDITIONS, act, give, new_state, set_game

CLASSIC, CHAMPIONSHIP = EDITIONS["classic-it"], EDITIONS["campionato-2015"]
MOTOPOLIS, PETROPOLIS = EDITIONS["motopolis"], EDITIONS["petropolis"]


def rows(edition, players, deeds):
    state = game_state(edition, players, deeds)
    return [(state.players[r.player].name, r.rank, r.total, r.breakdown, r.tournament_points) for r in standings(state)]


def test_classic_count_by_hand():
    players = [P("Anna", 1000), P("Bruno", 850), P("Carla", 1200)]
    deeds = [
        D("vicolo-corto", 0, mortgaged=True),  # price 60, mortgaged: counts 30
        D("via-roma", 0, 2),
        D("corso-impero", 0, 2),
        D("largo-augusto", 0, 1),  # 300+300+320, 5 houses x 200
        D("viale-dei-giardini", 1, 4),
        D("parco-della-vittoria", 1, 0, True),  # 350+400, 4 x 200 + hotel 5 x 200
        D("stazione-sud", 1),  # 200
        D("societa-elettrica", 2, mortgaged=True),
    ]  # 150 mortgaged: 75
    assert rows(CLASSIC, players, deeds) == [
        ("Bruno", 1, 850 + 950 + 1800, {"cash": 850, "deeds": 950, "buildings": 1800}, None),
        ("Anna", 2, 1000 + 950 + 1000, {"cash": 1000, "deeds": 30 + 920, "buildings": 1000}, None),
        ("Carla", 3, 1275, {"cash": 1200, "deeds": 75, "buildings": 0}, None),
    ]


def test_the_state_holds_the_entries_and_the_bank_keeps_the_rest_of_the_supply():
    state = game_state(
        CLASSIC,
        [P("Anna", 10), P("Bruno", 0)],
        [D("via-roma", 1, 4), D("corso-impero", 1, 4), D("largo-augusto", 1, 0, True)],
    )
    assert [(p.id, p.name, p.cash) for p in state.players.values()] == [("p1", "Anna", 10), ("p2", "Bruno", 0)]
    assert set(state.deeds) == {d.key for d in CLASSIC.deeds}
    assert state.deeds["largo-augusto"].owner == "p2" and state.deeds["largo-augusto"].hotel
    assert state.deeds["via-roma"].houses == 4 and state.deeds["vicolo-corto"].owner is None
    assert (state.bank_small, state.bank_big) == (32 - 8, 12 - 1)


def test_championship_tie_broken_by_unmortgaged_deeds_and_the_points():
    players = [P("Anna", 1000), P("Bruno", 1030), P("Carla", 500), P("Dario", 500)]
    deeds = [
        D("via-roma", 0, mortgaged=True),  # 300 mortgaged: 150 -> 1150, unmortgaged 0
        D("vicolo-corto", 1),
        D("vicolo-stretto", 1),
    ]  # 60 + 60 -> 1150, unmortgaged 120
    assert rows(CHAMPIONSHIP, players, deeds) == [
        ("Bruno", 1, 1150, {"cash": 1030, "deeds": 120, "buildings": 0}, 19),
        ("Anna", 2, 1150, {"cash": 1000, "deeds": 150, "buildings": 0}, 10),
        # Nothing separates them: they share third place and its points.
        ("Carla", 3, 500, {"cash": 500, "deeds": 0, "buildings": 0}, 5),
        ("Dario", 3, 500, {"cash": 500, "deeds": 0, "buildings": 0}, 5),
    ]


def test_championship_two_players_left_with_buildings():
    players = [P("Anna", 100), P("Bruno", 2000)]
    deeds = [
        D("vicolo-corto", 0, 0, True),
        D("vicolo-stretto", 0, 4),  # 120 + hotel 5 x 50 + 4 x 50 = 570
        D("stazione-sud", 0, mortgaged=True),
    ]  # 100
    assert rows(CHAMPIONSHIP, players, deeds) == [
        ("Bruno", 1, 2000, {"cash": 2000, "deeds": 0, "buildings": 0}, 25),
        ("Anna", 2, 100 + 220 + 450, {"cash": 100, "deeds": 220, "buildings": 450}, 14),
    ]


def test_entries_in_progress_are_checked_without_a_cash():
    state = game_state(CLASSIC, [P("Anna"), P("Bruno", 5)], [D("vicolo-corto", 0)], cash_required=False)
    assert state.players["p1"].cash == 0
    with pytest.raises(BadInput) as refused:
        game_state(CLASSIC, [P("Anna"), P("Bruno", 5)], [])
    assert refused.value.code == "missing_cash" and refused.value.params["name"] == "Anna"


def test_names_are_trimmed():
    assert clean_names(CLASSIC, ["  Anna  Maria ", "Bruno"]) == ["Anna Maria", "Bruno"]


TWO = [P("Anna", 100), P("Bruno", 100)]
# Motopolis with a dealership sold whole only where its group stays even: groups kept even.
EVEN_MOTOPOLIS = replace(MOTOPOLIS, buildings=replace(MOTOPOLIS.buildings, big_sale="one_by_one_evenly"))
GREEN = [D("via-roma", 0), D("corso-impero", 0), D("largo-augusto", 0)]


def _green(**changes):
    """Anna holds the whole green group; ``changes`` replace fields of Via Roma's entry."""
    return [GREEN[0]._replace(**changes), *GREEN[1:]]


REFUSALS = [
    # players and names
    ("too_many", [P(f"P{i}", 0) for i in range(9)], [], BadInput, "too_many_players", {"max": 8}),
    ("too_few", [P("Anna", 0)], [], BadInput, "too_few_players", {"min": 2}),
    ("empty name", [P("Anna", 0), P("  ", 0)], [], BadInput, "invalid_name", {"n": 2}),
    ("long name", [P("A" * 41, 0), P("B", 0)], [], BadInput, "invalid_name", {"n": 1, "max": 40}),
    ("control", [P("An\x00na", 0), P("B", 0)], [], BadInput, "invalid_name", {"n": 1}),
    ("not text", [P(5, 0), P("B", 0)], [], BadInput, "invalid_name", {"n": 1}),
    ("twice", [P("Anna", 0), P("anna ", 0)], [], BadInput, "duplicate_name", {"name": "anna"}),
    # cash
    ("negative", [P("Anna", -1), P("Bruno", 0)], [], BadInput, "negative_cash", {"name": "Anna"}),
    ("text", [P("Anna", "100"), P("Bruno", 0)], [], BadInput, "invalid_cash", {"name": "Anna"}),
    ("float", [P("Anna", 0), P("Bruno", 10.5)], [], BadInput, "invalid_cash", {"name": "Bruno"}),
    ("bool", [P("Anna", True), P("Bruno", 0)], [], BadInput, "invalid_cash", {"name": "Anna"}),
    ("huge", [P("Anna", 10**12), P("Bruno", 0)], [], BadInput, "cash_too_large", {"name": "Anna"}),
    # deeds as values
    ("unknown deed", TWO, [D("atlantide", 0)], BadInput, "unknown_deed", {"deed": "atlantide"}),
    ("owner not a player", TWO, [D("via-roma", 2)], BadInput, "invalid_owner", {"deed": "Via Roma"}),
    ("owner as text", TWO, [D("via-roma", "0")], BadInput, "invalid_owner", {"deed": "Via Roma"}),
    ("negative buildings", TWO, _green(small=-1), BadInput, "invalid_buildings", {"deed": "Via Roma"}),
    ("big not a yes", TWO, _green(big="yes"), BadInput, "invalid_buildings", {"deed": "Via Roma"}),
    ("mortgage not a yes", TWO, _green(mortgaged=1), BadInput, "invalid_mortgage", {"deed": "Via Roma"}),
    ("entered twice", TWO, [D("via-roma", 0), D("via-roma", 0)], BadInput, "deed_entered_twice", {"deed": "Via Roma"}),
    # impossible by the rules
    (
        "two owners",
        TWO,
        [D("via-roma", 0), D("via-roma", 1)],
        RuleViolation,
        "deed_two_owners",
        {"deed": "Via Roma", "first": "Anna", "second": "Bruno"},
    ),
    ("unowned built", TWO, [D("via-roma", None, 1)], RuleViolation, "unowned_buildings", {"deed": "Via Roma"}),
    (
        "unowned mortgaged",
        TWO,
        [D("via-roma", None, mortgaged=True)],
        RuleViolation,
        "unowned_mortgaged",
        {"deed": "Via Roma"},
    ),
    ("station", TWO, [D("stazione-sud", 0, 1)], RuleViolation, "not_buildable", {"deed": "Stazione Sud"}),
    (
        "utility hotel",
        TWO,
        [D("societa-elettrica", 0, 0, True)],
        RuleViolation,
        "not_buildable",
        {"deed": "Società Elettrica"},
    ),
    ("five houses", TWO, _green(small=5), RuleViolation, "too_many_small", {"deed": "Via Roma", "n": 5, "max": 4}),
    ("hotel and houses", TWO, _green(small=2, big=True), RuleViolation, "big_with_small", {"deed": "Via Roma"}),
    (
        "group not whole",
        TWO,
        [D("via-roma", 0, 1), D("corso-impero", 0), D("largo-augusto", 1)],
        RuleViolation,
        "group_incomplete",
        {"deed": "Via Roma", "name": "Anna"},
    ),
    (
        "group partly with the bank",
        TWO,
        [D("via-roma", 0, 1), D("corso-impero", 0)],
        RuleViolation,
        "group_incomplete",
        {"deed": "Via Roma", "name": "Anna"},
    ),
    (
        "mortgaged and built",
        TWO,
        _green(small=1, mortgaged=True),
        RuleViolation,
        "mortgaged_with_buildings",
        {"deed": "Via Roma"},
    ),
    (
        "built beside a mortgage",
        TWO,
        [D("via-roma", 0, 1), D("corso-impero", 0, mortgaged=True), D("largo-augusto", 0)],
        RuleViolation,
        "group_mortgaged",
        {"deed": "Via Roma", "other": "Corso Impero"},
    ),
    (
        "more houses than the bank",
        TWO,
        [D(d.key, 0 if i < 17 else 1, 4) for i, d in enumerate(CLASSIC.deeds) if d.building_cost] + [],
        RuleViolation,
        "bank_supply_small",
        {"n": 88, "supply": 32},
    ),
    (
        "more hotels than the bank",
        [P("Anna", 0), P("Bruno", 0)],
        [D(d.key, 0, 0, True) for d in CLASSIC.deeds if d.building_cost],
        RuleViolation,
        "bank_supply_big",
        {"n": 22, "supply": 12},
    ),
]


@pytest.mark.parametrize(
    "players, deeds, kind, code, params", [case[1:] for case in REFUSALS], ids=[case[0] for case in REFUSALS]
)
def test_each_impossible_entry_is_refused_naming_it(players, deeds, kind, code, params):
    with pytest.raises(BancoError) as refused:
        game_state(CLASSIC, players, deeds)
    found = refused.value.problems if isinstance(refused.value, WrongEntries) else [refused.value]
    assert len(found) == 1, [p.code for p in found]
    assert isinstance(found[0], kind) and found[0].code == code
    assert {k: found[0].params.get(k) for k in params} == params
    assert found[0].message  # words for people, translated by the pages


def test_the_building_names_come_from_the_edition():
    with pytest.raises(WrongEntries) as refused:
        game_state(CLASSIC, TWO, _green(small=5))
    assert refused.value.params["small"].en == "houses" and refused.value.params["small"].it == "case"


def test_an_edition_without_mortgages_or_big_buildings_refuses_them():
    from dataclasses import replace

    edition = replace(
        CLASSIC,
        mortgage=replace(CLASSIC.mortgage, policy="none"),
        buildings=replace(CLASSIC.buildings, policy="small_only"),
    )
    with pytest.raises(WrongEntries) as refused:
        game_state(edition, TWO, [D("vicolo-corto", 0, mortgaged=True)])
    assert refused.value.code == "no_mortgages"
    with pytest.raises(WrongEntries) as refused:
        game_state(edition, TWO, _green(big=True))
    assert refused.value.code == "no_big_building"


def test_a_hotel_on_each_deed_of_a_group_and_the_supply_to_the_last_house():
    # 8 full groups of 4 houses would need 88; exactly 32 houses and 12 hotels are fine.
    streets = [d for d in CLASSIC.deeds if d.building_cost]
    deeds = [D(d.key, 0, 4) for d in streets[:8]] + [D(d.key, 0, 0, True) for d in streets[8:20]]
    deeds += [D(d.key, 0) for d in streets[20:]]
    state = game_state(CLASSIC, TWO, deeds)
    assert (state.bank_small, state.bank_big) == (0, 0)


def problems(edition, players, deeds) -> list[tuple[str, str | None]]:
    """Every problem the entries have, as ``(code, deed key or player index)``."""
    with pytest.raises(WrongEntries) as refused:
        game_state(edition, players, deeds)
    return [(p.code, p.params.get("key", p.params.get("player"))) for p in refused.value.problems]


def test_uneven_buildings_are_refused():
    # Petropolis, seed 003 line 43: "Le costruzioni debbono avvenire in modo omogeneo"; Motopolis,
    # seed 002 lines 61-62: "al massimo, una sola Stazione di Servizio in più" (2, 2 and 1 of 5).
    green = [d.key for d in PETROPOLIS.deeds_in_group("verde")]
    assert problems(PETROPOLIS, TWO, [D(green[0], 0, 3), D(green[1], 0, 1), D(green[2], 0, 2)]) == [
        ("uneven_buildings", green[0])
    ]
    blue = ["gilera", "moto-morini", "malaguti"]
    state = game_state(MOTOPOLIS, TWO, [D("gilera", 0, 2), D("moto-morini", 0, 2), D("malaguti", 0, 1)])
    assert [state.deeds[k].houses for k in blue] == [2, 2, 1]
    # Where no sale leaves a group uneven (a dealership sold whole only with the group left
    # even); the shipped Motopolis sells one on its own, and reaches 3, 1 and 2 (below).
    assert problems(EVEN_MOTOPOLIS, TWO, [D("gilera", 0, 3), D("moto-morini", 0, 1), D("malaguti", 0, 2)]) == [
        ("uneven_buildings", "gilera")
    ]


def test_a_big_building_needs_its_small_ones_on_every_deed_of_the_group():
    # Motopolis line 66: no dealership unless 3 stations stand on every land of the colour; a
    # dealership beside 3 or 4 stations is a position play reaches.
    fine = [D("gilera", 0, 0, True), D("moto-morini", 0, 3), D("malaguti", 0, 4)]
    assert game_state(MOTOPOLIS, TWO, fine).deeds["gilera"].hotel
    wrong = [D("gilera", 0, 0, True), D("moto-morini", 0, 2), D("malaguti", 0, 3)]
    assert problems(EVEN_MOTOPOLIS, TWO, wrong) == [("big_before_small", "moto-morini")]
    assert problems(CLASSIC, TWO, _green(small=0, big=True)) == [("big_before_small", "corso-impero")]


def test_a_mortgaged_land_is_left_out_of_evenness_where_a_mortgage_reaches_the_land_alone():
    # Motopolis line 73: only the mortgaged land takes no building; its groupmates build.
    deeds = [D("gilera", 0, 2), D("moto-morini", 0, 2), D("malaguti", 0, mortgaged=True)]
    assert game_state(MOTOPOLIS, TWO, deeds).deeds["malaguti"].mortgaged
    deeds = [D("gilera", 0, 0, True), D("moto-morini", 0, 3), deeds[2]]
    assert problems(EVEN_MOTOPOLIS, TWO, deeds) == [("big_before_small", "malaguti")]
    assert problems(
        CLASSIC, TWO, [D("via-roma", 0, 1), D("corso-impero", 0, 1), D("largo-augusto", 0, mortgaged=True)]
    ) == [
        ("group_mortgaged", "via-roma"),
        ("group_mortgaged", "corso-impero"),
    ]


def test_a_colour_split_after_building_is_counted_where_an_unbuilt_land_changes_hands():
    # Motopolis line 70: a land without stations is traded whatever its groupmates hold (and a
    # mortgaged one lost to the bank after three laps, line 73), so Anna's stations may stand
    # beside Bruno's or the bank's unbuilt Malaguti; a built land of another owner may not.
    for owner in (1, None):
        deeds = [D("gilera", 0, 1), D("moto-morini", 0, 1), D("malaguti", owner)]
        assert game_state(MOTOPOLIS, TWO, deeds).deeds["gilera"].houses == 1
    deeds = [D("gilera", 0, 1), D("moto-morini", 0, 1), D("malaguti", 1, 1)]
    assert problems(MOTOPOLIS, TWO, deeds) == [
        ("group_incomplete", "gilera"),
        ("group_incomplete", "moto-morini"),
        ("group_incomplete", "malaguti"),
    ]


def test_every_wrong_entry_is_named_at_once():
    players = [P("Anna", -5), P("Bruno", "lots"), P("Carla", 100)]
    deeds = [
        D("atlantide", 0),
        D("vicolo-corto", 2, 1),  # Carla's, but Vicolo Stretto is the bank's
        D("via-roma", 0, 4),
        D("corso-impero", 0, 1),
        D("largo-augusto", 0, 4),
        D("stazione-sud", 1, 1),
    ]
    assert problems(CLASSIC, players, deeds) == [
        ("negative_cash", 0),
        ("invalid_cash", 1),
        ("unknown_deed", None),
        ("group_incomplete", "vicolo-corto"),
        ("not_buildable", "stazione-sud"),
        ("uneven_buildings", "via-roma"),
    ]


def _entries(state, group):
    """The group's deeds as a player types them: owner (``a`` is the first player), small
    buildings, big building."""
    return [
        D(d.key, 0, state.deeds[d.key].houses, state.deeds[d.key].hotel) for d in state.edition.deeds_in_group(group)
    ]


def test_a_hotel_beside_two_houses_after_a_short_break_is_a_championship_position():
    """Seed 001, FAQ 29, lines 542-545: "Quelle che non possono essere egualmente suddivise non
    vengono vendute in quel turno. I giocatori ricevono la metà del valore originale per le case
    che non hanno potuto ricevere al posto dell'albergo." A hotel broken while the bank has 2
    houses leaves 2 beside the group's other hotels: Banco's own game reaches it, so the
    calculator takes it. The classic rules break a hotel only into 4 houses: there it is refused."""
    assert not kept_even(CHAMPIONSHIP) and kept_even(CLASSIC)
    state = new_state("campionato-2015", cash=0, players=2)
    green = [d.key for d in CHAMPIONSHIP.deeds_in_group("green")]
    give(state, "a", *green, hotel=True)
    set_game(state, bank_small=2)
    act(state, rules.sell_building(state, "a", green[1], break_hotel=True))
    played = _entries(state, "green")
    assert [(e.small, e.big) for e in played] == [(0, True), (2, False), (0, True)]
    counted = game_state(CHAMPIONSHIP, TWO, played)
    assert [counted.deeds[k].houses for k in green] == [0, 2, 0]
    # Then building goes on at the deed with the fewest, and breaking the next hotel with the
    # bank empty leaves it bare: a hotel, a bare deed, 3 houses.
    set_game(state, bank_small=1)
    act(state, rules.build(state, "a", green[1]))  # the bank's last house
    act(state, rules.sell_building(state, "a", green[2], break_hotel=True))
    assert [(e.small, e.big) for e in _entries(state, "green")] == [(0, True), (3, False), (0, False)]
    assert game_state(CHAMPIONSHIP, TWO, _entries(state, "green")).deeds[green[0]].hotel
    assert problems(CLASSIC, TWO, played) == [("big_before_small", green[1])]
    # Still impossible in the championship: houses beside a hotel on one deed, five houses.
    assert problems(CHAMPIONSHIP, TWO, [*played[:2], D(green[2], 0, 1, True)]) == [("big_with_small", green[2])]
    assert problems(CHAMPIONSHIP, TWO, [*played[:2], D(green[2], 0, 5)]) == [("too_many_small", green[2])]


def test_a_dealership_sold_on_its_own_leaves_motopolis_groups_uneven():
    """Seed 002 line 42: "I giocatori, in qualsiasi momento del gioco, possono rivendere le loro
    Stazioni di Servizio o Concessionarie alla Banca" (``big_sale`` ``one_by_one``): a dealership
    sold whole leaves its land bare beside the others' stations, and building starts again from
    the barest (lines 61-62). The positions the calculator refused on Motopolis are played here,
    and taken."""
    assert not kept_even(MOTOPOLIS) and kept_even(EVEN_MOTOPOLIS)
    blue = ["gilera", "moto-morini", "malaguti"]
    state = new_state("motopolis", cash=100_000, players=2)
    give(state, "a", *blue, houses=3)
    for key in ("moto-morini", "malaguti"):
        act(state, rules.build(state, "a", key, "big"))
    for key in ("moto-morini", "malaguti"):
        act(state, rules.sell_building(state, "a", key))
    act(state, rules.build(state, "a", "moto-morini"))
    act(state, rules.build(state, "a", "malaguti"))
    act(state, rules.build(state, "a", "malaguti"))
    assert [state.deeds[k].houses for k in blue] == [3, 1, 2]
    assert game_state(MOTOPOLIS, TWO, _entries(state, "azzurro")).deeds["gilera"].houses == 3
    state = new_state("motopolis", cash=100_000, players=2)
    give(state, "a", *blue, houses=3)
    act(state, rules.build(state, "a", "gilera", "big"))
    act(state, rules.build(state, "a", "moto-morini", "big"))
    act(state, rules.sell_building(state, "a", "moto-morini"))
    act(state, rules.build(state, "a", "moto-morini"))
    act(state, rules.build(state, "a", "moto-morini"))
    assert [(e.small, e.big) for e in _entries(state, "azzurro")] == [(0, True), (2, False), (3, False)]
    assert game_state(MOTOPOLIS, TWO, _entries(state, "azzurro")).deeds["gilera"].hotel


def test_petropolis_groups_stay_even_so_a_bare_title_beside_towers_is_refused():
    """Seed 003 line 45: sales go "in modo omogeneo"; a platform sold whole goes with its
    group's others, so 0/3/3 is no position (a platform and 3/3 is)."""
    assert kept_even(PETROPOLIS)
    green = [d.key for d in PETROPOLIS.deeds_in_group("verde")]
    assert game_state(PETROPOLIS, TWO, [D(green[0], 0, 0, True), D(green[1], 0, 3), D(green[2], 0, 3)])
    assert problems(PETROPOLIS, TWO, [D(green[0], 0), D(green[1], 0, 3), D(green[2], 0, 3)]) == [
        ("uneven_buildings", green[1])
    ]


def test_a_deed_sold_back_to_the_bank_beside_a_hotel_splits_its_group_in_niente():
    """Seed 004: no mortgages, but a deed sold back to the bank at its price once its own hotel
    is sold (``deed_sale``); its groupmates keep theirs, and the deed may be bought again by
    anyone. Played through the rules, the split group is taken; a hotel of another owner in it
    is not."""
    niente = EDITIONS["niente-e-come-sembra"]
    state = new_state("niente-e-come-sembra", cash=5000, players=2)
    brown = [d.key for d in niente.deeds_in_group("marrone")]
    give(state, "a", *brown, hotel=True)
    act(state, rules.sell_building(state, "a", brown[1]))
    act(state, rules.sell_to_bank(state, "a", brown[1]))
    act(state, rules.buy(state, "b", brown[1]))
    played = [D(brown[0], 0, 0, True), D(brown[1], 1)]
    assert (state.deeds[brown[0]].hotel, state.deeds[brown[1]].owner) == (True, "b")
    assert game_state(niente, TWO, played).deeds[brown[0]].hotel
    assert game_state(niente, TWO, [played[0]]).deeds[brown[1]].owner is None
    assert problems(niente, TWO, [played[0], D(brown[1], 1, 0, True)]) == [
        ("group_incomplete", brown[0]),
        ("group_incomplete", brown[1]),
    ]
