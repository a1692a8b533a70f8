"""Migrations are safe when processes start at once: one migrates, the others wait for it. And
the service's migration runner makes the schema tortoise's own makes."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from core import db
from models import ORM_APP
from tests.support.environment import ROOT, SUITE_DATABASE, TEST_CACHE_DIR, TEST_DATABASE, WORKER


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
        # (migrating needs no Redis: REDIS_URL unset, as where only the database is reachable yet)
        env = {**{k: v for k, v in os.environ.items() if k != "REDIS_URL"}, "DATABASE_URL": url,
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


def test_fewer_collections_defers_the_collector_and_gives_the_process_its_thresholds_back():
    # Given a process with thresholds of its own
    own = (900, 11, 12)
    saved = gc.get_threshold()
    gc.set_threshold(*own)
    try:
        # When a block runs under fewer_collections and raises
        seen = []
        try:
            with db.fewer_collections():
                seen.append(gc.get_threshold())
                raise RuntimeError("a migration failed")
        except RuntimeError:
            pass
        # Then the collector was on, with the migration thresholds, while it ran
        assert seen == [db.MIGRATION_GC_THRESHOLDS] and gc.isenabled()
        assert db.MIGRATION_GC_THRESHOLDS[0] > own[0]
        # And the process's own thresholds are back
        assert gc.get_threshold() == own
    finally:
        gc.set_threshold(*saved)


async def test_the_migration_executor_runs_under_fewer_collections(settings, database, monkeypatch):
    # Given the executor replaced by one that notes the thresholds it runs under (and tortoise's
    # set-up and tear-down left out: this process's own connections stay as they are)
    seen = []

    async def note(self) -> None:
        seen.append(gc.get_threshold())

    async def nothing(*args, **kwargs) -> None:
        return None

    monkeypatch.setattr(db._Executor, "migrate", note)
    monkeypatch.setattr(db.Tortoise, "init", nothing)
    monkeypatch.setattr(db, "close_database", nothing)
    before = gc.get_threshold()
    # When the migrations are applied
    await db.apply_migrations(settings, app=ORM_APP)
    # Then the executor ran under the migration thresholds, and the process's are back after
    assert seen == [db.MIGRATION_GC_THRESHOLDS]
    assert gc.get_threshold() == before


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


#: The schema tortoise's own runner made, with the key it was made for.
_TORTOISE_SCHEMA_CACHE = TEST_CACHE_DIR / "tortoise-runner-schema.json"


def _read_cache(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _write_cache(path: Path, value: dict[str, Any]) -> None:
    """Write ``value`` whole or not at all (another worker may read it meanwhile)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}")
    partial.write_text(json.dumps(value))
    partial.replace(path)


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


def _tortoise_schema_key(server_version: str, *, root: Path = ROOT) -> str:
    """What tortoise's runner makes of the migrations depends on: the migration and model files,
    the configuration that names them, tortoise's version, the server's and the catalog queries."""
    digest = hashlib.sha256()
    for path in sorted([*root.glob("models/**/*.py"), root / "core" / "outbox.py", root / "core" / "db.py"]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for part in (importlib.metadata.version("tortoise-orm"), server_version, repr(_SCHEMA_QUERIES)):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


async def _tortoise_schema(settings) -> list[list[list]]:
    """The schema tortoise's own ``migrate`` makes of an empty database."""
    async with _fresh_database(settings, "tortoise") as url:
        # (in a process of its own: tortoise's migrate opens and leaves tortoise's global connections)
        # (under the collector thresholds db.apply_migrations runs with: they change its speed, 6.7 s
        # of CPU instead of 10.6 s here, never what it makes)
        tortoise = ("import asyncio, sys; from tortoise.migrations.api.migrate import migrate; from core import db; "
                    "from models import ORM_APP; config = db.tortoise_config(sys.argv[1], ORM_APP)\n"
                    "with db.fewer_collections(): asyncio.run(migrate(config=config))")
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", tortoise, url, cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        output, _ = await process.communicate()
        assert process.returncode == 0, output.decode()[-2000:]
        return _as_json(await _schema(url))


def _as_json(schema: list[list[tuple]]) -> list[list[list]]:
    return json.loads(json.dumps(schema, default=str))


async def test_the_migrations_make_the_schema_tortoises_own_runner_makes(settings):
    # Given a fresh, empty database migrated by tortoise's own `migrate` (which db.apply_migrations,
    # and so the suite's database, replaces by an executor that renders each operation's state
    # before only when the operation reads it, and builds only the changed models' query builders).
    # Its schema is kept in the suite's cache (TEST_CACHE_DIR) under the hash of everything it
    # depends on: tortoise's runner takes 20 s of CPU, and a later run with the same migrations,
    # models, tortoise and server would make the same schema again (a clean checkout, as in CI,
    # always runs it).
    ours = _database_url(settings.database_url, SUITE_DATABASE if WORKER else TEST_DATABASE)
    connection = await asyncpg.connect(ours)
    try:
        key = _tortoise_schema_key(await connection.fetchval("SHOW server_version"))
    finally:
        await connection.close()
    cached = _read_cache(_TORTOISE_SCHEMA_CACHE)
    if cached is not None and cached.get("key") == key:
        theirs = cached["schema"]
    else:
        theirs = await _tortoise_schema(settings)
        _write_cache(_TORTOISE_SCHEMA_CACHE, {"key": key, "schema": theirs})
    assert theirs[0] and theirs[1] and theirs[2]
    # Then the suite's database (migrated once per run by db.apply_migrations; with workers, the
    # template every worker's copy came from) has the very same schema
    assert _as_json(await _schema(ours)) == theirs


def test_the_cached_schema_of_tortoises_runner_is_keyed_by_what_it_depends_on(tmp_path):
    # Given a copy of the files the schema depends on, and its key on one server
    shutil.copytree(ROOT / "models", tmp_path / "models", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "core").mkdir()
    for name in ("outbox.py", "db.py"):
        shutil.copy(ROOT / "core" / name, tmp_path / "core" / name)
    key = _tortoise_schema_key("16.4", root=tmp_path)
    # Then the key is the checkout's, and stays while nothing changes
    assert key == _tortoise_schema_key("16.4") == _tortoise_schema_key("16.4", root=tmp_path)
    # And another server, or a migration changed by one character, makes another key
    assert _tortoise_schema_key("17.0", root=tmp_path) != key
    migration = sorted((tmp_path / "models" / "migrations").glob("0*.py"))[-1]
    migration.write_text(migration.read_text() + " ")
    assert _tortoise_schema_key("16.4", root=tmp_path) != key
