"""The request or task boundary: one transaction, then the jobs it wrote.

Services never commit. An endpoint or actor wraps its work in :func:`unit_of_work`: the
transaction commits when the block ends without error, and only then are the outbox commands
written inside it enqueued. On error everything rolls back and nothing is enqueued.

One kind of error commits instead: an exception whose ``commit_unit_of_work`` attribute is true
(the change approvals' 403 QUORUM_APPROVAL_REQUIRED: the request it registered must outlive the
refusal). The block's writes commit, its commands are enqueued, then the error leaves the block.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator

import dramatiq

from core import outbox
from core.db import transaction


def _commits(exc: BaseException) -> bool:
    return bool(getattr(exc, "commit_unit_of_work", False))


@asynccontextmanager
async def unit_of_work(*, broker: dramatiq.Broker | None = None) -> AsyncIterator[None]:
    """Run the block in one transaction; enqueue its commands after commit.

    Nested use joins the outer unit of work (its commands are enqueued when the outermost
    one commits), so services may open one defensively.
    """
    deferred: BaseException | None = None
    if outbox.is_collecting():
        async with transaction():
            try:
                yield
            except Exception as exc:
                if not _commits(exc):
                    raise
                deferred = exc
        if deferred is not None:
            raise deferred
        return
    commands, token = outbox.begin_collecting()
    try:
        async with transaction():
            try:
                yield
            except Exception as exc:
                if not _commits(exc):
                    raise
                deferred = exc
    finally:
        outbox.stop_collecting(token)
    if commands:
        await outbox.dispatch(commands, broker=broker)
    if deferred is not None:
        raise deferred
