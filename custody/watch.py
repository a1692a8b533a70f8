"""``custody watch``: the deposit watcher's state per network, and resuming a halted one.

    custody watch                                   every network: height read, halted or not (JSON)
    custody watch resume --network N [--from-height H]

A network's watcher halts when the chain replaced a block it had already credited as final (a
reorganization deeper than the network's confirmations, docs/networks.md "Reorganizations").
Resuming is the operator's decision, after settling what the halt details name (the deposits
credited above the fork point stay credited): the watcher forgets the replaced blocks and reads
the chain again from the fork point (or ``--from-height``), crediting the new branch once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys


def cmd_watch(args: argparse.Namespace) -> int:
    from core.settings import get_settings
    from core.unit_of_work import unit_of_work
    from custody.cli import _require_urls
    from custody.wiring import close_database, open_database
    from domain import deposits
    from domain.errors import DomainError

    if args.action == "resume" and not args.network:
        print("custody watch resume: --network is required", file=sys.stderr)
        return 2
    settings = get_settings()
    _require_urls(settings)

    async def run() -> object:
        await open_database(settings)
        try:
            if args.action == "resume":
                async with unit_of_work():
                    return await deposits.resume_watch(network_id=args.network, from_height=args.from_height)
            return await deposits.watch_states()
        finally:
            await close_database()

    try:
        print(json.dumps(asyncio.run(run()), indent=2, default=str))
    except (ValueError, DomainError) as exc:
        print(f"custody watch: {exc}", file=sys.stderr)
        return 2
    return 0
