"""Counting the SQL statements this process sends (asyncpg, tortoise's and raw SQL alike)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import asyncpg

_CALLS = ("execute", "executemany", "fetch", "fetchrow", "fetchval")


@contextmanager
def statements_sent() -> Iterator[list[str]]:
    """Every statement sent inside the block, in order (BEGIN and COMMIT included), whitespace folded."""
    sent: list[str] = []
    originals = {name: getattr(asyncpg.Connection, name) for name in _CALLS}

    def counting(name: str) -> Any:
        def run(self: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
            sent.append(" ".join(str(query).split()))
            return originals[name](self, query, *args, **kwargs)
        return run

    for name in originals:
        setattr(asyncpg.Connection, name, counting(name))
    try:
        yield sent
    finally:
        for name, original in originals.items():
            setattr(asyncpg.Connection, name, original)
