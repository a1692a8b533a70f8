"""Counting the SQL statements this process sends (asyncpg, tortoise's and raw SQL alike)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

import asyncpg

_CALLS = ("execute", "executemany", "fetch", "fetchrow", "fetchval")


@contextmanager
def recording_statements(record: Callable[[str], None]) -> Iterator[None]:
    """``record(statement)`` for every statement sent inside the block (BEGIN and COMMIT
    included), whitespace folded. The benchmarks count with it too (bench/_support.py)."""
    originals = {name: getattr(asyncpg.Connection, name) for name in _CALLS}

    def recorded(name: str) -> Any:
        def run(self: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
            record(" ".join(str(query).split()))
            return originals[name](self, query, *args, **kwargs)
        return run

    for name in originals:
        setattr(asyncpg.Connection, name, recorded(name))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(asyncpg.Connection, name, original)


@contextmanager
def statements_sent() -> Iterator[list[str]]:
    """Every statement sent inside the block, in order (BEGIN and COMMIT included), whitespace folded."""
    sent: list[str] = []
    with recording_statements(sent.append):
        yield sent
