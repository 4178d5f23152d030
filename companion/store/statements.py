"""The hot statements of an action, run on the database driver's own cursor.

An action writes a handful of rows (the entry, its postings, the game's row, each player it
touched, its request key) and locks its game's row first. Through SQLAlchemy's ``execute``
each of those statements pays for an execution context, its parameters processed and a result
set up, several times what the driver's own ``execute`` costs; at a busy table these statements
are a large part of the server's work (``docs/benchmarks.md``, the hot statements).

A ``Prepared`` statement is a SQLAlchemy Core statement compiled by SQLAlchemy, once per
dialect and per set of parameter names, with the type processors SQLAlchemy itself would apply
(JSON to text, datetimes on SQLite, the driver's JSON wrapper on PostgreSQL). It runs on the
DBAPI connection beneath the session's connection: the same transaction, the same lock. Errors
are raised as SQLAlchemy raises them (``sqlalchemy.exc.IntegrityError`` for a unique key, ...),
a connection the dialect reads as lost is invalidated as SQLAlchemy would, and the engine's
``before_cursor_execute`` listeners still hear every statement.

It fills in no column defaults: every INSERT names all its columns but the generated key.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import Executable

from ..core.frozen import freeze


class _Form:
    """A statement compiled for one dialect and one set of parameter names."""

    __slots__ = (
        "columns",
        "dialect",
        "memo",
        "memo_size",
        "named",
        "names",
        "processors",
        "results",
        "returns_key",
        "sql",
    )

    def __init__(self, statement, dialect, keys: frozenset[str], many: bool, key_column=None, memo: int = 0) -> None:
        # The generated key of an INSERT as SQLAlchemy finds it: the driver's lastrowid where
        # the dialect reads it so (SQLite), else the INSERT returns it (PostgreSQL).
        self.returns_key = key_column is not None and not dialect.postfetch_lastrowid
        if self.returns_key:
            statement = statement.returning(key_column)
        # for_executemany: no RETURNING of each row's key, which nobody reads.
        compiled = statement.compile(dialect=dialect, column_keys=sorted(keys), for_executemany=many)
        self.sql = compiled.string
        self.named = not compiled.positional
        order = list(compiled.positiontup) if compiled.positional else list(compiled.binds)
        missing = [name for name in order if name not in keys]
        if missing:
            # A column default or a parameter left out: SQLAlchemy would have filled it in.
            raise ValueError(f"{statement!r} needs parameters {missing} it was not given")
        escaped = getattr(compiled, "escaped_bind_names", None) or {}
        self.names = [(name, escaped.get(name, name)) for name in order]
        self.processors = [compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in order]
        self.dialect = dialect
        self.columns: Any = getattr(statement, "selected_columns", None)  # a SELECT's, read by ``row``
        # their processors, once the driver has said what it sends
        self.results: list[Callable[[Any], Any] | None] | None = None
        # a row as the driver sent it: the row processed
        self.memo: dict[Any, tuple[Any, ...]] | None = {} if memo else None
        self.memo_size = memo

    def parameters(self, params: dict[str, Any]):
        """``params`` as the driver takes them: processed, in the order of the placeholders
        (SQLite's ``?``) or by their names (PostgreSQL's ``%(name)s``)."""
        values = [
            params[name] if process is None else process(params[name])
            for (name, _), process in zip(self.names, self.processors)
        ]
        if self.named:
            return {escaped: value for (_, escaped), value in zip(self.names, values)}
        return values

    def row(self, cursor) -> tuple | None:
        raw = cursor.fetchone()
        return None if raw is None else self._processed(raw, cursor)

    def rows(self, cursor) -> list[tuple]:
        return [self._processed(raw, cursor) for raw in cursor.fetchall()]

    def _processed(self, raw, cursor) -> tuple:
        memo = self.memo
        if memo is not None:
            try:
                return memo[raw]
            except KeyError:
                pass
            except TypeError:  # the driver decodes JSON itself (psycopg): its rows cannot be keys
                self.memo = memo = None
        results = self.results
        if results is None:
            # A processor may depend on the type the driver reports (PostgreSQL's numbers).
            self.results = results = [
                column.type.dialect_impl(self.dialect).result_processor(self.dialect, described[1])
                for column, described in zip(self.columns, cursor.description)
            ]
        row = tuple(value if process is None else process(value) for value, process in zip(raw, results))
        if memo is not None:
            # Shared with every later reader of the same row, in any thread: frozen, so none of
            # them can change what the others read (its JSON above all).
            row = tuple(freeze(value) for value in row)
            if len(memo) >= self.memo_size:
                memo.clear()
            memo[raw] = row
        return row


class Prepared:
    """A Core statement (``select``, ``insert``, ``update``) run on the DBAPI cursor of a
    SQLAlchemy ``Connection`` already in its transaction. Refuses (``ValueError``) parameters
    that leave out one the statement names."""

    def __init__(self, statement: Executable, key_column=None, memo: int = 0) -> None:
        self.statement = statement
        self.key_column = key_column  # an INSERT's generated key, which ``insert`` answers
        # A SELECT whose rows are read again and again unchanged (a game's, at every page's
        # request) keeps the last ``memo`` rows it processed, by the driver's row: the same
        # row is not decoded twice (its JSON above all). The values are then shared between
        # readers, and frozen (``core.frozen``): a reader that writes to one fails. Where the
        # driver hands out rows that cannot be keys (psycopg decodes JSON itself), nothing is
        # kept.
        self.memo = memo
        self._forms: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _form(self, connection: Connection, keys: Iterable[str], many: bool = False) -> _Form:
        dialect = connection.dialect
        forms = self._forms.get(dialect)
        if forms is None:
            forms = self._forms[dialect] = {}
        shape = (frozenset(keys), many)
        form = forms.get(shape)
        if form is None:
            form = forms[shape] = _Form(self.statement, dialect, shape[0], many, self.key_column, self.memo)
        return form

    def execute(self, connection: Connection, params: dict[str, Any]) -> None:
        """Runs the statement once with ``params``."""
        self._once(connection, params, lambda form, cursor: None)

    def insert(self, connection: Connection, params: dict[str, Any]) -> int:
        """Runs the INSERT (built with its ``key_column``) once; answers the key it generated."""
        return self._once(
            connection, params, lambda form, cursor: cursor.fetchone()[0] if form.returns_key else cursor.lastrowid
        )

    def first(self, connection: Connection, params: dict[str, Any]) -> tuple | None:
        """The first row the statement (a SELECT) gives, processed as SQLAlchemy would (JSON
        read, datetimes parsed); ``None`` when there is none."""
        return self._once(connection, params, lambda form, cursor: form.row(cursor))

    def all(self, connection: Connection, params: dict[str, Any]) -> list[tuple]:
        """Every row the statement (a SELECT) gives, processed as ``first`` processes one."""
        return self._once(connection, params, lambda form, cursor: form.rows(cursor))

    def _once(self, connection: Connection, params: dict[str, Any], read):
        """Runs the statement once with ``params``; answers what ``read(form, cursor)`` takes
        from its cursor, which is closed after."""
        form = self._form(connection, params)
        cursor = _run(connection, form, form.parameters(params), False)
        try:
            return read(form, cursor)
        finally:
            cursor.close()

    def execute_many(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        """Runs the statement once for each of ``rows``, which all name the same parameters."""
        form = self._form(connection, rows[0], many=True)
        _run(connection, form, [form.parameters(row) for row in rows], True).close()


def _run(connection: Connection, form: _Form, parameters, many: bool):
    dbapi_connection = connection.connection.dbapi_connection
    assert dbapi_connection is not None  # the session's connection is open while it runs statements
    cursor = dbapi_connection.cursor()
    for listener in connection.dispatch.before_cursor_execute:
        listener(connection, cursor, form.sql, parameters, None, many)
    dialect = connection.dialect
    try:
        if many:
            cursor.executemany(form.sql, parameters)
        else:
            cursor.execute(form.sql, parameters)
    except dialect.loaded_dbapi.Error as error:
        lost = dialect.is_disconnect(error, dbapi_connection, cursor)
        cursor.close()
        if lost:
            # As SQLAlchemy's own execute does: the pool drops this connection, and the
            # session's rollback starts afresh on a new one.
            connection.invalidate(error)
        raise DBAPIError.instance(
            form.sql,
            parameters,
            error,
            dialect.loaded_dbapi.Error,
            dialect=dialect,
            ismulti=many,
            connection_invalidated=lost,
        ) from error
    return cursor
