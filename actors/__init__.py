"""Dramatiq actors: thin wrappers around domain functions, one module per domain.

Importing this package collects the actors; :func:`declare_all` binds them to a broker.
Queues (one per job family): ``companies``, ``auth``, ``keys``, ``signing``, ``backups``,
``withdrawals``, ``notifications`` (and the others named in the README); and
``signer_1`` / ``signer_2``, each consumed only by its own signer process. See the README for
worker pools.
"""

from __future__ import annotations

import dramatiq

# Importing the modules registers their actors with core.jobs.
from actors import (  # noqa: E402,F401
    aml,
    audit,
    auth,
    backups,
    change_approvals,
    companies,
    deposits,
    devnet,
    gas_station,
    keys,
    notifications,
    service_signer,
    sessions,
    transaction_approvals,
    transactions,
    webhooks,
    withdrawals,
)
from core import jobs


def declare_all(broker: dramatiq.Broker) -> list[dramatiq.Actor]:
    return jobs.declare(broker)


def queue_names() -> list[str]:
    """Every queue an actor of this service uses (what a default worker consumes)."""
    return sorted({decl.queue for decl in jobs._declarations.values()})  # noqa: SLF001
