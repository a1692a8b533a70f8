"""Point-to-point message channels between processes, in Redis: what two signer processes use to
run an interactive protocol together (threshold ECDSA triples and presignatures).

A channel is a Redis list per recipient, ``<prefix><run>:to:<recipient>``; a message is pushed on
the recipient's list and popped by it, in order. Every list expires (``ttl_seconds``), so a run
whose other side died leaves nothing behind. The content is the protocol's own (what travels
is never secret on its own: a protocol message of a two-party run); the channel only carries it.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

#: How often a waiting receiver looks again (seconds).
POLL_SECONDS = 0.003


class ChannelTimeout(TimeoutError):
    """The other side sent nothing within the time given (it died, or never started)."""


class MessageChannels:
    """Channels under ``prefix`` on a (sync) Redis client."""

    def __init__(self, client: Any, *, prefix: str, ttl_seconds: int = 300) -> None:
        self.client, self.prefix, self.ttl_seconds = client, prefix, ttl_seconds

    def _key(self, run: str, recipient: int) -> str:
        return f"{self.prefix}{run}:to:{recipient}"

    def send(self, run: str, recipient: int, data: bytes) -> None:
        key = self._key(run, recipient)
        pipe = self.client.pipeline()
        pipe.rpush(key, bytes(data))
        pipe.expire(key, self.ttl_seconds)
        pipe.execute()

    async def receive(self, run: str, recipient: int, *, timeout: float) -> bytes:
        """The next message for ``recipient`` in ``run``; :class:`ChannelTimeout` after ``timeout``."""
        key = self._key(run, recipient)
        deadline = time.monotonic() + timeout
        while True:
            data = self.client.lpop(key)
            if data is not None:
                return bytes(data)
            if time.monotonic() >= deadline:
                raise ChannelTimeout(f"no message on {run} for participant {recipient} within {timeout:.0f} s")
            await asyncio.sleep(POLL_SECONDS)

    def close(self, run: str, *recipients: int) -> None:
        """Drop what is left of a run (a run that ended, or gave up)."""
        if recipients:
            self.client.delete(*(self._key(run, r) for r in recipients))

    def describe(self, run: str, description: dict[str, Any]) -> None:
        """Keep what a run is about (who may take part in it) beside its lists, for ``ttl_seconds``."""
        self.client.set(f"{self.prefix}{run}:about", json.dumps(description, sort_keys=True), ex=self.ttl_seconds)

    def description(self, run: str) -> dict[str, Any] | None:
        data = self.client.get(f"{self.prefix}{run}:about")
        return None if data is None else json.loads(data)

    def drain(self, run: str, recipient: int, *, limit: int = 64) -> list[bytes]:
        """Every message waiting for ``recipient`` (at most ``limit``), without waiting."""
        out: list[bytes] = []
        while len(out) < limit:
            data = self.client.lpop(self._key(run, recipient))
            if data is None:
                break
            out.append(bytes(data))
        return out


#: The channels of threshold ECDSA presignature runs (signers together, or a signer with the co-signer).
ECDSA_RUNS = "ecdsa-runs"


def broker_channels(name: str = ECDSA_RUNS, *, ttl_seconds: int = 300) -> MessageChannels:
    """The channels named ``name`` on the Redis of the process's Dramatiq broker (its namespace)."""
    import dramatiq

    broker = dramatiq.get_broker()
    return MessageChannels(broker.client, prefix=f"{broker.namespace}:{name}:",  # type: ignore[attr-defined]
                           ttl_seconds=ttl_seconds)


class BoxedChannels:
    """The channels of one run with every message in a NaCl Box between two X25519 run keys
    (``box``): what travels through Redis (and, for the co-signer, through the API) is
    ciphertext; a message that does not open raises :class:`ChannelTampered`."""

    def __init__(self, inner: MessageChannels, box: Any) -> None:
        self.inner, self.box = inner, box

    def send(self, run: str, recipient: int, data: bytes) -> None:
        self.inner.send(run, recipient, bytes(self.box.encrypt(bytes(data))))

    async def receive(self, run: str, recipient: int, *, timeout: float) -> bytes:
        from nacl.exceptions import CryptoError

        sealed = await self.inner.receive(run, recipient, timeout=timeout)
        try:
            return bytes(self.box.decrypt(sealed))
        except CryptoError:
            raise ChannelTampered(f"a message on {run} for participant {recipient} does not open") from None


class ChannelTampered(ValueError):
    """A boxed message did not open: not from the run's other party, or altered on the way."""
