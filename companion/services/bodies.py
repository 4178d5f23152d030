"""A request's JSON body, read strictly: the one parser of every door (the server's fast path,
the Flask app's routes)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from itertools import accumulate
from typing import Any, NamedTuple

from ..core.errors import N_, BadInput

MAX_JSON_DEPTH = 32  # the deepest request (a trade: body, side, deed list) is 3 levels
# A body is scanned in pieces of this many characters, each piece a few calls into C: between
# two, another thread (a phone's payment) may take Python's lock; one call over a game file of
# 30 MB would hold it for seconds.
_SCAN_STEP = 1 << 18
_BRACKETS_ONLY = {c: None for c in range(128) if chr(c) not in "[]{}"}
_OPENING = {"[": 1, "{": 1, "]": -1, "}": -1}
# A JSON escape that gives a surrogate without its other half: only such text cannot be stored.
_LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
_OUT_OF_JSON = N_("Send valid JSON: numbers within range (no NaN or Infinity) and text in valid Unicode.")


class Shape(NamedTuple):
    """What a JSON text builds, counted without parsing it: its objects and arrays, its values
    (every container and comma: at most one fewer than there are), and how deeply it nests."""

    containers: int
    values: int
    depth: int


def json_shapes(text: str) -> Iterator[Shape]:
    """The running ``Shape`` of ``text``, piece by piece (the last is the whole text's), counted
    without parsing, so without recursing or building anything: brackets and commas inside
    strings do not count. Linear in the length of ``text``; a caller may stop early."""
    containers = values = depth = level = 0
    in_string = False
    start, end = 0, len(text)
    while start < end:
        stop = min(start + _SCAN_STEP, end)
        while stop < end and text[stop - 1] == "\\":  # a run of backslashes stays in one piece
            stop += 1
        # Escaped backslashes, then escaped quotes: what is left of the quotes opens or closes a string.
        pieces = text[start:stop].replace("\\\\", "").replace('\\"', "").split('"')
        outside = "".join(pieces[1 if in_string else 0 :: 2])
        in_string ^= len(pieces) % 2 == 0
        opened = outside.count("[") + outside.count("{")
        containers += opened
        values += opened + outside.count(",")
        brackets = outside.translate(_BRACKETS_ONLY)  # text that is no JSON may leave other characters
        if brackets:
            levels = list(accumulate((_OPENING.get(b, 0) for b in brackets), initial=level))
            depth, level = max(depth, *levels), levels[-1]
        start = stop
        yield Shape(containers, values, depth)


def json_depth(text: str) -> int:
    """How deeply ``text`` nests arrays and objects, counted without parsing (so without
    recursing): brackets inside strings do not count. Linear in the length of ``text``."""
    depth = 0
    for shape in json_shapes(text):
        depth = shape.depth
    return depth


def _finite(number: str) -> float:
    value = float(number)
    if not math.isfinite(value):  # 1e999 reads as infinity
        raise ValueError(number)
    return value


def _not_json(constant: str):
    raise ValueError(constant)  # NaN, Infinity, -Infinity: Python's extension, not JSON


def _object(pairs: list[tuple[str, object]]) -> dict:
    """An object whose keys are each given once: JSON would let the last of two win, silently."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise BadInput("duplicate_key", N_("The field '%(field)s' is given twice."), field=key)
            seen.add(key)
    return data


# Made once: json.loads with these hooks would make a new decoder for every request.
_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_not_json, object_pairs_hook=_object)


def parse_json(raw: bytes) -> dict:
    """The JSON object in ``raw``, a request's body. Refuses (400 ``invalid_json``) a body that
    is not JSON, not an object, nested deeper than ``MAX_JSON_DEPTH`` (checked before parsing,
    which recurses), or holding NaN, an infinite number or text that is not Unicode (a lone
    surrogate such as ``"\\ud800"``, which no database can store); refuses (400
    ``duplicate_key``, naming it) an object that gives a key twice, at any depth."""
    try:
        text = raw.decode(json.detect_encoding(raw))
    except (UnicodeDecodeError, LookupError):
        raise BadInput("invalid_json", _OUT_OF_JSON) from None
    if json_depth(text) > MAX_JSON_DEPTH:
        raise BadInput(
            "invalid_json", N_("Send a JSON object nested at most %(depth)s levels deep."), depth=MAX_JSON_DEPTH
        )
    try:
        data = _DECODER.decode(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadInput("invalid_json", N_("Send a JSON object.")) from None
    except ValueError:  # NaN, Infinity, 1e999, an integer of thousands of digits
        raise BadInput("invalid_json", _OUT_OF_JSON) from None
    # Rare: the whole check copies the body twice; the search for one, over a game file, holds
    # Python's lock for a second, so only where a surrogate's escape is written at all.
    if ("\\ud" in text or "\\uD" in text) and _LONE_SURROGATE.search(text) is not None:
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")  # every string is valid Unicode
        except UnicodeEncodeError:
            raise BadInput("invalid_json", _OUT_OF_JSON) from None
    if not isinstance(data, dict):
        raise BadInput("invalid_json", N_("Send a JSON object."))
    return data


def refuse_unknown(data: dict, schema: Mapping[str, Any], where: str = "") -> None:
    """Refuses (400 ``unknown_field``, naming it, with the path to it: ``finals.semis``) a field
    ``data`` holds that ``schema``, a JSON Schema of an object, does not name where it is closed
    (``"additionalProperties": false``), at any depth its properties are written out inline.
    A part the schema leaves open, or refers to (``$ref``), is its own reader's to refuse."""
    properties = schema.get("properties", {})
    for name, value in data.items():
        inner = properties.get(name)
        if inner is None:
            if schema.get("additionalProperties", True) is False:
                # A name of any length is told by its start, as an unknown setting is.
                raise BadInput("unknown_field", N_("This request has no field %(field)s."), field=where + name[:40])
            continue
        if isinstance(value, dict) and "properties" in inner:
            refuse_unknown(value, inner, f"{where}{name}.")


def read_declared(raw: bytes, schema: Mapping[str, Any]) -> dict:
    """The JSON object in ``raw`` as ``schema`` declares it: refuses what ``parse_json`` refuses,
    and a field the schema does not know (``refuse_unknown``). Only the fields are read here:
    their values are the endpoint's to check, with its own words."""
    data = parse_json(raw)
    refuse_unknown(data, schema)
    return data
