"""PostgreSQL through tortoise-orm on asyncpg: configuration, start-up and shut-down.

This package does not know the service's tables: the ORM app (its model modules and its
migrations) is described by :class:`OrmApp` and handed in by the process wiring
(``models.ORM_APP``). Processes call :func:`init_database` / :func:`close_database`;
``custody migrate`` calls :func:`apply_migrations`.
"""

from __future__ import annotations

import functools
import gc
import logging
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator, Iterator, cast

import asyncpg
import tortoise.context as tortoise_context
from pypika_tortoise import Query, Table
from tortoise import Tortoise
from tortoise.backends.base.client import TransactionContextPooled
from tortoise.backends.base.config_generator import expand_db_url
from tortoise.connection import get_connection, get_connections
from tortoise.context import TortoiseContext
from tortoise.fields import Field
from tortoise.migrations.executor import MigrationExecutor, MigrationKey, PlanStep
from tortoise.migrations.migration import Migration
from tortoise.migrations.schema_editor.base import BaseSchemaEditor
from tortoise.migrations.schema_generator.state import State
from tortoise.migrations.schema_generator.state_apps import StateApps
from tortoise.models import Model
from tortoise.transactions import in_transaction

# Imported for its effect: tortoise reads model comments faster from here on (before any model).
from core import model_comments  # noqa: F401
from core.database_url import asyncpg_url, direct_url
from core.settings import Settings, get_settings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class OrmApp:
    """The tortoise app of the service: its model modules and its migrations package."""

    model_modules: tuple[str, ...]
    migrations: str
    label: str = "models"


async def keep_session(connection: Any) -> None:
    """asyncpg's pool resets a connection on every release with ``SELECT pg_advisory_unlock_all();
    CLOSE ALL; UNLISTEN *; RESET ALL`` - one more round trip per query outside a transaction (a
    quarter of an authenticated read's time). The service never sets session state, listens or
    takes advisory locks on pooled connections (the scheduler's leader lock has its own
    connection), so nothing needs resetting; asyncpg still rolls back a transaction left open."""


def tortoise_config(database_url: str, app: OrmApp) -> dict[str, Any]:
    """The tortoise configuration of ``app`` on ``database_url``."""
    connection = expand_db_url(asyncpg_url(database_url))
    connection["credentials"]["reset"] = keep_session
    return {
        "connections": {"default": connection},
        "apps": {
            app.label: {
                "models": list(app.model_modules),
                "default_connection": "default",
                "migrations": app.migrations,
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


def _require_url(settings: Settings) -> str:
    if not settings.database_url:
        raise RuntimeError("DATABASE_URL is not set (use `custody dev` for embedded servers)")
    return settings.database_url


@asynccontextmanager
async def migration_lock(settings: Settings, *, exclusive: bool) -> AsyncIterator[None]:
    """Hold the migration lock: a PostgreSQL advisory lock on the service's database.

    Migrations take it exclusively, so two processes that start at once (``custody dev`` and
    ``custody bootstrap``, several web processes of a deploy) never apply the same migration
    twice; every other process takes it shared for a moment before it opens its pool, so it
    never starts on a schema half migrated. Both wait, saying so once in the log.
    """
    connection = await asyncpg.connect(direct_url(_require_url(settings)))
    key = settings.migration_lock_key
    take, try_take, give = (("pg_advisory_lock", "pg_try_advisory_lock", "pg_advisory_unlock") if exclusive else
                            ("pg_advisory_lock_shared", "pg_try_advisory_lock_shared", "pg_advisory_unlock_shared"))
    try:
        if not await connection.fetchval(f"SELECT {try_take}($1)", key):
            logger.info("waiting for another process to finish migrating the database")
            await connection.execute(f"SELECT {take}($1)", key)
        try:
            yield
        finally:
            await connection.execute(f"SELECT {give}($1)", key)
    finally:
        await connection.close()


async def init_database(settings: Settings | None, *, app: OrmApp) -> TortoiseContext:
    """Open the connection pool of this process (one event loop, shared by its tasks), once no
    migration is running."""
    settings = settings or get_settings()
    url = _require_url(settings)
    async with migration_lock(settings, exclusive=False):
        pass
    # Global fallback: listeners, request handlers and actors run in different tasks of one loop.
    return await Tortoise.init(config=tortoise_config(url, app), _enable_global_fallback=True)


async def close_database() -> None:
    await Tortoise.close_connections()
    # Forget the global context so that the process (or a test session) can init again.
    tortoise_context._global_context = None  # noqa: SLF001 - no public reset in tortoise 1.1


#: The garbage collector's thresholds while migrations run (:func:`fewer_collections`): the
#: youngest generation is collected every 20,000 net allocations instead of Python's 700, the
#: older ones as by default.
MIGRATION_GC_THRESHOLDS = (20_000, 10, 10)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with :data:`MIGRATION_GC_THRESHOLDS`, then restore the process's own.

    Migrating an empty database builds tortoise's model states and classes again and again
    (cyclic objects, most of them garbage soon): with Python's default thresholds the cyclic
    collector made 1,664 young, 152 middle and 13 full collections, 1.63 of the 2.44 s of CPU
    that migrating took. Under these thresholds: 59 and 6 and none, 0.30 of 1.08 s, for a peak
    of 213 MB of memory instead of 168 MB (one process, a fresh database; a young threshold of
    10,000 gave 1.35 s and 229 MB, with one full collection). Collection is only deferred, never
    turned off: the garbage is freed all the same, a little later."""
    before = gc.get_threshold()
    gc.set_threshold(*MIGRATION_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


async def apply_migrations(settings: Settings | None, *, app: OrmApp) -> None:
    """Apply every committed migration of ``app`` (what ``custody migrate`` runs), holding the
    migration lock: a second process that migrates at the same time waits, then finds nothing
    left to apply. The collector runs less often meanwhile (:func:`fewer_collections`)."""
    settings = settings or get_settings()
    url = _require_url(settings)
    async with migration_lock(settings, exclusive=True):
        config = tortoise_config(url, app)
        await Tortoise.init(config=config, init_connections=False)
        with fewer_collections():
            await _Executor(get_connection("default"), config["apps"]).migrate()
        await close_database()


class _Executor(MigrationExecutor):
    """tortoise's migration executor (what its ``migrate`` command runs), each migration applied
    by :func:`_apply`."""

    def _migration_plan(self, *args: Any, **kwargs: Any) -> list[PlanStep]:
        plan = super()._migration_plan(*args, **kwargs)
        for step in plan:
            step.migration.apply = functools.partial(_apply, step.migration)  # type: ignore[method-assign]
        return plan

    async def _project_state(self, applied: set[MigrationKey], *, upto: MigrationKey | None = None) -> State:
        """``MigrationExecutor._project_state`` (tortoise 1.1) on :class:`_StateApps`."""
        default_connections = {label: config.get("default_connection", "default")
                               for label, config in self.loader.apps_config.items()}
        state = State(models={}, apps=_StateApps(default_connections=default_connections))
        for key in self._full_plan():
            if key not in applied:
                continue
            if upto and key == upto:
                break
            migration = self.loader.graph.nodes[key]
            if migration is None:
                raise ValueError(f"Missing migration for {key}")
            await migration.apply(state, dry_run=True, schema_editor=None)
        return state


async def _apply(migration: Migration, state: State, *, dry_run: bool = False,
                 schema_editor: BaseSchemaEditor | None = None, collect_sql: bool = False) -> State:
    """``Migration.apply`` (tortoise 1.1), the same operations run on the same states, with the
    state before each operation rendered only if the operation reads it (:class:`_StateBefore`).

    tortoise clones the whole state before every operation, and a clone re-creates every model
    class and its query builders: two thirds of the time of migrating an empty database (tens of
    seconds at about 150 operations), though only AlterField, RemoveField, RunPython and the
    removals read that state going forward. Anything but applying to a database is tortoise's own.
    """
    if dry_run or collect_sql or schema_editor is None:
        return await Migration.apply(migration, state, dry_run=dry_run, schema_editor=schema_editor,
                                     collect_sql=collect_sql)
    supports_transactions = schema_editor.client.capabilities.supports_transactions
    for operation in migration.operations:
        before = _StateBefore(state)
        operation.state_forward(migration.app_label, state)
        await migration._run_database_forward(  # noqa: SLF001 - the step Migration.apply runs
            operation, before, state, schema_editor, supports_transactions)
    state.validate_relations_initialized()
    return state


class _StateApps(StateApps):
    """tortoise's ``StateApps`` that builds a model's query builders again only when its model
    changed since it last built them.

    After every operation tortoise renders again the models the operation touched (and those
    related to them), then ``_build_initial_querysets`` finalises every model of the state: for
    an empty database about 7,000 finalisations (each building the model's filters) for 150
    operations, 40 % of a migration run's time (``custody migrate``: 8.7 s of CPU). A model's
    finalisation reads only its own ``_meta``; the one thing another model's change does to it is
    add or replace a relation field in its ``fields_map`` (a backward relation). So a model is
    finalised again when it is a class not finalised before, or when any of its fields is not
    the very object it was at its last finalisation; the build itself is tortoise's.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # noqa: D107
        super().__init__(*args, **kwargs)
        self._built: dict[type[Model], dict[str, Field]] = {}

    def _build_initial_querysets(self) -> None:
        if self._connections._db_config is None:  # noqa: SLF001 - tortoise's own test (state-only mode)
            return
        current: dict[type[Model], dict[str, Field]] = {}
        for app in self.apps.values():
            for model in app.values():
                meta = model._meta  # noqa: SLF001
                if meta.default_connection is None or not meta._inited:  # noqa: SLF001
                    continue
                fields = dict(meta.fields_map)
                current[model] = fields
                built = self._built.get(model)
                if built is not None and built.keys() == fields.keys() and all(
                        built[name] is field for name, field in fields.items()):
                    continue
                meta.finalise_model()
                meta.basetable = Table(name=meta.db_table, schema=meta.schema)
                basequery = meta.db.query_class.from_(meta.basetable)
                meta.basequery = cast(Query, basequery)
                meta.basequery_all_fields = cast(Query, basequery.select(*meta.db_fields))
        # Models rendered again since are forgotten with their old classes.
        self._built = current


class _StateBefore(State):
    """``state.clone()``: its model states copied now (as ``State.clone`` copies them), its model
    classes (``apps``) rendered from those copies on first use, as ``State.clone`` renders them."""

    def __init__(self, state: State) -> None:  # noqa: D107
        self.models = {key: model.clone() for key, model in state.models.items()}
        self._apps_of = state.apps

    @functools.cached_property
    def apps(self) -> Any:  # type: ignore[override]
        return self._apps_of.clone(model_states=self.models)


class transaction:  # noqa: N801 - used like tortoise's in_transaction(), which it wraps
    """``async with transaction():`` - tortoise's ``in_transaction()`` without its leak when BEGIN fails.

    tortoise (1.1) makes the task's connection the transaction's and takes a pool connection
    *before* it sends BEGIN; when BEGIN fails (a pooled connection PostgreSQL closed a moment
    ago, during a restart; a cancellation) ``__aexit__`` never runs, so the task keeps pointing
    at the dead connection and the pool connection is never given back. Every later transaction
    of that task then becomes a savepoint on the dead connection and fails; every such failure
    costs the process one pool connection for good, until no request or actor gets one. (The
    chaos script, bench/chaos.py, found it: after a PostgreSQL restart a task failed forever.)
    Here a failed start undoes both; inside a transaction it is a savepoint, as before.
    """

    __slots__ = ("_context",)

    def __init__(self) -> None:
        self._context = in_transaction()

    async def __aenter__(self) -> Any:
        try:
            return await self._context.__aenter__()
        except BaseException:
            await _abandon(self._context)
            raise

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> Any:
        return await self._context.__aexit__(exc_type, exc, tb)


async def _abandon(context: Any) -> None:
    """Undo what a pooled transaction context did before its BEGIN failed."""
    if not isinstance(context, TransactionContextPooled):
        return  # a savepoint: nothing was taken
    token = getattr(context, "token", None)
    if token is not None:
        get_connections().reset(token)
    connection = getattr(context.client, "_connection", None)
    if connection is None or getattr(connection, "_con", None) is None:
        return  # never taken, or already back in the pool
    try:
        # Its state is unknown (closed by the server, or cancelled mid-BEGIN): close it, which also
        # gives its place back to the pool (asyncpg opens a fresh connection there when needed).
        connection.terminate()
    except Exception:  # noqa: BLE001 - the connection is gone either way
        logger.warning("database: could not give back a connection whose transaction failed to start",
                       exc_info=True)
