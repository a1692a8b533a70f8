"""``DATABASE_URL`` in the spellings each client wants (no driver imported: tools that only read
a table, such as ``custody queues``, start fast)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def asyncpg_url(url: str) -> str:
    """Tortoise names the asyncpg backend ``postgres://``; accept the common spellings."""
    for prefix in ("postgresql+asyncpg://", "postgresql://", "asyncpg://"):
        if url.startswith(prefix):
            return "postgres://" + url[len(prefix) :]
    return url


#: Query parameters of DATABASE_URL that tortoise reads for its pool; asyncpg.connect would send
#: them to PostgreSQL as server settings ("unrecognized configuration parameter").
POOL_PARAMETERS = frozenset({"minsize", "maxsize", "max_queries", "max_inactive_connection_lifetime"})


def direct_url(url: str) -> str:
    """``url`` for a single asyncpg connection: the ``postgresql://`` scheme, without the pool's parameters."""
    parts = urlsplit(asyncpg_url(url).replace("postgres://", "postgresql://", 1))
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k not in POOL_PARAMETERS])
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))
