"""Bounded concurrency across processes: at most N holders per key, in Redis.

Used by webhook delivery (at most N attempts in flight per webhook, in every worker process
together), and usable by any job family that must not overrun one endpoint.

A Redis sorted set per key holds one member per holder, scored by when its slot expires (Redis
server time, so worker clocks do not matter). Taking a slot first drops expired members, which
frees the slot of a process that died while holding it. A refused take also sets the key's
"parked" marker, so that a finishing holder looks for parked work to wake only when there may
be some.
"""

from __future__ import annotations

import asyncio
from typing import Any


class ConcurrencySlots:
    """At most ``limit`` holders per key; keys are ``<prefix><key>`` and ``<prefix><key>:parked``."""

    PARKED_MARKER_MS = 300_000
    _NOW = """
    local now = redis.call('TIME')
    local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
    """
    _TAKE = _NOW + """
    if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
        redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[3]), ARGV[1])
        redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
        return 1
    end
    redis.call('SET', KEYS[2], '1', 'PX', tonumber(ARGV[4]))
    return 0
    """
    _WAKEABLE = _NOW + """
    if redis.call('EXISTS', KEYS[2]) == 0 then
        return 0
    end
    return tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1])
    """

    _TAKE_MANY = _NOW + """
    local taken = {}
    for i = 5, #ARGV do
        if redis.call('ZSCORE', KEYS[1], ARGV[i]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
            redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[2]), ARGV[i])
            taken[#taken + 1] = ARGV[i]
        end
    end
    if #taken > 0 then
        redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
    else
        redis.call('SET', KEYS[2], '1', 'PX', tonumber(ARGV[3]))
    end
    return taken
    """

    def __init__(self, client: Any, *, prefix: str, limit: int, ttl_ms: int) -> None:
        """``client`` is a (blocking) redis client; ``ttl_ms`` bounds how long a slot is held."""
        self._client = client
        self._prefix = prefix
        self.limit = limit
        self.ttl_ms = ttl_ms
        self._take = client.register_script(self._TAKE)
        self._wakeable = client.register_script(self._WAKEABLE)
        self._take_many = client.register_script(self._TAKE_MANY)

    def _keys(self, key: object) -> list[str]:
        return [f"{self._prefix}{key}", f"{self._prefix}{key}:parked"]

    async def take(self, key: object, holder: object) -> bool:
        """Take a slot of ``key`` for ``holder`` (taking it again is a no-op); False when full."""
        taken = await asyncio.to_thread(self._take, keys=self._keys(key),
                                        args=[str(holder), self.limit, self.ttl_ms, self.PARKED_MARKER_MS])
        return bool(taken)

    async def release(self, key: object, holder: object) -> None:
        await asyncio.to_thread(self._client.zrem, self._keys(key)[0], str(holder))

    async def wakeable(self, key: object) -> int:
        """Free slots of ``key`` when work may be parked behind it; else 0."""
        return int(await asyncio.to_thread(self._wakeable, keys=self._keys(key), args=[self.limit]))

    async def mark_parked(self, key: object) -> None:
        await asyncio.to_thread(self._client.set, self._keys(key)[1], "1", px=self.PARKED_MARKER_MS)

    async def take_many(self, key: object, holders: list[str]) -> list[str]:
        """Take a slot for each of ``holders`` while any is free (again: refresh); the ones taken.

        Taking none sets the parked marker, like a refused :meth:`take`.
        """
        taken = await asyncio.to_thread(self._take_many, keys=self._keys(key),
                                        args=[self.limit, self.ttl_ms, self.PARKED_MARKER_MS, "", *holders])
        return [holder.decode() if isinstance(holder, bytes) else holder for holder in taken]

    async def release_many(self, key: object, holders: list[str]) -> None:
        if holders:
            await asyncio.to_thread(self._client.zrem, self._keys(key)[0], *holders)

    async def clear_parked(self, key: object) -> None:
        """Forget the parked marker (the caller is about to look for parked work itself)."""
        await asyncio.to_thread(self._client.delete, self._keys(key)[1])

    async def is_parked(self, key: object) -> bool:
        return bool(await asyncio.to_thread(self._client.exists, self._keys(key)[1]))
