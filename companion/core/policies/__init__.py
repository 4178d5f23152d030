"""Rule policies: for each concern of the edition file, the small functions its ``policy``
names, in a registry by name (``POLICIES`` in each module).

A rule asks its concern's module (``policies.mortgage.lift_cost(edition, deed)``), which picks
the edition's policy from the registry; no rule compares a policy's name or the edition's id.
The schema's list of names for each concern is the registry's keys (a test holds them equal).
Policies read the edition and the state and return values or refusals; they never import
the rules, which import them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

F = TypeVar("F")


def pick(registry: Mapping[str, F], name: str, concern: str) -> F:
    """The policy called ``name``; a name the registry lacks is a programming error (the
    schema lets no edition name one), raised at once."""
    try:
        return registry[name]
    except KeyError:
        raise LookupError(f"no {concern} policy named {name!r}") from None
