"""Italian words that change with the word after them, fitted once the names are known.

A translated sentence says "paga %(amount)s a %(to)s": which "a" it takes depends on ``to``.
Banco's choices, as modern Italian writes them (the Accademia della Crusca's advice):

- the *d eufonica* only before the same vowel: "ad Anna", "ed Elena", but "a Elena",
  "e Anna", "a Ugo";
- a preposition before a name that starts with an article joins it: "alla Banca",
  "al piatto del Parcheggio", "dall'edificio".

Only the words written just before a placeholder are fitted; English and every other language
is left as written. Pure functions: the gettext of the pages (``web.speaking``) and of the
refusals (``services.wording``) call them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from markupsafe import Markup

# "a %(to)s", "A %(name)s", "e %(second)s", "da %(from)s": a preposition or "e" as a whole
# word just before a placeholder.
_BEFORE = re.compile(r"(?<![\w'’])([AaEe]|[Dd][ai]|[Ii]n|[Ss]u) %\((\w+)\)s")

# Preposition + article, as Italian joins them ("in" becomes "ne-").
_JOINED = {
    "a": {"il": "al", "lo": "allo", "la": "alla", "l'": "all'", "i": "ai", "gli": "agli", "le": "alle"},
    "da": {"il": "dal", "lo": "dallo", "la": "dalla", "l'": "dall'", "i": "dai", "gli": "dagli", "le": "dalle"},
    "di": {"il": "del", "lo": "dello", "la": "della", "l'": "dell'", "i": "dei", "gli": "degli", "le": "delle"},
    "in": {"il": "nel", "lo": "nello", "la": "nella", "l'": "nell'", "i": "nei", "gli": "negli", "le": "nelle"},
    "su": {"il": "sul", "lo": "sullo", "la": "sulla", "l'": "sull'", "i": "sui", "gli": "sugli", "le": "sulle"},
}
_ARTICLE = re.compile(r"(il|lo|la|i|gli|le) |(l['’])")
_EUPHONIC = {"a": ("a", "à", "á"), "e": ("e", "è", "é")}


def before(word: str, value: str) -> str:
    """``word`` ("a", "e", "da", "di", "in", "su", capitalised or not) as Italian writes it
    before ``value``, joined to it: "ad Anna", "ed Elena", "alla Banca", "a Bruno". Markup
    (a name in a link) keeps its markup and only takes the *d*; it is never joined."""
    marked = isinstance(value, Markup)
    text = str(Markup(value).striptags()) if marked else str(value)
    lower = word.lower()
    article = None if marked else _ARTICLE.match(text)
    if article and lower in _JOINED:
        said = article.group(1) or "l'"
        joined = _JOINED[lower][said] + ("" if said == "l'" else " ") + text[article.end() :]
    else:
        if lower in _EUPHONIC and text[:1].lower() in _EUPHONIC[lower]:
            lower += "d"
        joined = Markup(f"{lower} ") + value if marked else f"{lower} {text}"
    if word[:1].isupper():
        joined = (Markup if marked else str)(joined[:1].upper()) + joined[1:]
    return joined


def fit(template: str, values: Mapping, lang: str) -> tuple[str, dict]:
    """``template`` and ``values`` with every word before a placeholder fitted to the value
    (``before``), ready for ``template % values``; in any language but Italian, or for a
    template without such a word, both are given back as they are. A placeholder missing
    from ``values`` is left alone (the formatting will refuse it)."""
    if lang != "it" or not values or "%(" not in template:
        return template, dict(values)
    fitted = dict(values)

    def join(match: re.Match) -> str:
        word, name = match.group(1), match.group(2)
        if name not in values or not isinstance(values[name], str):
            return match.group(0)
        key = f"{name}__{word.lower()}"
        fitted[key] = before(word, values[name])
        return f"%({key})s"

    worded = _BEFORE.sub(join, template)
    if isinstance(template, Markup):
        worded = Markup(worded)
    return worded, fitted


def elide(template: str, values: Mapping, lang: str) -> str:
    """``template % values`` with Italian's words fitted to the names (``fit``)."""
    worded, fitted = fit(template, values, lang)
    return worded % fitted
