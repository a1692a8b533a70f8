"""The per-process authentication cache (domain/auth_cache.py) on two real web workers.

Two `custody web` processes on loopback serve the same database. A principal cached on both is
revoked through the API of one; the very next request to the other is refused (or sees the new
role): no invalidation travels between processes, and none is needed.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from tortoise import connections

from domain import auth, auth_cache
from tests.support.approvals import make_person
from tests.support.callers import Caller, make_caller

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Worker:
    """One `custody web` process, and plain HTTP to it."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([sys.executable, "-m", "custody.cli", "web", "--host", "127.0.0.1", "--port",
                                         str(self.port)], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/health", timeout=5):
                    return
            except OSError:
                assert self.process.poll() is None, "custody web ended"
                assert time.monotonic() < deadline, "custody web did not start"
                time.sleep(0.2)

    def request(self, method: str, path: str, caller: Caller, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {**caller.headers(), **({"Content-Type": "application/json"} if data is not None else {})}
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else {}
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def read_workspace(self, caller: Caller) -> tuple[int, dict]:
        return self.request("GET", "/api/v1/workspace", caller)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def workers(settings, database) -> Iterator[tuple[Worker, Worker]]:
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "REDIS_NAMESPACE": settings.redis_namespace, "CUSTODY_DATA_DIR": str(settings.data_dir), "LOG_LEVEL": "WARNING"}
    started = [Worker(env), Worker(env)]
    try:
        for worker in started:
            worker.wait_ready()
        yield started[0], started[1]
    finally:
        for worker in started:
            worker.stop()


async def _off_loop(function, *args):  # the workers answer on their own; the test must not block its loop
    return await asyncio.to_thread(function, *args)


async def _behind_the_triggers_back(sql: str, *args) -> None:
    """A change the revocation generation does not see (triggers off for this session): what the
    workers answer afterwards shows whether they still serve it from their cache."""
    async with connections.get("default")._in_transaction() as connection:  # type: ignore[attr-defined]
        await connection.execute_query("SET LOCAL session_replication_role = replica")
        await connection.execute_query(sql, list(args))


async def test_a_removed_user_is_refused_at_once_by_the_other_worker(workers):
    first, second = workers
    admin = await make_caller(role="ADMIN")
    bot = await make_caller(role="SIGNER", workspace_id=admin.workspace_id)
    # Given the bot's principal cached on both workers: a revocation the generation does not see
    # is not seen by either of them
    for worker in (first, second):
        assert (await _off_loop(worker.read_workspace, bot))[0] == 200
    await _behind_the_triggers_back("UPDATE access_tokens SET revoked_at = now() WHERE user_id = $1", bot.user_id)
    for worker in (first, second):
        status, body = await _off_loop(worker.read_workspace, bot)
        assert status == 200 and body["role"] == "SIGNER"
    await _behind_the_triggers_back("UPDATE access_tokens SET revoked_at = NULL WHERE user_id = $1", bot.user_id)
    # When the admin removes the bot through the first worker
    status, _ = await _off_loop(first.request, "DELETE", f"/api/v1/users/{bot.user_id}", admin)
    assert status == 204
    # Then the second worker refuses its token at the very next request, and so does the first
    status, body = await _off_loop(second.read_workspace, bot)
    assert (status, body["code"]) == (401, "INVALID_TOKEN")
    status, body = await _off_loop(first.read_workspace, bot)
    assert (status, body["code"]) == (401, "INVALID_TOKEN")
    # And the admin, whose own entry was dropped with everyone's, is served as before
    assert (await _off_loop(second.read_workspace, admin))[0] == 200


async def test_a_role_change_and_the_devices_it_revokes_take_effect_at_once_on_the_other_worker(workers):
    first, second = workers
    signer = await make_person(workspace_id=(await make_caller(role="ADMIN")).workspace_id, role="SIGNER")
    admin = await make_caller(role="ADMIN", workspace_id=signer.workspace_id)
    viewer = await make_caller(role="VIEWER", workspace_id=signer.workspace_id)
    # Given the signer's device and the viewer cached on both workers
    for worker in (first, second):
        status, body = await _off_loop(worker.read_workspace, signer)
        assert status == 200 and body["role"] == "SIGNER"
        status, body = await _off_loop(worker.read_workspace, viewer)
        assert status == 200 and body["role"] == "VIEWER"
    # When the admin makes the viewer an APPROVER through the first worker
    status, _ = await _off_loop(first.request, "PUT", f"/api/v1/users/{viewer.user_id}/role", admin,
                                {"role": "APPROVER"})
    assert status == 200
    # Then the second worker answers with the new role and its permissions at once
    status, body = await _off_loop(second.read_workspace, viewer)
    assert status == 200 and body["role"] == "APPROVER"
    # When the admin makes the signer a VIEWER (a role that uses no device: the device is revoked)
    status, _ = await _off_loop(first.request, "PUT", f"/api/v1/users/{signer.person_id}/role", admin,
                                {"role": "VIEWER"})
    assert status == 200
    # Then the second worker refuses the device's token at the very next request
    status, body = await _off_loop(second.read_workspace, signer)
    assert (status, body["code"]) == (401, "INVALID_TOKEN")


async def test_a_revoked_token_is_refused_in_process_right_after_commit(database):
    # Given a principal cached in this process
    caller = await make_caller(role="VIEWER")
    assert caller.token is not None
    before = await auth.authenticate(caller.token)
    assert await auth.authenticate(caller.token) is before  # served from the cache
    generation = await auth_cache.generation()
    # When its token is revoked (a committed change the triggers see)
    await auth.revoke_user_tokens(user_id=before.user.id)
    # Then the generation moved on, and the next authentication refuses it
    assert await auth_cache.generation() != generation
    with pytest.raises(auth.Unauthenticated):
        await auth.authenticate(caller.token)


async def test_a_workspace_id_in_another_form_than_the_canonical_one_is_refused(database):
    caller = await make_caller(role="VIEWER")
    principal = await auth.authenticate(caller.token)  # type: ignore[arg-type]
    canonical = caller.workspace_id
    assert (await auth.resolve_workspace(principal, canonical)).id == principal.accesses.keys().__iter__().__next__()
    for other in ("{" + canonical + "}", canonical.replace("-", ""), f"urn:uuid:{canonical}", f" {canonical} "):
        with pytest.raises(auth.ValidationFailed) as refused:
            await auth.resolve_workspace(principal, other)
        assert refused.value.code == "INVALID_WORKSPACE_ID"


async def test_the_generation_is_read_while_every_pooled_connection_is_in_a_transaction(database):
    from core.unit_of_work import unit_of_work

    caller = await make_caller(role="VIEWER")
    assert caller.token is not None
    await auth.authenticate(caller.token)
    # Given every connection of the pool held by a transaction that waits
    pool_size = connections.get("default").pool_maxsize  # type: ignore[attr-defined]
    release = asyncio.Event()
    holding = 0

    async def hold() -> None:
        nonlocal holding
        async with unit_of_work():
            await connections.get("default").execute_query_dict("SELECT 1")
            holding += 1
            await release.wait()

    holders = [asyncio.create_task(hold()) for _ in range(pool_size)]
    try:
        while holding < pool_size:
            await asyncio.sleep(0.01)
        # When a request authenticates meanwhile
        # Then it reads the generation (on the reader's own connection) without waiting for the pool
        principal, generation = await asyncio.wait_for(auth.authenticate_at_generation(caller.token), timeout=5)
        assert generation is not None and principal.user is not None
    finally:
        release.set()
        await asyncio.gather(*holders)


async def test_the_generation_reader_replaces_a_connection_the_server_closed(database):
    caller = await make_caller(role="VIEWER")
    assert caller.token is not None
    generation = await auth_cache.generation()
    # Given the reader's connection ended by the server (what a restart does)
    reader = auth_cache._reader  # noqa: SLF001
    assert reader._connection is not None  # noqa: SLF001
    pid = reader._connection.get_server_pid()  # noqa: SLF001
    await connections.get("default").execute_query("SELECT pg_terminate_backend($1)", [pid])
    # Then the next read still answers, from a new connection, and a revocation is still seen at once
    assert await auth_cache.generation() == generation
    assert reader._connection.get_server_pid() != pid  # noqa: SLF001
    await auth.revoke_user_tokens(user_id=(await auth.authenticate(caller.token)).user.id)
    with pytest.raises(auth.Unauthenticated):
        await auth.authenticate(caller.token)
