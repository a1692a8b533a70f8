"""The service's queues in Redis: their names, and how deep each one is.

An actor's queue is its job family, the part of ``"family.verb"`` before the dot
(:func:`queue_of`). :data:`QUEUES` names every queue the actors use, so that the processes that
only look at queues (``custody queues``, the API's ``/metrics``) need not import the actors to
know them; the suite checks it against the declared actors (tests/core/test_queues.py).

Dramatiq's Redis layout (namespace ``custody`` unless ``REDIS_NAMESPACE`` names another): queue
``q`` is the list ``custody:q`` of message ids with their bodies in the hash ``custody:q.msgs`` (a
fetched message leaves the list and stays in the hash until acknowledged); delayed messages use
the queue ``q.DQ`` the same way; dead letters are the sorted set ``custody:q.XQ`` (scored by when
they died) with bodies in ``custody:q.XQ.msgs``. Only these keys are read, never other keys of the
namespace (the per-webhook concurrency slots are sorted sets too).

This module is light on purpose (redis and dramatiq's message codec only), for ``custody
queues`` to start fast.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable

import redis
from dramatiq.message import Message

from core.settings import DEFAULT_REDIS_NAMESPACE

#: The signer queues: each consumed only by its own signer process (``custody signer``).
SIGNER_QUEUES: tuple[str, ...] = ("signer_1", "signer_2")

#: Every queue an actor of the service uses, in alphabetical order.
QUEUES: tuple[str, ...] = (
    "aml", "audit", "auth", "backups", "change_approvals", "companies", "deposits", "devnet", "gas_station", "keys",
    "notifications", *SIGNER_QUEUES, "signing", "transaction_approvals", "transactions", "webhooks", "withdrawals",
)

#: What a general worker consumes: every queue but the signers'.
GENERAL_QUEUES: tuple[str, ...] = tuple(queue for queue in QUEUES if queue not in SIGNER_QUEUES)


def queue_of(actor_name: str) -> str:
    """The queue of an actor: its job family, the part of ``"family.verb"`` before the dot."""
    return actor_name.split(".", 1)[0]


@dataclass(frozen=True)
class QueueDepth:
    queue: str
    ready: int
    delayed: int
    in_progress: int
    dead: int
    #: Seconds since the oldest ready message was enqueued (None when none is ready).
    oldest_ready_age_seconds: float | None


def _age(data: bytes | None, now_ms: float) -> float | None:
    if not data:
        return None
    return max(now_ms - Message.decode(data).message_timestamp, 0) / 1000


def queue_depths(client: redis.Redis, queues: Iterable[str] = QUEUES, namespace: str = DEFAULT_REDIS_NAMESPACE) -> list[QueueDepth]:
    """Depths of each queue, in two round trips whatever the number of queues (one pipeline for
    the counts, one for the oldest ready messages)."""
    names = sorted(set(queues))
    now_ms = time.time() * 1000
    counts = client.pipeline(transaction=False)
    for queue in names:
        base = f"{namespace}:{queue}"
        counts.llen(base)
        counts.hlen(f"{base}.msgs")
        counts.hlen(f"{base}.DQ.msgs")
        counts.zcard(f"{base}.XQ")
        counts.lindex(base, 0)
    answers = counts.execute()
    figures = [answers[i:i + 5] for i in range(0, len(answers), 5)]
    bodies = client.pipeline(transaction=False)
    for queue, (_, _, _, _, oldest_id) in zip(names, figures):
        if oldest_id:
            bodies.hget(f"{namespace}:{queue}.msgs", oldest_id)
    oldest = iter(bodies.execute())
    rows = []
    for queue, (ready, stored, delayed, dead, oldest_id) in zip(names, figures):
        body = next(oldest) if oldest_id else None
        rows.append(QueueDepth(queue=queue, ready=ready, delayed=delayed, in_progress=max(stored - ready, 0),
                               dead=dead, oldest_ready_age_seconds=_age(body, now_ms)))
    return rows
