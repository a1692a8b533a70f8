"""Migrations are safe when processes start at once: one migrates, the others wait for it. And
the service's migration runner makes the schema tortoise's own makes."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from core import db
from tests.support.environment import ROOT, SUITE_DATABASE, TEST_DATABASE, WORKER


def _database_url(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


@asynccontextmanager
async def _fresh_database(settings, suffix: str) -> AsyncIterator[str]:
    """A fresh, empty database of this test run on the test server (its URL), dropped afterwards."""
    name = f"{TEST_DATABASE}_{suffix}"
    admin = await asyncpg.connect(settings.database_url)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    try:
        yield _database_url(settings.database_url, name)
    finally:
        admin = await asyncpg.connect(settings.database_url)
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()


async def test_processes_that_migrate_at_once_all_succeed(settings):
    # Given a fresh, empty database
    async with _fresh_database(settings, "concurrent") as url:
        env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": settings.redis_url,
               "CUSTODY_DATA_DIR": str(settings.data_dir)}
        # When two processes migrate it at the same moment (`custody dev` beside `custody bootstrap`...)
        processes = [await asyncio.create_subprocess_exec(sys.executable, "-m", "custody.cli", "migrate", env=env,
                                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                     for _ in range(2)]
        results = [(await p.wait(), (await p.stderr.read()).decode()) for p in processes]  # type: ignore[union-attr]
        # Then every one of them succeeds, and the schema is whole
        assert [code for code, _ in results] == [0, 0], "\n".join(err[-2000:] for _, err in results)
        check = await asyncpg.connect(env["DATABASE_URL"])
        try:
            assert await check.fetchval("SELECT to_regclass('ownership_transfers') IS NOT NULL")
        finally:
            await check.close()


async def test_opening_the_database_waits_for_a_running_migration(settings):
    opened = asyncio.Event()

    async def open_like_a_process() -> None:
        async with db.migration_lock(settings, exclusive=False):
            opened.set()

    # Given a migration in progress (the exclusive lock held)
    async with db.migration_lock(settings, exclusive=True):
        # When another process opens the database
        waiting = asyncio.create_task(open_like_a_process())
        await asyncio.sleep(0.3)
        # Then it waits
        assert not opened.is_set()
    # And goes on as soon as the migration is done
    await asyncio.wait_for(waiting, 5)
    assert opened.is_set()


async def test_the_migration_lock_works_on_a_url_that_sizes_the_pool(settings):
    # Given a DATABASE_URL carrying tortoise's pool parameters (which PostgreSQL does not know)
    joiner = "&" if "?" in settings.database_url else "?"  # the embedded server's URL has ?host=<socket dir>
    sized = settings.model_copy(update={"database_url": f"{settings.database_url}{joiner}minsize=1&maxsize=20"})
    # When a process takes the migration lock on it
    async with db.migration_lock(sized, exclusive=False):
        # Then its direct connection was accepted (asyncpg would send them as server settings)
        held = True
    assert held
    # And the direct URL keeps the other parameters
    assert db.direct_url("postgres://u@h/x?sslmode=disable&maxsize=20") == "postgresql://u@h/x?sslmode=disable"


#: What a schema is made of, in the catalog: every column, constraint, index, trigger, function,
#: sequence and view of the public schema, and the rows the migrations themselves insert.
_SCHEMA_QUERIES = (
    "SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length,"
    " numeric_precision, numeric_scale FROM information_schema.columns WHERE table_schema = 'public'",
    "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
    " WHERE connamespace = 'public'::regnamespace",
    "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    "SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal",
    "SELECT proname, pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = 'public'::regnamespace",
    "SELECT sequencename, data_type, increment_by FROM pg_sequences WHERE schemaname = 'public'",
    "SELECT viewname, definition FROM pg_views WHERE schemaname = 'public'",
    "SELECT name FROM tortoise_migrations",
)


async def _schema(url: str) -> list[list[tuple]]:
    connection = await asyncpg.connect(url)
    try:
        return [sorted(tuple(row) for row in await connection.fetch(query)) for query in _SCHEMA_QUERIES]
    finally:
        await connection.close()


async def test_the_migrations_make_the_schema_tortoises_own_runner_makes(settings):
    # Given a fresh, empty database migrated by tortoise's own `migrate` (which db.apply_migrations,
    # and so the suite's database, replaces by an executor that renders each operation's state
    # before only when the operation reads it)
    async with _fresh_database(settings, "tortoise") as url:
        # (in a process of its own: tortoise's migrate opens and leaves tortoise's global connections)
        tortoise = ("import asyncio, sys; from tortoise.migrations.api.migrate import migrate; from core import db; "
                    "from models import ORM_APP; asyncio.run(migrate(config=db.tortoise_config(sys.argv[1], ORM_APP)))")
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", tortoise, url, cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        output, _ = await process.communicate()
        assert process.returncode == 0, output.decode()[-2000:]
        # Then the suite's database (migrated once per run by db.apply_migrations; with workers, the
        # template every worker's copy came from) has the very same schema
        ours = _database_url(settings.database_url, SUITE_DATABASE if WORKER else TEST_DATABASE)
        theirs = await _schema(url)
        assert theirs[0] and theirs[1] and theirs[2]
        assert await _schema(ours) == theirs
