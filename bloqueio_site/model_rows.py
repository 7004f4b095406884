"""Model instances from rows of fixed SQL, as the ORM loads them, without its per-call work.

A RawQuerySet works out afresh on every call which columns the cursor returned, the
model's init order and each column's converters: on the hot reads (a game's row for a
write, a token's user on every API request and socket open) that cost more CPU than
PostgreSQL spent answering (docs/performance.md). Here the columns are named in the SQL,
in the model's field order, so a row maps onto `Model.from_db` directly.
"""

from __future__ import annotations

import functools
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

M = TypeVar("M", bound=Model)


@functools.cache
def database() -> Any:
    """A DatabaseWrapper of the process's own for the default database, never connected:
    what code beside the ORM takes from Django (converters, the time adapter, connection
    parameters, the error mapping) reads only its settings. `connections["default"]` is
    the calling context's, and under ASGI every socket is a context of its own: a lookup
    on the event loop made each socket a wrapper (its operations, features, client... in
    a cycle) for the collector to free (docs/performance.md, "Placed by load")."""
    return connections.create_connection(DEFAULT_DB_ALIAS)


class ModelRows(Generic[M]):
    """Reads `model`'s concrete fields from a row's first `len(self)` values.

    For a model of one table (no multi-table inheritance: its parents' columns would be
    named as this table's); a NULL is passed through as None without its converters, as
    every field of the models read here does."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self.fields = tuple(model._meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        # Worked out once, so a row can be loaded anywhere, the event loop included
        # (bloqueio_site/loop_db.py), without looking up a connection: on PostgreSQL
        # only the fields' own (JSON text to objects); SQLite's backend adds its own,
        # which read nothing of the connection but its settings.
        self._db = DEFAULT_DB_ALIAS
        self._wrapper = database()
        self._converters = [
            (index, converters) for index, field in enumerate(self.fields)
            if (converters := [*self._wrapper.ops.get_db_converters(field.cached_col),
                               *field.get_db_converters(self._wrapper)])]

    def __len__(self) -> int:
        return len(self.fields)

    def columns(self, alias: str) -> str:
        """The SELECT list of the fields, in order, of the table aliased `alias`."""
        quote = connection.ops.quote_name
        return ", ".join(f"{alias}.{quote(f.column)}" for f in self.fields)

    def load(self, row: tuple[Any, ...] | list[Any]) -> M:
        """The instance of `row`'s first values, converted as the ORM converts them (JSON
        text to objects; on SQLite, text to datetimes)."""
        values = list(row[:len(self.fields)])
        for index, converters in self._converters:
            if values[index] is not None:
                for convert in converters:
                    values[index] = convert(values[index], self.fields[index].cached_col,
                                            self._wrapper)
        return self.model.from_db(self._db, self.attnames, values)


def first(rows: ModelRows[M], sql: str, params: list[Any]) -> M | None:
    """The instance of the first row `sql` answers, or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else rows.load(row)
