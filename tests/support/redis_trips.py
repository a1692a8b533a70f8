"""Counting the round trips a Redis client makes: each pipeline it sends, with its command count."""

from __future__ import annotations

from typing import Any

import pytest
from redis.asyncio.client import Pipeline as AsyncPipeline
from redis.client import Pipeline


def count_trips(monkeypatch: pytest.MonkeyPatch, *, asynchronous: bool = False) -> list[int]:
    """A list that records, from now on (until ``monkeypatch`` undoes it), each pipeline that redis-py
    sends (the blocking client's, or with ``asynchronous`` the asyncio client's): its command count."""
    trips: list[int] = []
    if asynchronous:
        execute_async = AsyncPipeline.execute

        async def counted_async(pipe: Any, *args: Any, **kwargs: Any) -> Any:
            trips.append(len(pipe.command_stack))
            return await execute_async(pipe, *args, **kwargs)

        monkeypatch.setattr(AsyncPipeline, "execute", counted_async)
    else:
        execute = Pipeline.execute

        def counted(pipe: Any, *args: Any, **kwargs: Any) -> Any:
            trips.append(len(pipe.command_stack))
            return execute(pipe, *args, **kwargs)

        monkeypatch.setattr(Pipeline, "execute", counted)
    return trips
