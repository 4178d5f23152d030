"""The host's new-game form, as a host sees it on a phone."""

from __future__ import annotations

from playwright.sync_api import expect


def test_the_form_shows_only_the_chosen_games_choices(live_server, phone):
    """Each edition's own choices (its box's buildings, its special dice, its player limit)
    show only while that edition is picked: a host opening the classic board does not scroll
    past Petropolis's towers."""
    host = phone("en-GB")
    host.goto(live_server.url + "/")
    classic_only = host.locator("[data-edition-only]:visible")
    expect(host.locator("#edition")).to_have_value("classic-it")
    for choice in classic_only.all():
        assert choice.get_attribute("data-edition-only") == "classic-it"
    expect(host.locator("details[data-edition-only=petropolis]")).to_be_hidden()
    expect(host.locator("details[data-edition-only=che-impresa]").first).to_be_hidden()

    host.select_option("#edition", value="che-impresa")
    dice = host.locator("details[data-edition-only=che-impresa]", has_text="special dice")
    expect(dice).to_be_visible()
    expect(host.locator("details[data-edition-only=classic-it]")).to_be_hidden()
    shown = {c.get_attribute("data-edition-only") for c in host.locator("[data-edition-only]:visible").all()}
    assert shown == {"che-impresa"}
    assert host.errors == []


def test_new_game_comes_before_the_tools(live_server, phone):
    """The two things almost everyone comes for, joining and opening a table, come first."""
    host = phone("en-GB")
    host.goto(live_server.url + "/")
    headings = host.locator("main h2").all_inner_texts()
    assert headings.index("New game") == 1  # right after "Join a game" (no games on this phone yet)
    assert headings.index("New game") < headings.index("Editions as files")
