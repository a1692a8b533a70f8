"""Benchmark: 2-of-3 threshold ECDSA (threshold.ecdsa, cait-sith) against plain ECDSA, in one process.

    .venv/bin/python bench/ecdsa.py [--seconds 4] [--withdrawals-per-hour 3600] [--refill-minutes 10]

Prints, in one run (about 30 seconds; no database, no broker, only the ``threshold`` package):

(a) the **online** signing rate: one signature from a presignature in stock, both signers'
    ``sign`` parties run to the end in this process (their two messages carried between them),
    the signature verified by recovery against the group key -- against plain ECDSA signing of
    the same digest by libsecp256k1 (coincurve ``sign_recoverable``, a recoverable signature as
    Ethereum needs), as a ratio measured in the same run;
(b) the **offline** rates per signer pair (1-2, the service signers; 1-3 and 2-3 with the
    co-signer): triples (two per signature) and presignatures (from two triples), with the bytes
    each protocol run sends, and the offline cost of one signature (two triples + a presignature);
(c) the **stock** a withdrawal rate needs: the triples (key-independent) or presignatures (one
    key set's) to hold so that ``--refill-minutes`` of withdrawals at ``--withdrawals-per-hour``
    never wait, and the share of one core that making them takes.

Rates are medians of short runs with their spread; the load average is printed with them,
because other processes on the machine move single runs a lot.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coincurve import PrivateKey  # noqa: E402

from threshold import ecdsa  # noqa: E402

PAIRS = [(1, 2), (1, 3), (2, 3)]
DIGEST = hashlib.sha256(b"an EIP-1559 signing hash").digest()


def median_rate(fn: Callable[[], Any], seconds: float, *, chunks: int = 5) -> tuple[float, float, float]:
    """Calls per second of ``fn``: the median of ``chunks`` runs, and the lowest and highest."""
    fn()
    rates = []
    for _ in range(chunks):
        count, start = 0, time.perf_counter()
        deadline = start + seconds / chunks
        while time.perf_counter() < deadline or count == 0:
            fn()
            count += 1
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates), min(rates), max(rates)


def fmt(rate: tuple[float, float, float]) -> str:
    median, low, high = rate
    return f"{median:9,.1f}/s  (runs {low:,.1f}..{high:,.1f})"


class Traffic:
    """Bytes sent by the parties of one protocol run (every message once per recipient)."""

    def __init__(self) -> None:
        self.bytes = 0

    def run(self, parties: list[ecdsa.Party[Any]]) -> dict[int, Any]:
        by_id = {p.participant: p for p in parties}
        while not all(p.done for p in parties):
            for party in parties:
                for message in party.outgoing():
                    for recipient in ([message.recipient] if message.recipient else by_id):
                        if recipient != party.participant:
                            self.bytes += len(message.data)
                            by_id[recipient].receive(message)
        return {p.participant: p.result for p in parties}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="measuring time per rate")
    parser.add_argument("--withdrawals-per-hour", type=float, default=3600.0)
    parser.add_argument("--refill-minutes", type=float, default=10.0,
                        help="how long the stock must last without new presignatures (a signer restart, a backlog)")
    args = parser.parse_args()
    print(f"threshold ECDSA (cait-sith via cait-sith-py) vs libsecp256k1; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} CPUs")

    shares = ecdsa.run_locally([ecdsa.keygen(n) for n in (1, 2, 3)])

    def triple(pair: tuple[int, int]) -> dict[int, ecdsa.Triple]:
        return ecdsa.run_locally([ecdsa.triple(n, pair) for n in pair])

    def presignature(pair: tuple[int, int]) -> dict[int, ecdsa.Presignature]:
        first, second = triple(pair), triple(pair)
        return ecdsa.run_locally([ecdsa.presign(n, pair, shares[n], first[n], second[n]) for n in pair])

    # (a) online signing, presignatures made beforehand (stock)
    pair = (1, 2)
    stock = [presignature(pair) for _ in range(40)]

    def online() -> None:
        presigned = stock.pop() if stock else presignature(pair)
        signed = ecdsa.run_locally([ecdsa.sign(n, pair, shares[n], presigned[n], DIGEST) for n in pair])
        assert ecdsa.verify(shares[1].public_key, DIGEST, signed[1].to_bytes())

    # Each online signature consumes a presignature; the stock is refilled between the runs.
    threshold_rates = []
    for _ in range(5):
        stock[:] = [presignature(pair) for _ in range(60)]
        start, count = time.perf_counter(), 0
        while stock and time.perf_counter() - start < args.seconds / 5:
            online()
            count += 1
        threshold_rates.append(count / (time.perf_counter() - start))
    threshold_rate = (statistics.median(threshold_rates), min(threshold_rates), max(threshold_rates))
    plain_key = PrivateKey()
    plain_rate = median_rate(lambda: plain_key.sign_recoverable(DIGEST, hasher=None), args.seconds)
    print("\n(a) online signing (a presignature in stock; both signers' sign runs, verified)")
    print(f"    threshold ECDSA 2-of-3, signers 1-2   {fmt(threshold_rate)}  {1e3 / threshold_rate[0]:.2f} ms each")
    print(f"    plain ECDSA (coincurve, recoverable)  {fmt(plain_rate)}")
    print(f"    ratio threshold / plain: {threshold_rate[0] / plain_rate[0]:.4f}")

    # (b) offline material per pair
    print("\n(b) offline material per signer pair (triples: two per signature; presignature: from two)")
    costs: dict[tuple[int, int], float] = {}
    for each in PAIRS:
        triple_rate = median_rate(lambda: triple(each), args.seconds / 2, chunks=3)
        triple_traffic = Traffic()
        triple_traffic.run([ecdsa.triple(n, each) for n in each])

        def made() -> None:
            first, second = triple(each), triple(each)
            ecdsa.run_locally([ecdsa.presign(n, each, shares[n], first[n], second[n]) for n in each])

        full_rate = median_rate(made, args.seconds / 2, chunks=3)
        probe = Traffic()
        first, second = triple(each), triple(each)
        probe.run([ecdsa.presign(n, each, shares[n], first[n], second[n]) for n in each])
        pool = [(triple(each), triple(each)) for _ in range(12)]

        def presign_only() -> None:
            a, b = pool.pop() if pool else (triple(each), triple(each))
            ecdsa.run_locally([ecdsa.presign(n, each, shares[n], a[n], b[n]) for n in each])

        presign_start, presign_count = time.perf_counter(), 0
        while pool:
            presign_only()
            presign_count += 1
        presign_rate = presign_count / (time.perf_counter() - presign_start)
        costs[each] = 1 / full_rate[0]
        label = f"{each[0]}-{each[1]}" + (" (service signers)" if each == (1, 2) else " (with the co-signer)")
        print(f"    pair {label}")
        print(f"      triples                            {fmt(triple_rate)}  {triple_traffic.bytes / 1024:,.0f} KB sent"
              " each")
        print(f"      presignatures from 2 triples       {presign_rate:9,.1f}/s  {probe.bytes:,} B sent each")
        print(f"      a signature's offline material     {fmt(full_rate)}  (2 triples + 1 presignature)")

    # (c) stock for a withdrawal rate
    per_second = args.withdrawals_per_hour / 3600
    needed = per_second * args.refill_minutes * 60
    busy = per_second * costs[(1, 2)]
    print(f"\n(c) stock for {args.withdrawals_per_hour:,.0f} EVM withdrawals an hour ({per_second:.2f}/s)")
    print(f"    to last {args.refill_minutes:g} minutes without refills: {2 * needed:,.0f} triples of pair 1-2 "
          f"(key-independent: one stock for every vault), or {needed:,.0f} presignatures of one key set "
          "(a presignature is bound to its key: a stock per key set that signs that often)")
    print(f"    making that material keeps the pair busy {100 * busy:.1f}% of one core on this machine (both "
          "parties ran in this process: about half of it per signer)")


if __name__ == "__main__":
    main()
