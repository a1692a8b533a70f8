#!/usr/bin/env python3
"""Withdraw from a wallet with an idempotency key, then follow the transaction.

    python examples/withdraw.py custody-credentials.json --wallet WALLET_ID --to ADDRESS --amount ATOMIC [--key KEY]

It calls the spec's ``POST /api/v1/transaction`` (body ``amount`` in atomic units as a string,
``source_wallet_id``, ``target_address``; header ``X-Idempotency-Key``) with ``Custody.request``,
which any path accepts; the generated operation can be called with
``custody.call(..., idempotency_key=key)`` the same way. The destination must be whitelisted or
one-time transfers allowed (``docs/withdrawals.md``).

What the key buys: the SDK sends the same ``X-Idempotency-Key`` on every attempt and retries the
POST on connection failures and 5xx (a POST without a key is never retried). The service answers
a key it has seen with 409 and the transaction it created then, which the SDK returns as the
success (``replayed``). Keep the key with your own record of the payment and send it again if you
are unsure whether the first request went through: at most one transaction exists per key. This
script shows that by sending the request twice.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid

from custody_sdk import Custody, CustodyError

TRANSACTION_PATH = "/api/v1/transaction"
#: Statuses after which a withdrawal changes no more (docs/withdrawals.md).
FINAL = {"finished", "declined", "failed", "cancelled", "expired"}


async def main(args: argparse.Namespace) -> None:
    key = args.key or f"withdraw-{uuid.uuid4()}"
    body = {"amount": args.amount, "source_wallet_id": args.wallet, "target_address": args.to}
    async with Custody.from_credentials_file(args.credentials) as custody:
        print(f"idempotency key: {key}  (run again with --key {key} to repeat safely)")
        first = await custody.request("POST", TRANSACTION_PATH, json=body, idempotency_key=key)
        transaction = first.json
        print(f"transaction {transaction['id']}: {transaction['status']} (replayed: {first.replayed})")

        again = await custody.request("POST", TRANSACTION_PATH, json=body, idempotency_key=key)
        print(f"same key again -> transaction {again.json['id']} (replayed: {again.replayed})")
        assert again.json["id"] == transaction["id"], "one key, one transaction"

        deadline, status = time.monotonic() + args.follow, transaction["status"]
        while status not in FINAL and time.monotonic() < deadline:
            await asyncio.sleep(2)
            current = (await custody.request("GET", f"/api/v1/transactions/{transaction['id']}")).json
            if current["status"] != status:
                status = current["status"]
                print(f"  -> {status} {current.get('tx_hash') or ''}")
        print(f"transaction {transaction['id']} is {status}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("credentials", help="the file `custody bootstrap --out` wrote")
    parser.add_argument("--wallet", required=True, help="the source wallet's id (GET /api/v1/asset)")
    parser.add_argument("--to", required=True, help="the target address")
    parser.add_argument("--amount", required=True, help="atomic units, e.g. 100000000000000000 for 0.1 DETH")
    parser.add_argument("--key", help="the idempotency key (default: a new one, printed)")
    parser.add_argument("--follow", type=float, default=120, help="seconds to follow the transaction's status")
    try:
        asyncio.run(main(parser.parse_args()))
    except CustodyError as error:
        sys.exit(f"withdraw: {error}")
