"""Where a field of an edition file is: the line each value starts on, so that a refusal can
say "line 42: deeds[3].price must be a whole number" to someone holding the file in an editor.

Reads the JSON text once, recording the line of every value by its path
(``("deeds", 3, "price")``); plain Python, no parser but the standard library's.
"""

from __future__ import annotations

import json
import re

_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, index: int) -> int:
    """The index past the white space at ``index``."""
    match = _SPACE.match(text, index)
    assert match is not None  # the pattern matches the empty string too
    return match.end()


_DECODER = json.JSONDecoder()
_FIELD = re.compile(r"^[^:]*: ((?:[A-Za-z_$][\w$]*)(?:\[\d+\]|\.[A-Za-z_$][\w$]*)*)")
_PART = re.compile(r"\[(\d+)\]|\.?([A-Za-z_$][\w$]*)")


def value_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """The line (from 1) of each value of the JSON document ``text``, by its path; ``{}`` when
    the text is not JSON."""
    lines: dict[tuple[str | int, ...], int] = {}

    def line_at(index: int) -> int:
        return text.count("\n", 0, index) + 1

    def value(index: int, path: tuple[str | int, ...]) -> int:
        index = _skip(text, index)
        lines[path] = line_at(index)
        char = text[index : index + 1]
        if char == "{":
            index = _skip(text, index + 1)
            if text[index : index + 1] == "}":
                return index + 1
            while True:
                key, index = json.decoder.scanstring(  # type: ignore[attr-defined]  # json's own string reader, not in typeshed
                    text, _skip(text, index) + 1
                )
                index = _skip(text, index) + 1  # the colon
                index = _skip(text, value(index, path + (key,)))
                if text[index] == "}":
                    return index + 1
                index += 1  # the comma
        if char == "[":
            index = _skip(text, index + 1)
            if text[index : index + 1] == "]":
                return index + 1
            n = 0
            while True:
                index = _skip(text, value(index, path + (n,)))
                n += 1
                if text[index] == "]":
                    return index + 1
                index += 1
        _, end = _DECODER.raw_decode(text, index)
        return end

    try:
        json.loads(text)
        value(0, ())
    except (ValueError, IndexError, RecursionError):
        return {}
    return lines


def problem_line(problem: str, lines: dict[tuple[str | int, ...], int]) -> int | None:
    """The line of the field a problem names (``classic-it: deeds[3].price must be ...``): the
    field's own, else its nearest parent's (a missing field: the object it is missing from)."""
    match = _FIELD.match(problem)
    if match is None:
        return None
    path = tuple(int(index) if index else name for index, name in _PART.findall(match.group(1)))
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return None


def with_lines(problems: list[str], text: str) -> list[str]:
    """Each problem preceded by the line of the field it names, where there is one."""
    lines = value_lines(text)
    out = []
    for problem in problems:
        line = problem_line(problem, lines)
        out.append(f"line {line}: {problem}" if line else problem)
    return out
