"""auth.purge_expired, run through the real broker and an in-process worker."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

from actors.auth import PURGE_EXPIRED
from core import clock
from models.auth import AuthNonce


async def test_purge_deletes_only_expired_nonces(broker, worker, frozen_clock):
    client_id = uuid.uuid4()
    await AuthNonce.create(client_id=client_id, nonce="old-nonce-1", expires_at=clock.now() - timedelta(seconds=1))
    await AuthNonce.create(client_id=client_id, nonce="live-nonce-1", expires_at=clock.now() + timedelta(minutes=5))
    await asyncio.to_thread(broker.get_actor(PURGE_EXPIRED).send)
    await worker.drain()
    assert [n.nonce for n in await AuthNonce.all()] == ["live-nonce-1"]
