"""Shared fixtures: real PostgreSQL and Redis, a clean state per test, an in-process worker, the app.

Servers: ``DATABASE_URL`` / ``REDIS_URL`` from the environment when given, otherwise embedded
ones started for the session (and stopped at its end). The suite creates its own database on
that server (dropped and migrated afresh each session, which also proves the migrations apply)
and uses its own Redis key namespace, so it never touches the service's data; the names differ
per checkout, and a run leaves none of it behind (tests/support/environment.py).

Helpers that are not fixtures (callers, vaults, the devnet, ...) live in tests/support/ and are
imported normally; fixtures shared by several folders are here or in a plugin listed below.
"""

from __future__ import annotations

import asyncio
import os
from typing import AsyncIterator, Iterator
from urllib.parse import urlsplit, urlunsplit

import dramatiq
import pytest
import redis
from sanic import Sanic

from core import clock
from core.settings import Settings, configure
from custody.embedded import ensure_servers
from tests.support.client import BASE_URL, AppClient
from tests.support.database import empty_database
from tests.support.environment import (
    TEST_DATA_DIR,
    TEST_DATABASE,
    TEST_NAMESPACE,
    TEST_SERVICE_DIR,
    SuiteRun,
    prepare_database,
    release_database,
    stop_embedded,
)
from tests.support.worker import InProcessWorker

pytest_plugins = ["tests.support.receiver"]


#: The modules that take longest, first in each worker's part (pytest_collection_modifyitems below;
#: wall times measured on a 2-core machine: every module of 8 s or more alone, about 120 s of them
#: in each part). pytest-xdist's worksteal hands its workers equal contiguous parts of the
#: collection, one each, and lets an idle worker take the end of another's queue: a long module
#: left near the end runs alone while the other worker waits. The second part starts with modules
#: that need no database, so its worker works while the other migrates the run's database.
LONGEST_FIRST = (
    ("tests/actors/test_evm_chain.py", "tests/core/test_db.py", "tests/custody/test_quickstart_refuel.py",
     "tests/domain/test_auth_cache.py", "tests/custody/test_embedded.py", "tests/custody/test_watch.py",
     "tests/custody/test_quickstart.py", "tests/domain/signing/test_nonce_stock.py"),
    ("tests/test_lint.py", "tests/sdk/test_generated.py", "tests/test_architecture.py", "tests/custody/test_cli.py",
     "tests/api/test_openapi.py", "tests/domain/signing/test_ecdsa_sessions.py",
     "tests/api/test_transactions_under_load.py", "tests/actors/test_aml.py", "tests/core/test_broker.py"),
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With workers, each worker's part of the collection starts with its :data:`LONGEST_FIRST`
    modules; the order within a module, and of everything else, stays."""
    workers = int(getattr(config, "workerinput", {}).get("workercount", 0))
    if workers < 2:
        return
    firsts = [[item for item in items if item.nodeid.split("::")[0] in modules] for modules in LONGEST_FIRST]
    for part, modules in zip(firsts, LONGEST_FIRST):
        part.sort(key=lambda item: modules.index(item.nodeid.split("::")[0]))  # stable: a module's order stays
    chosen = {id(item) for part in firsts for item in part}
    rest = [item for item in items if id(item) not in chosen]
    ordered: list[pytest.Item] = []
    remaining = len(items)
    for worker in range(workers):  # worksteal's first hand-out: len(pending) // workers left
        size = remaining // (workers - worker)
        part = firsts[worker] if worker < len(firsts) else []
        if len(part) > size:  # a selection where the long modules are most of the run: as collected
            return
        ordered += part + rest[:size - len(part)]
        del rest[:size - len(part)]
        remaining -= size
    items[:] = ordered + rest


def _with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))


@pytest.fixture(scope="session")
def suite_run() -> Iterator[SuiteRun]:
    """This run; when it ends, the data folder goes (tests/support/environment.py)."""
    run = SuiteRun()
    run.begin()
    try:
        yield run
    finally:
        run.end()


@pytest.fixture(scope="session")
def servers(suite_run: SuiteRun) -> Iterator[tuple[str, str]]:
    embedded = ensure_servers(
        database_url=os.environ.get("DATABASE_URL") or None,
        redis_url=os.environ.get("REDIS_URL") or None,
        data_dir=TEST_DATA_DIR,
    )
    try:
        yield embedded.database_url, embedded.redis_url  # type: ignore[misc]
    finally:
        stop_embedded(embedded)


@pytest.fixture(scope="session")
async def settings(servers: tuple[str, str], suite_run: SuiteRun) -> AsyncIterator[Settings]:
    server_url, redis_url = servers
    admin_url = server_url.replace("postgres://", "postgresql://", 1)
    from custody.wiring import migrate

    async def migrate_database(name: str) -> None:
        await migrate(test_settings.with_overrides(database_url=_with_database(admin_url, name)))

    test_settings = configure(
        Settings(
            database_url=_with_database(admin_url, TEST_DATABASE),
            redis_url=redis_url,
            redis_namespace=TEST_NAMESPACE,
            base_url=BASE_URL,
            environment="test",
            actor_max_retries=2,
            actor_min_backoff_ms=10,
            actor_max_backoff_ms=50,
            webhook_allow_loopback=True,
            # A test signs with an ECDSA key a few times at most: a top-up of 2 presignatures, not
            # the default 4, halves the triples made for nothing (15-23 % of the ECDSA tests' CPU).
            ecdsa_presignature_batch=2,
            data_dir=TEST_SERVICE_DIR,
        )
    )
    await prepare_database(admin_url, migrate_database)
    yield test_settings
    # The run's keys go (on a Redis of its own they go with its data folder): the in-process
    # brokers' and those of the service processes tests start (REDIS_NAMESPACE in their env).
    client = redis.Redis.from_url(redis_url)
    try:
        _flush_namespace(client)
    finally:
        client.close()
    if not suite_run.keep and os.environ.get("DATABASE_URL"):
        # A server of its own (embedded) goes with the data folder; on a given one, the databases go
        # now: a worker's own copy always, the suite's database with its last user.
        await release_database(admin_url, last_run=suite_run.leaves_nothing)


@pytest.fixture(scope="session")
async def database(settings: Settings) -> AsyncIterator[None]:
    from core.broker import install_broker
    from custody.wiring import close_database, open_database

    # What a test commits is enqueued in the suite's namespace even without the broker fixture
    # (which replaces this one): dramatiq's own default broker would write to "dramatiq:" keys
    # of whatever Redis listens on localhost.
    install_broker(settings)

    await open_database(settings)
    yield
    await close_database()


@pytest.fixture(scope="session")
async def broker(settings: Settings, database: None) -> AsyncIterator[dramatiq.Broker]:
    """The real Redis broker; async actors run on the test event loop (where the DB lives)."""
    from custody.wiring import setup_broker

    broker = setup_broker(settings, namespace=TEST_NAMESPACE, event_loop=asyncio.get_running_loop())
    yield broker
    broker.close()
    broker.client.connection_pool.disconnect()  # so that an embedded Redis sees its last client go


@pytest.fixture(scope="session")
def redis_client(settings: Settings) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(settings.redis_url)  # type: ignore[arg-type]
    yield client
    client.close()


def _flush_namespace(client: redis.Redis) -> None:
    # The namespace's keys and those of namespaces named after it ("<namespace>-<purpose>"), not
    # another worker's whose process id only starts with this one's.
    keys = [key for suffix in (":", "-") for key in client.scan_iter(match=f"{TEST_NAMESPACE}{suffix}*", count=1000)]
    if keys:
        client.delete(*keys)


@pytest.fixture(autouse=True)
async def clean_state(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """Every database-backed test starts from empty tables, an empty queue and a frozen clock."""
    if "database" not in request.fixturenames and "broker" not in request.fixturenames:
        yield
        return
    from tortoise import connections

    await empty_database(connections.get("default"))
    frozen = clock.FrozenClock()
    previous = clock.set_clock(frozen)
    if "broker" in request.fixturenames:
        _flush_namespace(request.getfixturevalue("redis_client"))
    try:
        yield
    finally:
        clock.set_clock(previous)


@pytest.fixture
def frozen_clock() -> clock.FrozenClock:
    current = clock.get_clock()
    assert isinstance(current, clock.FrozenClock)
    return current


@pytest.fixture
async def worker(broker: dramatiq.Broker) -> AsyncIterator[InProcessWorker]:
    running = InProcessWorker(broker)
    running.start()
    yield running
    await asyncio.to_thread(running.stop)


@pytest.fixture(scope="session")
def app(broker: dramatiq.Broker, settings: Settings) -> Sanic:
    from api.app import create_app

    Sanic.test_mode = True
    return create_app(settings, name="custody_test")


@pytest.fixture(scope="session")
async def client(app: Sanic) -> AsyncIterator[AppClient]:
    """Requests into the app in-process (tests/support/client.py); its start-up ran once."""
    running = AppClient(app)
    await running.start()
    yield running
    await running.stop()


@pytest.fixture(autouse=True)
def declared_errors_only(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every error an operation answers during a test is one its contract declares (api.contract):
    the OpenAPI document lists every error an integrator can meet."""
    if "app" not in request.fixturenames and "client" not in request.fixturenames:
        yield
        return
    app: Sanic = request.getfixturevalue("app")
    app.ctx.contract_violations.clear()
    yield
    violations, app.ctx.contract_violations[:] = list(app.ctx.contract_violations), []
    assert not violations, "errors not declared in the operation's contract:\n" + "\n".join(violations)
