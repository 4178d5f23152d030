"""Italian's words fitted to the names after them: "ad Anna", "ed Elena", "alla Banca"."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from companion.services.elision import before, elide, fit


@pytest.mark.parametrize(
    ("word", "value", "said"),
    [
        ("a", "Anna", "ad Anna"),
        ("a", "Àlvaro", "ad Àlvaro"),
        ("a", "Bruno", "a Bruno"),
        ("a", "Elena", "a Elena"),  # the d only before the same vowel
        ("e", "Elena", "ed Elena"),
        ("e", "Anna", "e Anna"),
        ("A", "Anna", "Ad Anna"),
        ("a", "la Banca", "alla Banca"),
        ("A", "la Banca", "Alla Banca"),
        ("a", "il piatto del Parcheggio Gratuito", "al piatto del Parcheggio Gratuito"),
        ("di", "l'edificio", "dell'edificio"),
        ("da", "la Banca", "dalla Banca"),
        ("e", "la Banca", "e la Banca"),  # "e" joins no article
        ("a", "La Rosa", "a La Rosa"),  # a capital is a name, not an article
    ],
)
def test_the_word_before_a_name(word, value, said):
    assert before(word, value) == said


def test_markup_keeps_its_markup_and_takes_only_the_d():
    assert before("a", Markup("<b>Anna</b>")) == Markup("ad <b>Anna</b>")
    assert isinstance(before("A", Markup("<b>la Banca</b>")), Markup)


def test_a_sentence_in_italian_is_fitted_to_its_names():
    line = "%(payer)s paga %(amount)s a %(to)s."
    assert elide(line, {"payer": "Bruno", "amount": "€ 2", "to": "Anna"}, "it") == "Bruno paga € 2 ad Anna."
    assert elide(line, {"payer": "Anna", "amount": "€ 2", "to": "Bruno"}, "it") == "Anna paga € 2 a Bruno."
    assert elide(line, {"payer": "Anna", "amount": "€ 2", "to": "la Banca"}, "it") == "Anna paga € 2 alla Banca."
    both = "%(first)s e %(second)s hanno lo stesso totale."
    assert elide(both, {"first": "Anna", "second": "Elena"}, "it") == "Anna ed Elena hanno lo stesso totale."


def test_only_a_whole_word_just_before_a_placeholder_changes():
    # "paga" ends in a, "Banca e" is not before a placeholder; numbers are left as they are.
    text = "Paga %(to)s e poi %(amount)s a %(n)s."
    assert elide(text, {"to": "Anna", "amount": "€ 5", "n": 8}, "it") == "Paga Anna e poi € 5 a 8."


def test_english_and_missing_values_are_left_as_written():
    assert elide("%(payer)s pays %(to)s.", {"payer": "Bruno", "to": "Anna"}, "en") == "Bruno pays Anna."
    assert fit("a %(to)s", {}, "it")[0] == "a %(to)s"
    with pytest.raises(KeyError):
        elide("a %(to)s e %(x)s", {"x": "y"}, "it")


def test_markup_templates_escape_the_fitted_values():
    worded = elide(Markup("%(payer)s paga a %(to)s."), {"payer": "<i>", "to": "Anna"}, "it")
    assert worded == Markup("&lt;i&gt; paga ad Anna.")
