"""Many rows in one SQL statement: what one change writes, in one round trip.

A change often writes several rows of different tables at once (a withdrawal's row, its audit
entry, its webhook event, the outbox commands that follow it). :func:`write_rows` writes them as
one statement: every row but the last is a data-modifying CTE, the last is the statement itself.
PostgreSQL runs all of them in the statement's snapshot, in its transaction; nothing reads
another's result, so their order does not matter. Rows are tortoise models: a model not yet in
the database is inserted, one already there is updated (every column but its key), and each
counts as saved afterwards.

Values go through each field's own ``to_db_value``, exactly as tortoise's ``save`` sends them.
"""

from __future__ import annotations

from typing import Any, Sequence

from tortoise import connections
from tortoise.models import Model


def _columns(model: Model) -> list[tuple[str, Any]]:
    meta = model._meta  # noqa: SLF001
    out = []
    for name, column in meta.fields_db_projection.items():
        field = meta.fields_map[name]
        out.append((column, field.to_db_value(getattr(model, name), model)))
    return out


def _statement(model: Model, values: list[Any]) -> str:
    """The INSERT or UPDATE of ``model``, its parameters appended to ``values``."""
    meta = model._meta  # noqa: SLF001
    table, key = meta.db_table, meta.db_pk_column
    columns = _columns(model)
    if not model._saved_in_db:  # noqa: SLF001
        names, marks = [], []
        for column, value in columns:
            values.append(value)
            names.append(f'"{column}"')
            marks.append(f"${len(values)}")
        return f'INSERT INTO "{table}" ({", ".join(names)}) VALUES ({", ".join(marks)})'
    sets = []
    key_value = None
    for column, value in columns:
        if column == key:
            key_value = value
            continue
        values.append(value)
        sets.append(f'"{column}" = ${len(values)}')
    values.append(key_value)
    return f'UPDATE "{table}" SET {", ".join(sets)} WHERE "{key}" = ${len(values)}'


async def write_rows(models: Sequence[Model]) -> None:
    """Insert (or update) ``models`` in one SQL statement, in the current transaction."""
    if not models:
        return
    values: list[Any] = []
    parts = [_statement(model, values) for model in models]
    ctes = [f"w{index} AS ({part})" for index, part in enumerate(parts[:-1])]
    sql = (f"WITH {', '.join(ctes)} " if ctes else "") + parts[-1]
    await connections.get("default").execute_query(sql, values)
    for model in models:
        model._saved_in_db = True  # noqa: SLF001
