"""No word broken inside itself on any page at phone size (390×844), in Italian and English:
a word too long for its line goes whole to the next line, and a box too narrow for a word is
a box to fix ("Risparmio d'inchiostro" was cut inside "inchiostro" on the print page). An
address (a URL) may break anywhere: it has no other place to."""

from __future__ import annotations

import os

import pytest

from tests.e2e.test_table import started

# Each word (between spaces, hyphens, slashes) of the page's visible text drawn on more than one line.
BROKEN = r"""() => {
  const out = [], range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, parent = node.parentElement;
    if (!parent || !node.textContent.trim() || !parent.getClientRects().length) continue;
    if (parent.closest('.sr-only, script, style, svg, .url, [data-url]')) continue;
    const words = /[^\s\u00a0\u202f\-\u2010\u2013\u2014\/]{2,}/g;
    let m;
    while ((m = words.exec(node.textContent))) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) out.push(`${m[0]} (${parent.tagName.toLowerCase()}.${parent.className})`);
    }
  }
  return out;
}"""


def _pages(live_server, phone, locale):
    """A started classic game: (phone page, path) for the host's and a player's pages."""
    host, (anna, _bruno) = started(live_server, phone, ("Annamaria", "Bartolomeo"), locale=locale, host_locale=locale)
    game = anna.url.split("/g/")[1].split("/")[0]
    for path in ("/", "/print", "/calculator", "/t", "/editions/edit", f"/g/{game}/table", f"/g/{game}/print"):
        yield host, path
    for path in (f"/g/{game}/me", f"/g/{game}/deeds", f"/g/{game}/deeds/vicolo-corto", f"/g/{game}/trade"):
        yield anna, path


@pytest.mark.parametrize("locale", ["it-IT", "en-GB"])
def test_no_word_is_broken_inside_itself_at_phone_size(live_server, phone, locale):
    shots = os.environ.get("BANCO_SHOTS")
    broken = []
    for page, path in _pages(live_server, phone, locale):
        page.goto(live_server.url + path)
        page.wait_for_load_state("load")
        found = page.evaluate(BROKEN)
        if found and shots:
            name = path.strip("/").replace("/", "-") or "home"
            page.screenshot(path=f"{shots}/broken-{name}-{locale}.png", full_page=True)
        broken += [f"{path}: {word}" for word in found]
    assert broken == []


def test_the_print_options_keep_their_words_whole_on_the_narrowest_screen(live_server, phone):
    """An option goes under the other rather than cut "d'inchiostro" (it was, on narrow screens)."""
    page = phone("it-IT")
    page.set_viewport_size({"width": 180, "height": 844})
    page.goto(live_server.url + "/print")
    assert page.evaluate(BROKEN) == []
    assert "inchiostro" in page.locator(".print-choices").last.inner_text()
