"""Many rows in one SQL statement: what one change writes, in one round trip.

A change often writes several rows of different tables at once (a withdrawal's row, its audit
entry, its webhook event, the outbox commands that follow it). :func:`write_rows` writes them as
one statement: every row but the last is a data-modifying CTE, the last is the statement itself.
PostgreSQL runs all of them in the statement's snapshot, in its transaction; nothing reads
another's result, so their order does not matter. Rows are tortoise models: a model not yet in
the database is inserted, one already there is updated (every column but its key), and each
counts as saved afterwards.

Values go through each field's own ``to_db_value``, exactly as tortoise's ``save`` sends them.

:func:`build` makes a row as ``Model(**values)`` does, from a plan made once per model (on a hot
path such as POST /transaction, tortoise's constructor looked at every field's default on every
call, asking whether it is a coroutine function). What a statement of :func:`write_rows` names
(the columns of a model) is likewise worked out once per model.

:func:`by_key` reads one row by its primary key (optionally locked) from SQL made once per model
and filter names: what ``Model.filter(pk=..., **filters).first()`` returns, without building the
query each time (the withdrawal pipeline and the command runner do this several times per
withdrawal).
"""

from __future__ import annotations

import copy
import functools
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Literal, Sequence, TypeVar

from tortoise import connections
from tortoise.exceptions import DoesNotExist
from tortoise.fields.base import Field
from tortoise.fields.data import JSONField, UUIDField
from tortoise.models import Model

M = TypeVar("M", bound=Model)

#: How :func:`build` fills a field left out: None, the default itself, a call of it, a deep copy
#: of it, or the field's database default (tortoise's ``Model.__init__``, case by case).
_NONE, _VALUE, _CALL, _COPY, _DB_DEFAULT = range(5)


@dataclass(frozen=True)
class _Plan:
    """What one model's rows need, worked out from its fields once."""

    #: ``(attribute, column, field, none)`` of every column, in tortoise's column order; ``none``:
    #: the field writes None as None (a nullable field whose ``to_db_value`` is one of tortoise's
    #: plain ones), so a None needs no call.
    columns: tuple[tuple[str, str, Field, bool], ...]
    #: The column names of an INSERT, quoted and joined.
    names: str
    #: The keyword arguments :func:`build` takes itself: plain columns (a relation, or anything
    #: else, goes through the model's own constructor).
    plain: frozenset[str]
    #: Keyword arguments that make the primary key a custom one (a generated key given).
    generated_keys: frozenset[str]
    #: Every field to fill when left out: ``(name, how, default, field)``.
    defaults: tuple[tuple[str, int, Any, Field], ...]
    #: Whether :func:`build` may make these rows at all (no coroutine default, no relation to fill).
    buildable: bool


@functools.cache
def _plan(model: type[Model]) -> _Plan:
    """Made on first use: a model's foreign-key columns exist once tortoise is set up."""
    meta = model._meta  # noqa: SLF001
    columns = tuple((name, column, meta.fields_map[name], _writes_none_as_none(meta.fields_map[name]))
                    for name, column in meta.fields_db_projection.items())
    relations = meta.fk_fields | meta.o2o_fields
    defaults = []
    buildable = True
    for name in sorted(meta.fields - meta.fetch_fields):
        field = meta.fields_map[name]
        default = field.default
        if inspect.iscoroutinefunction(default) or name in relations:
            buildable = False
        elif callable(default):
            defaults.append((name, _CALL, default, field))
        elif default is not None:
            how = _VALUE if isinstance(default, (int, float, str, bool, bytes)) else _COPY
            defaults.append((name, how, default, field))
        elif field.has_db_default():
            defaults.append((name, _DB_DEFAULT, None, field))
        else:
            defaults.append((name, _NONE, None, field))
    plain = frozenset(meta.fields_db_projection) - relations
    generated = frozenset(name for name in plain if meta.fields_map[name].pk and meta.fields_map[name].generated)
    return _Plan(columns=columns, names=column_names(model), plain=plain,
                 generated_keys=generated, defaults=tuple(defaults), buildable=buildable)


#: ``to_db_value`` of tortoise's fields that give None back for None on a nullable field (their
#: validators skip None there) and do nothing else with it.
_PLAIN_TO_DB = (Field.to_db_value, UUIDField.to_db_value, JSONField.to_db_value)


def _writes_none_as_none(field: Field) -> bool:
    return bool(field.null) and type(field).to_db_value in _PLAIN_TO_DB


def build(model: type[M], **values: Any) -> M:
    """``model(**values)``, made faster: the same attributes, conversions and defaults as
    tortoise's constructor (a relation given as an object, or a model with a coroutine default,
    goes through that constructor itself)."""
    plan = _plan(model)
    if not plan.buildable or not values.keys() <= plan.plain:
        return model(**values)
    row = model.__new__(model)
    assign = object.__setattr__  # tortoise's __setattr__ only looks after relations and coroutine defaults
    assign(row, "_partial", False)
    assign(row, "_saved_in_db", False)
    assign(row, "_custom_generated_pk", not plan.generated_keys.isdisjoint(values))
    assign(row, "_await_when_save", {})
    fields_map = model._meta.fields_map  # noqa: SLF001
    for name, value in values.items():
        field = fields_map[name]
        if value is None and not field.null:
            raise ValueError(f"{name} is non nullable field, but null was passed")
        assign(row, name, field.to_python_value(value))
    for name, how, default, field in plan.defaults:
        if name in values:
            continue
        if how == _CALL:
            assign(row, name, default())
        elif how == _VALUE:
            assign(row, name, default)
        elif how == _COPY:
            assign(row, name, copy.deepcopy(default))
        elif how == _DB_DEFAULT:
            assign(row, name, field.get_db_default_value())
        else:
            assign(row, name, None)
    return row


@functools.cache
def column_names(model: type[Model]) -> str:
    """Every column of ``model``, quoted and joined, in tortoise's column order: the select list
    whose rows ``model._init_from_db`` takes."""
    return ", ".join(f'"{column}"' for column in model._meta.fields_db_projection.values())  # noqa: SLF001


@functools.lru_cache(maxsize=256)
def _marks(first: int, count: int) -> str:
    """``$first, ..., $(first + count - 1)``."""
    return ", ".join(f"${number}" for number in range(first, first + count))


@functools.lru_cache(maxsize=1024)
def _insert_sql(model: type[Model], first: int) -> str:
    """The INSERT of a row of ``model`` whose parameters start at ``$first``."""
    plan = _plan(model)
    return f'INSERT INTO "{model._meta.db_table}" ({plan.names}) VALUES ({_marks(first, len(plan.columns))})'  # noqa: SLF001


@functools.lru_cache(maxsize=1024)
def _update_sql(model: type[Model], first: int) -> str:
    """The UPDATE of a row of ``model`` whose parameters start at ``$first``: every column but the
    key, in the plan's order, then the key."""
    meta = model._meta  # noqa: SLF001
    columns = [column for _, column, _, _ in _plan(model).columns if column != meta.db_pk_column]
    sets = ", ".join(f'"{column}" = ${number}' for number, column in enumerate(columns, start=first))
    return f'UPDATE "{meta.db_table}" SET {sets} WHERE "{meta.db_pk_column}" = ${first + len(columns)}'


def _statement(model: Model, values: list[Any]) -> str:
    """The INSERT or UPDATE of ``model``, its parameters appended to ``values`` (the statement's
    text is made once per model and first parameter number)."""
    model_type = type(model)
    plan = _plan(model_type)
    first = len(values) + 1
    if not model._saved_in_db:  # noqa: SLF001
        for name, _, field, none in plan.columns:
            value = getattr(model, name)
            values.append(None if none and value is None else field.to_db_value(value, model))
        return _insert_sql(model_type, first)
    key = model._meta.db_pk_column  # noqa: SLF001
    key_value = None
    for name, column, field, none in plan.columns:
        value = getattr(model, name)
        value = None if none and value is None else field.to_db_value(value, model)
        if column == key:
            key_value = value
            continue
        values.append(value)
    values.append(key_value)
    return _update_sql(model_type, first)


async def write_rows(models: Sequence[Model], *, then: Callable[[int], str] | None = None,
                     then_values: Sequence[Any] = ()) -> None:
    """Insert (or update) ``models`` in one SQL statement, in the current transaction.

    ``then``: one more statement of the caller's in it (written after the rows, e.g. an UPDATE of
    many rows from arrays), made from the number of its first parameter; ``then_values`` are
    its parameters."""
    if not models and then is None:
        return
    values: list[Any] = []
    parts = [_statement(model, values) for model in models]
    if then is not None:
        parts.append(then(len(values) + 1))
        values.extend(then_values)
    ctes = [f"w{index} AS ({part})" for index, part in enumerate(parts[:-1])]
    sql = (f"WITH {', '.join(ctes)} " if ctes else "") + parts[-1]
    await connections.get("default").execute_query(sql, values)
    for model in models:
        model._saved_in_db = True  # noqa: SLF001


#: The row locks :func:`by_key` can take, as SQL.
_LOCKS = {None: "", "update": " FOR UPDATE", "no key update": " FOR NO KEY UPDATE"}
Lock = Literal["update", "no key update"] | None


@functools.cache
def _select_by_key(model: type[Model], filters: tuple[str, ...], lock: Lock) -> str:
    meta = model._meta  # noqa: SLF001
    columns = meta.fields_db_projection
    conditions = " AND ".join(f'"{columns[name]}" = ${number}'
                              for number, name in enumerate((meta.pk_attr, *filters), start=1))
    return f'SELECT {column_names(model)} FROM "{meta.db_table}" WHERE {conditions} LIMIT 1{_LOCKS[lock]}'


async def by_key(model: type[M], key: Any, *, lock: Lock = None, **filters: Any) -> M | None:
    """The row of ``model`` whose primary key is ``key`` and whose columns equal ``filters``
    (plain columns, by attribute name; values as the driver takes them), locked ``FOR UPDATE`` /
    ``FOR NO KEY UPDATE`` with ``lock``, in the current transaction; None when there is none."""
    sql = _select_by_key(model, tuple(filters), lock)
    _, found = await connections.get("default").execute_query(sql, [key, *filters.values()])
    return model._init_from_db(**found[0]) if found else None  # noqa: SLF001  (tortoise's own row -> model)


async def get_by_key(model: type[M], key: Any, *, lock: Lock = None, **filters: Any) -> M:
    """:func:`by_key` for a row that must be there: tortoise's ``DoesNotExist`` when it is not
    (what ``Model.get`` raises)."""
    found = await by_key(model, key, lock=lock, **filters)
    if found is None:
        raise DoesNotExist(model)
    return found
