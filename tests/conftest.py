"""Shared fixtures: real PostgreSQL and Redis, a clean state per test, an in-process worker.

Servers: ``DATABASE_URL`` / ``REDIS_URL`` from the environment when given, otherwise embedded
ones started for the session. The suite creates its own database ``custody_test`` on that
server (dropped and migrated afresh each session, which also proves the migrations apply)
and uses its own Redis key namespace, so it never touches the service's data.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, AsyncIterator, Iterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import dramatiq
import pytest
import redis
from nacl.signing import SigningKey
from sanic import Sanic

from core import clock
from custody.embedded import ensure_servers
from core.settings import Settings, configure

TEST_DATABASE = os.environ.get("CUSTODY_TEST_DATABASE", "custody_test")
TEST_NAMESPACE = f"custody-test-{os.getpid()}"
#: Embedded servers' data and the test secret key; outside the checkout, reused between runs.
_TEST_DATA_DIR = Path(os.environ.get("CUSTODY_TEST_DATA_DIR", Path(tempfile.gettempdir()) / f"custody-test-{os.getuid()}"))


def _with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))


@pytest.fixture(scope="session")
def servers() -> Iterator[tuple[str, str]]:
    embedded = ensure_servers(
        database_url=os.environ.get("DATABASE_URL") or None,
        redis_url=os.environ.get("REDIS_URL") or None,
        data_dir=_TEST_DATA_DIR,
    )
    yield embedded.database_url, embedded.redis_url  # type: ignore[misc]
    embedded.stop()


@pytest.fixture(scope="session")
async def settings(servers: tuple[str, str]) -> AsyncIterator[Settings]:
    server_url, redis_url = servers
    admin_url = server_url.replace("postgres://", "postgresql://", 1)
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {TEST_DATABASE} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {TEST_DATABASE}")
    finally:
        await conn.close()
    test_settings = configure(
        Settings(
            database_url=_with_database(admin_url, TEST_DATABASE),
            redis_url=redis_url,
            base_url="http://testserver",
            environment="test",
            actor_max_retries=2,
            actor_min_backoff_ms=10,
            actor_max_backoff_ms=50,
            webhook_allow_loopback=True,
            data_dir=_TEST_DATA_DIR,
        )
    )
    from custody.wiring import migrate

    await migrate(test_settings)
    yield test_settings


@pytest.fixture(scope="session")
async def database(settings: Settings) -> AsyncIterator[None]:
    from custody.wiring import close_database, open_database

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


@pytest.fixture(scope="session")
def redis_client(settings: Settings) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(settings.redis_url)  # type: ignore[arg-type]
    yield client
    client.close()


def _flush_namespace(client: redis.Redis) -> None:
    keys = list(client.scan_iter(match=f"{TEST_NAMESPACE}*", count=1000))
    if keys:
        client.delete(*keys)


_TABLES_SQL = (
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'tortoise%'"
)


@pytest.fixture(autouse=True)
async def clean_state(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """Every database-backed test starts from empty tables, an empty queue and a frozen clock."""
    if "database" not in request.fixturenames and "broker" not in request.fixturenames:
        yield
        return
    from tortoise import connections

    conn = connections.get("default")
    _, rows = await conn.execute_query(_TABLES_SQL)
    tables = [r["tablename"] for r in rows if r["tablename"] not in {"migrations"}]
    if tables:
        await conn.execute_script(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
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


class InProcessWorker:
    """A real dramatiq worker consuming the test broker's queues in this process."""

    def __init__(self, broker: dramatiq.Broker) -> None:
        self.broker = broker
        self.worker = dramatiq.Worker(broker, worker_threads=2, worker_timeout=50)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop(timeout=5000)

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait until every queue is empty and the worker is idle."""
        def wait() -> None:
            deadline = time.monotonic() + timeout
            for queue in self.broker.get_declared_queues():
                self.broker.join(queue, timeout=int(max(deadline - time.monotonic(), 0.1) * 1000))
            self.worker.join()

        await asyncio.to_thread(wait)


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


@pytest.fixture
def client(app: Sanic) -> Any:
    return app.asgi_client


# --- helpers to create callers -------------------------------------------------------------


class Caller:
    """An API user with its key; signs token requests and makes authenticated calls."""

    def __init__(self, client: Any, *, user_id: str, signing_key: SigningKey, workspace_id: str) -> None:
        self.client = client
        self.user_id = user_id
        self.signing_key = signing_key
        self.workspace_id = workspace_id
        self.token: str | None = None

    def signed_request(self, *, timestamp: int | None = None, nonce: str | None = None,
                       client_type: str = "user", client_id: str | None = None) -> dict[str, str]:
        data = json.dumps({
            "client_type": client_type,
            "client_id": client_id or self.user_id,
            "timestamp": int(clock.now().timestamp()) if timestamp is None else timestamp,
            "nonce": nonce or uuid.uuid4().hex,
        })
        signature = base64.b64encode(self.signing_key.sign(data.encode()).signature).decode()
        return {"data": data, "signature": signature}

    async def login(self) -> str:
        _, response = await self.client.post("/api/v2/auth/access-token", json=self.signed_request())
        assert response.status == 200, response.json
        self.token = response.json["access_token"]
        return self.token

    def headers(self, *, workspace: str | None = "default") -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"}
        if workspace == "default":
            headers["X-Workspace-Id"] = self.workspace_id
        elif workspace is not None:
            headers["X-Workspace-Id"] = workspace
        return headers


async def make_caller(client: Any, *, role: str = "ADMIN", workspace_id: str | None = None,
                      platform_admin: bool = False, network_type: str = "testnet") -> Caller:
    """Create (in its own unit of work) an API user with ``role``; a new workspace unless given."""
    from core.unit_of_work import unit_of_work
    from domain import companies, users, workspaces
    from domain.permissions import PlatformRole

    key = SigningKey.generate()
    async with unit_of_work():
        if workspace_id is None:
            company = await companies.create_company(principal=None, name="Acme", email="ops@acme.test")
            ws = await workspaces.create_workspace(principal=None, company_id=company.id, name="Main",
                                                   network_type=network_type)
            workspace_id = str(ws.id)
        member = await users.create_api_user(
            principal=None, workspace_id=uuid.UUID(workspace_id), name=f"api-{role.lower()}", role=role,
            public_key=bytes(key.verify_key), platform_role=PlatformRole.PLATFORM_ADMIN if platform_admin else None,
        )
    caller = Caller(client, user_id=str(member.user.id), signing_key=key, workspace_id=workspace_id)
    await caller.login()
    return caller
