"""Benchmark: FROST(Ed25519) 2-of-3 signatures per second, against plain Ed25519 on the same machine.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/signing.py [--seconds 2] [--sequential 30] [--concurrent 200] [--no-e2e]

Prints, in one run:

1. plain Ed25519 signing (``nacl.signing.SigningKey.sign``): the limit the others are compared to;
2. FROST 2-of-3 in one process: both signers' round 1 (nonces + commitments), both round-2
   shares, verification of every share and aggregation (``threshold.frost.aggregate``) per signature,
   from a key made by the Pedersen DKG (``threshold.dkg``);
3. the same through the actors end to end: ``sessions.request_signature`` in a unit of work, the
   outbox, Redis, the signer actors (sealed nonces in PostgreSQL), the coordinator actors, until
   the verified signature is in PostgreSQL; once one at a time (latency-bound) and once with many
   sessions in flight (throughput). Needs DATABASE_URL and REDIS_URL: it creates (and drops) its
   own database ``custody_bench_signing`` and uses its own Redis namespace. All actors, both
   signers included, run in this one process on one event loop, as in the tests, so the figure
   is a lower bound of a deployment with separate signer processes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nacl.signing import SigningKey, VerifyKey  # noqa: E402

from threshold import dkg, frost, protocol  # noqa: E402

BENCH_DATABASE = "custody_bench_signing"


def rate(fn: Callable[[], Any], seconds: float) -> float:
    """Calls of ``fn`` per second, measured for about ``seconds``."""
    fn()  # warm up
    count, start = 0, time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        fn()
        count += 1
    return count / (time.perf_counter() - start)


def plain_ed25519(seconds: float) -> float:
    key = SigningKey.generate()
    message = os.urandom(64)
    return rate(lambda: key.sign(message), seconds)


def dkg_2_of_3() -> tuple[dict[int, protocol.KeyPackage], protocol.PublicKeyPackage]:
    """A 2-of-3 key from the Pedersen DKG, all three participants in this process."""
    ids = (1, 2, 3)
    round1 = {i: dkg.round1(i, 2, 3, b"bench") for i in ids}
    round2 = {i: dkg.round2(round1[i][0], [round1[j][1] for j in ids if j != i]) for i in ids}
    finals = {i: dkg.finalize(round2[i][0], [round2[j][1][i] for j in ids if j != i]) for i in ids}
    return {i: finals[i][0] for i in ids}, finals[1][1]


def frost_in_process(seconds: float) -> float:
    key_packages, public = dkg_2_of_3()
    message = os.urandom(64)

    def one_signature() -> bytes:
        nonces, commitments = {}, []
        for i in (1, 2):
            nonces[i], commitment = frost.commit(key_packages[i])
            commitments.append(commitment)
        shares = [frost.sign(key_packages[i], nonces[i], message, commitments, min_signers=2) for i in (1, 2)]
        return frost.aggregate(commitments, message, shares, public)

    VerifyKey(public.group_public_key).verify(message, one_signature())
    return rate(one_signature, seconds)


# --------------------------------------------------------------------------------------------
# End to end through the actors
# --------------------------------------------------------------------------------------------


class _AppTransport:
    """The co-signer's HTTP requests into the app, in-process over ASGI (for the bench's DKG)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.http: Any = None

    async def request(self, method: str, path: str, *, json_body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        import httpx

        if self.http is None:
            await self.app.asgi_client.get("/api/v2/auth/time")  # starts the app once
            self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url="http://bench")
        response = await self.http.request(method, path, json=json_body, headers=headers or {})
        return response.status_code, (response.json() if response.content else None)


async def end_to_end(sequential: int, concurrent: int) -> tuple[float, float]:
    import dramatiq
    from _support import drop_database, flush_namespace, recreate_database
    from nacl import pwhash
    from sanic import Sanic

    from api.app import create_app
    from client.cosigner import CoSigner, Credentials, ShareStore
    from core.settings import Settings, configure, get_settings
    from core.unit_of_work import unit_of_work
    from custody.wiring import close_database, migrate, open_database, setup_broker
    from domain import companies, users, workspaces
    from domain.signing import cosigner as cosigner_seat
    from domain.signing import keys, sessions
    from models.keys import KeySet
    from models.sessions import SigningSession
    from models.vaults import Vault
    from threshold.cosigner_part import KdfParams

    env = get_settings()
    if not (env.database_url and env.redis_url):
        raise SystemExit("the end-to-end figures need DATABASE_URL and REDIS_URL (or pass --no-e2e)")
    database_url = await recreate_database(env.database_url, BENCH_DATABASE)
    namespace = f"custody-bench-{os.getpid()}"
    data_dir = Path(tempfile.mkdtemp(prefix="custody-bench-"))
    settings = configure(Settings(database_url=database_url, redis_url=env.redis_url, environment="test",
                                  data_dir=data_dir, base_url="http://bench"))
    await migrate(settings)
    await open_database(settings)
    broker = setup_broker(settings, namespace=namespace, event_loop=asyncio.get_running_loop())
    worker = dramatiq.Worker(broker, worker_threads=8, worker_timeout=20)
    worker.start()
    try:
        # A workspace, an API user as co-signer, a vault, its key by DKG
        cosigner_key = SigningKey.generate()
        async with unit_of_work():
            company = await companies.create_company(principal=None, name="Bench", email="bench@example.com")
            workspace = await workspaces.create_workspace(principal=None, company_id=company.id, name="Bench",
                                                          network_type="testnet")
            member = await users.create_api_user(principal=None, workspace_id=workspace.id, name="co-signer",
                                                 role="SIGNER", public_key=bytes(cosigner_key.verify_key))
            # Only the designated co-signer takes a key set's seat (as custody bootstrap designates its API user)
            await cosigner_seat.designate(principal=None, workspace_id=workspace.id, user_id=member.user.id)
            vault = await Vault.create(workspace_id=workspace.id, name="Bench vault")
            await keys.request_key_generation(vault=vault)
        Sanic.test_mode = True
        app = create_app(settings, name="custody_bench")
        cosigner = CoSigner(
            _AppTransport(app),
            credentials=Credentials(base_url="http://bench", workspace_id=str(workspace.id),
                                    client_id=str(member.user.id), client_type="user", signing_key=cosigner_key),
            store=ShareStore(data_dir / "cosigner", b"bench",
                             params=KdfParams(pwhash.argon2id.OPSLIMIT_MIN, pwhash.argon2id.MEMLIMIT_MIN)),
        )
        deadline = time.monotonic() + 60
        while (await KeySet.get(vault_id=vault.id)).status not in ("ready", "failed"):
            if time.monotonic() > deadline:
                raise SystemExit("key generation did not finish")
            await cosigner.step()
            await asyncio.sleep(0.02)
        group_key = await keys.group_public_key(vault_id=vault.id)
        verify_key = VerifyKey(group_key)

        async def request(message: bytes) -> uuid.UUID:
            async with unit_of_work():
                session = await sessions.request_signature(workspace_id=workspace.id, vault_id=vault.id,
                                                          message=message, purpose="bench")
            return session.id

        # One at a time: request, then wait for the verified signature
        start = time.perf_counter()
        for n in range(sequential):
            message = f"sequential {n}".encode()
            session_id = await request(message)
            verify_key.verify(message, await sessions.wait_for_signature(
                workspace_id=workspace.id, session_id=session_id, timeout=60, poll_interval=0.005))
        sequential_rate = sequential / (time.perf_counter() - start)

        # Many in flight: request them all, then wait until every one is completed
        start = time.perf_counter()
        messages = {await request(f"concurrent {n}".encode()): f"concurrent {n}".encode() for n in range(concurrent)}
        while await SigningSession.filter(id__in=list(messages), status__in=["round1", "round2"]).count():
            if time.perf_counter() - start > 300:
                raise SystemExit("concurrent signing did not finish")
            await asyncio.sleep(0.02)
        concurrent_rate = concurrent / (time.perf_counter() - start)
        for session in await SigningSession.filter(id__in=list(messages)):
            assert session.status == "completed", session.failure_reason
            verify_key.verify(messages[session.id], bytes(session.signature or b""))
        return sequential_rate, concurrent_rate
    finally:
        await asyncio.to_thread(worker.stop, 5000)
        broker.close()
        flush_namespace(settings.redis_url, namespace)
        await close_database()
        await drop_database(env.database_url, BENCH_DATABASE)
        shutil.rmtree(data_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="measuring time of each in-process figure")
    parser.add_argument("--sequential", type=int, default=30, help="signatures one at a time through the actors")
    parser.add_argument("--concurrent", type=int, default=200, help="signatures in flight at once through the actors")
    parser.add_argument("--no-e2e", action="store_true", help="skip the figures that need PostgreSQL and Redis")
    args = parser.parse_args()

    import logging
    logging.basicConfig(level=logging.WARNING)

    plain = plain_ed25519(args.seconds)
    in_process = frost_in_process(args.seconds)
    rows = [
        ("plain Ed25519 signing (nacl.signing), one process", plain),
        ("FROST 2-of-3, one process (2 commits, 2 shares, verify + aggregate)", in_process),
    ]
    if not args.no_e2e:
        sequential, concurrent = asyncio.run(end_to_end(args.sequential, args.concurrent))
        rows += [
            (f"FROST 2-of-3 through the actors, one at a time ({args.sequential})", sequential),
            (f"FROST 2-of-3 through the actors, {args.concurrent} in flight", concurrent),
        ]
    print(f"{'':72}{'signatures/s':>14}{'vs plain Ed25519':>18}")
    for label, value in rows:
        print(f"{label:72}{value:14.1f}{value / plain:17.4f}x")


if __name__ == "__main__":
    main()
