"""The feed's lines that go by a number say it in each language's own plural: one catalog entry
with both forms (``Np_``), never a singular translated alone."""

from __future__ import annotations

import pytest

from companion.core.actions import LINES
from companion.core.editions.loading import EDITIONS_DIR, load_editions
from companion.web.feed import say

COUNTED = [sentence for line in LINES.values() for sentence in (*line.says, *line.more) if sentence.plural is not None]
CLASSIC = load_editions(EDITIONS_DIR)[0]["classic-it"]


def test_there_are_counted_lines():
    assert len(COUNTED) >= 3


def _said(app, sentence, lang: str) -> dict[int, str]:
    """The sentence for one and for two, in ``lang``, naming Anna."""
    params = {}
    for spec in sentence.words.values():
        how, param = spec.split()
        assert how == "who", spec  # a counted line names players only, so far
        params[param] = "p1"
    with app.test_request_context(headers={"Accept-Language": lang}):
        return {n: say(sentence, {**params, sentence.count: n}, {"p1": "Anna"}, CLASSIC) for n in (1, 2)}


@pytest.mark.parametrize("sentence", COUNTED, ids=lambda s: s.text[:40])
def test_a_counted_line_has_its_number_and_its_plural_in_each_language(app, sentence):
    english, italian = _said(app, sentence, "en"), _said(app, sentence, "it")
    for said in (english, italian):
        assert all(str(n) in text for n, text in said.items()), said
        assert said[1] != said[2].replace("2", "1"), said  # the plural is its own form
    assert italian[1] != english[1] and italian[2] != english[2], italian  # both forms translated
