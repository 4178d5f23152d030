"""CSV for spreadsheets, the one way every CSV export writes (``csv_text``).

A spreadsheet reads a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab
or a carriage return before one) as a formula, and runs it: a player named
``=HYPERLINK(...)`` would be a link on the host's computer. Such text is written with a
single quote before it, as OWASP advises (the CSV Injection page), so it shows as the text it
is. Numbers are written as numbers: a negative one is a number, not a formula, and stays one
for the spreadsheet's sums.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """``value`` as a CSV cell: a number (``int`` or ``float``, not ``bool``) as it is; any other
    value as its text, with a single quote before it when it begins as a formula would."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """The CSV of ``rows``, each cell through ``cell``."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()
