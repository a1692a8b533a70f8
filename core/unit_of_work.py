"""The request or task boundary: one transaction, then the jobs it wrote.

Services never commit. An endpoint or actor wraps its work in :func:`unit_of_work`: the
transaction commits when the block ends without error, and only then are the outbox commands
written inside it enqueued. On error everything rolls back and nothing is enqueued.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator

import dramatiq

from core import outbox
from core.db import transaction


@asynccontextmanager
async def unit_of_work(*, broker: dramatiq.Broker | None = None) -> AsyncIterator[None]:
    """Run the block in one transaction; enqueue its commands after commit.

    Nested use joins the outer unit of work (its commands are enqueued when the outermost
    one commits), so services may open one defensively.
    """
    if outbox.is_collecting():
        async with transaction():
            yield
        return
    commands, token = outbox.begin_collecting()
    try:
        async with transaction():
            yield
    finally:
        outbox.stop_collecting(token)
    if commands:
        await outbox.dispatch(commands, broker=broker)
