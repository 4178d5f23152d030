"""Containers that refuse to change: the dicts and lists of a ``GameState``.

A game's state is shared (between the requests reading one version, between the actions of one
table) and never changed: the next state is made by ``changes.apply_outcome``. Its mappings and
lists are these, so a rule that writes to what it read fails at once instead of changing a
state others hold. They are a ``dict`` and a ``list`` to every reader: equal to plain ones,
written as JSON as they are, and read at a plain one's speed. Copying one (``dict(x)``,
``list(x)``, ``[*x, y]``, ``{**x}``, a slice) gives a plain one to work on.
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

_T = TypeVar("_T")


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(f"a game's state cannot be changed ({type(self).__name__}): make the next one with an Outcome")


class FrozenDict(dict[Any, Any]):
    """A ``dict`` that refuses every write."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[Any, Any]]]:
        # Copied and pickled as a whole: the default way fills an empty one item by item.
        return type(self), (dict(self),)


class FrozenList(list[Any]):
    """A ``list`` that refuses every write."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type[FrozenList], tuple[list[Any]]]:
        return type(self), (list(self),)


# What ``freeze`` makes anew; anything else (a number, a string, a frozen state object) is kept.
THAWED = frozenset((dict, list, tuple))


def freeze(value: Any) -> Any:
    """``value`` (a JSON value: dicts, lists, scalars; or a state object) with every dict and
    list in it made a ``FrozenDict`` or ``FrozenList``. What is frozen already is kept as it is."""
    kind = type(value)
    if kind is dict:
        # The test inline, not a call per value: a game's board is dozens of them.
        return FrozenDict({k: freeze(v) if type(v) in THAWED else v for k, v in value.items()})
    if kind is list or kind is tuple:
        return FrozenList([freeze(v) if type(v) in THAWED else v for v in value])
    return value


def thaw(value: Any) -> Any:
    """``value`` with every dict and list in it a plain, new one: what a rule changes, or
    stores."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        return [thaw(v) for v in value]
    return value


def build(kind: type[_T], values: dict[str, Any]) -> _T:
    """An instance of the frozen dataclass ``kind`` holding ``values``: every one of its fields,
    each frozen already. Made at once: a frozen dataclass's ``__init__`` sets field after field
    through ``object.__setattr__``, five times a plain one's cost, and loading a game makes
    dozens of them."""
    made: _T = object.__new__(kind)
    made.__dict__.update(values)
    return made
