"""Benchmark: 2-of-3 threshold signing against single-signer signing, in one process.

    .venv/bin/python bench/threshold.py [--seconds 2] [--only ed25519|taproot]

Prints, in one run (10 to 20 seconds; no database, no broker, only the ``threshold`` package):

(a) FROST(Ed25519, SHA-512) 2-of-3 signatures per second: both signers' round 1
    (``frost.commit``) and round 2 (``frost.sign``), then the coordinator's ``frost.aggregate``,
    which verifies every signature share, from a key made by the Pedersen DKG -- against plain
    Ed25519 signing (PyNaCl ``SigningKey.sign``) as a ratio, and against the target of
    1,000 signatures per second. Also the same flow on two threads of this process
    (libsodium runs without the GIL), the way a worker with several threads would sign.
(b) FROST(secp256k1, SHA-256)-Taproot 2-of-3 signatures per second (BIP-340 signatures for a
    key-path-only BIP-341 output key, ``taproot.TAPROOT``), against plain BIP-340 signing
    (coincurve ``PrivateKey.sign_schnorr``, which also verifies what it signs) as a ratio.
(c) Where the time goes, per signature: by phase (round 1, round 2, aggregation), and by
    primitive (the libsodium / libsecp256k1 calls, timed and counted with cProfile; what
    remains of the unprofiled time is Python: protocol logic, hashing, encodings, checks).

Rates are the median of short runs (the spread is printed), because other processes on the
machine move single runs a lot; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_PER_SECOND = 1000
MESSAGE = b"\x5a" * 32  # a 32-byte sighash; Ed25519 signs it as a message too


# --------------------------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------------------------


class Rate:
    """Calls per second of a function: the median of short runs, and their spread."""

    def __init__(self, fn: Callable[[], Any], seconds: float, *, chunks: int = 8) -> None:
        fn()  # warm up (caches, lazily bound classes)
        rates = []
        for _ in range(chunks):
            count, start = 0, time.perf_counter()
            deadline = start + seconds / chunks
            while time.perf_counter() < deadline:
                fn()
                count += 1
            rates.append(count / (time.perf_counter() - start))
        self.median = statistics.median(rates)
        self.low, self.high = min(rates), max(rates)

    def __str__(self) -> str:
        return f"{self.median:9,.0f}/s  (runs {self.low:,.0f}..{self.high:,.0f})"


def threaded_rate(fn: Callable[[], Any], seconds: float, threads: int) -> float:
    """Calls per second of ``fn`` run by ``threads`` threads of this process at once."""
    fn()
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def worker(k: int) -> None:
        while time.perf_counter() < stop:
            fn()
            counts[k] += 1

    start = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return sum(counts) / (time.perf_counter() - start)


def phases(flow: Callable[[], tuple[Callable[[], Any], Callable[[Any], Any], Callable[[Any], Any]]], n: int) -> dict[str, float]:
    """Microseconds per signature of each phase, over ``n`` signatures."""
    totals: dict[str, float] = defaultdict(float)
    round1, round2, aggregate = flow()
    for _ in range(n):
        t0 = time.perf_counter()
        state = round1()
        t1 = time.perf_counter()
        shares = round2(state)
        t2 = time.perf_counter()
        aggregate((state, shares))
        t3 = time.perf_counter()
        totals["round 1: both signers commit"] += t1 - t0
        totals["round 2: both signers sign"] += t2 - t1
        totals["aggregate: verify every share, aggregate"] += t3 - t2
    return {name: total / n * 1e6 for name, total in totals.items()}


#: Library calls by kind: (substring of the cProfile entry, label).
PRIMITIVES = [
    ("crypto_scalarmult_ed25519_noclamp", "variable-base scalar mult (libsodium, incl. its subgroup check)"),
    ("crypto_scalarmult_ed25519_base_noclamp", "fixed-base scalar mult (libsodium)"),
    ("crypto_core_ed25519_add", "point addition (libsodium, decode 2 + encode 1)"),
    ("crypto_core_ed25519_sub", "point addition (libsodium, decode 2 + encode 1)"),
    ("crypto_sign_open", "Ed25519 signature check: double-scalar mult (libsodium)"),
    ("crypto_core_ed25519_is_valid_point", "point validation (libsodium)"),
    ("crypto_core_ed25519_scalar", "scalar arithmetic (libsodium)"),
    ("secp256k1_ec_pubkey_tweak_mul", "variable-base scalar mult (libsecp256k1)"),
    ("secp256k1_ec_pubkey_create", "fixed-base scalar mult (libsecp256k1)"),
    ("secp256k1_ec_pubkey_combine", "point addition (libsecp256k1)"),
    ("secp256k1_ec_pubkey_parse", "point decoding (libsecp256k1)"),
    ("secp256k1_xonly_pubkey_parse", "point decoding (libsecp256k1)"),
    ("secp256k1_ec_pubkey_serialize", "point encoding (libsecp256k1)"),
    ("secp256k1_schnorrsig_verify", "BIP-340 check: double-scalar mult (libsecp256k1)"),
    ("openssl_sha", "hashing (SHA-2)"),
]


def primitives(one_signature: Callable[[], Any], n: int, per_signature_us: float) -> list[tuple[str, float, float]]:
    """``(label, calls, microseconds)`` per signature, from a cProfile run of ``n`` signatures.

    cProfile times C calls accurately but slows Python code down, so the Python share is the
    unprofiled time per signature minus the library time.
    """
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(n):
        one_signature()
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    calls: dict[str, float] = defaultdict(float)
    seconds: dict[str, float] = defaultdict(float)
    for (_, _, name), (_, ncalls, tottime, _, _) in stats.items():
        for needle, label in PRIMITIVES:
            if needle in name and name.startswith("<built-in"):
                calls[label] += ncalls / n
                seconds[label] += tottime / n * 1e6
                break
    rows = sorted(((label, calls[label], seconds[label]) for label in seconds), key=lambda row: -row[2])
    library = sum(us for _, _, us in rows)
    rows.append(("Python: protocol logic, encodings, checks (the rest)", 0.0, max(per_signature_us - library, 0.0)))
    return rows


def print_breakdown(title: str, phase_us: dict[str, float], rows: list[tuple[str, float, float]], total_us: float) -> None:
    print(f"\n  where the time goes, {title} ({total_us:,.0f} us per signature):")
    for name, us in phase_us.items():
        print(f"    {name:<58} {us:7,.0f} us")
    print()
    for label, count, us in rows:
        count_text = f"{count:4.1f} x" if count else "      "
        print(f"    {label:<58} {count_text} {us:7,.0f} us  {100 * us / total_us:4.0f}%")


# --------------------------------------------------------------------------------------------
# The signing flow, for any engine
# --------------------------------------------------------------------------------------------


class Flow:
    """2-of-3 signing in one process: both signers' rounds, then the coordinator's aggregation."""

    def __init__(self, engine: Any, dkg: Any, signers: tuple[int, ...] = (1, 2)) -> None:
        ids = (1, 2, 3)
        round1 = {i: dkg.round1(i, 2, 3, b"bench") for i in ids}
        round2 = {i: dkg.round2(round1[i][0], [round1[j][1] for j in ids if j != i]) for i in ids}
        finals = {i: dkg.finalize(round2[i][0], [round2[j][1][i] for j in ids if j != i]) for i in ids}
        self.engine, self.signers = engine, signers
        self.key_packages, self.public = {i: finals[i][0] for i in ids}, finals[1][1]

    def commit(self) -> tuple[dict[int, Any], list[Any]]:
        nonces, commitments = {}, []
        for i in self.signers:
            nonces[i], commitment = self.engine.commit(self.key_packages[i])
            commitments.append(commitment)
        return nonces, commitments

    def sign(self, state: tuple[dict[int, Any], list[Any]]) -> list[Any]:
        nonces, commitments = state
        return [self.engine.sign(self.key_packages[i], nonces[i], MESSAGE, commitments, min_signers=2)
                for i in self.signers]

    def aggregate(self, state: tuple[tuple[dict[int, Any], list[Any]], list[Any]]) -> bytes:
        (_, commitments), shares = state
        return self.engine.aggregate(commitments, MESSAGE, shares, self.public)

    def one_signature(self) -> bytes:
        state = self.commit()
        return self.aggregate((state, self.sign(state)))


def compare(title: str, name: str, flow: Flow, plain_name: str, plain: Rate, seconds: float, *, target: bool) -> None:
    """Print the threshold rate against single-signer signing, and where the time goes."""
    threshold = Rate(flow.one_signature, seconds)
    print(title)
    print(f"    {plain_name:<42}{plain}")
    print(f"    {'FROST 2-of-3, one thread':<42}{threshold}")
    print(f"    {'FROST / single-signer':<42}{threshold.median / plain.median:9.4f}  "
          f"({plain.median / threshold.median:.0f} times slower)")
    if target:
        two_threads = threaded_rate(flow.one_signature, seconds / 2, 2)
        print(f"    {f'FROST / target of {TARGET_PER_SECOND:,}/s':<42}{threshold.median / TARGET_PER_SECOND:9.2f}")
        print(f"    {'FROST 2-of-3, two threads':<42}{two_threads:9,.0f}/s  (/ target: {two_threads / TARGET_PER_SECOND:.2f})")
    phase_us = phases(lambda: (flow.commit, flow.sign, flow.aggregate), 300)
    total_us = sum(phase_us.values())
    print_breakdown(name, phase_us, primitives(flow.one_signature, 300, total_us), total_us)


def ed25519(seconds: float) -> None:
    from nacl.signing import SigningKey, VerifyKey

    from threshold import dkg, frost

    flow = Flow(frost.FROST, dkg.DKG)
    VerifyKey(flow.public.group_public_key).verify(MESSAGE, flow.one_signature())
    plain_key = SigningKey.generate()
    compare("(a) FROST(Ed25519, SHA-512), 2 of 3, every signature share verified, one process", "FROST(Ed25519)", flow,
            "plain Ed25519 signing (PyNaCl)", Rate(lambda: plain_key.sign(MESSAGE), seconds), seconds, target=True)


def taproot(seconds: float) -> None:
    from coincurve import PrivateKey, PublicKeyXOnly

    from threshold import dkg_secp256k1
    from threshold.taproot import TAPROOT, output_key

    # A key-path-only output (BIP-341's recommendation): signatures for the tweaked output key.
    flow = Flow(TAPROOT.for_output(b""), dkg_secp256k1.DKG)
    assert PublicKeyXOnly(output_key(flow.public)[0]).verify(flow.one_signature(), MESSAGE)
    plain_key = PrivateKey()
    print()
    compare("(b) FROST(secp256k1, SHA-256)-Taproot, 2 of 3, every share verified, BIP-341 key-path output",
            "FROST-Taproot", flow,
            "plain BIP-340 signing (coincurve)", Rate(lambda: plain_key.sign_schnorr(MESSAGE), seconds), seconds,
            target=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="measuring time of each rate")
    parser.add_argument("--only", choices=("ed25519", "taproot"), help="run one part only")
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}\n")
    if args.only in (None, "ed25519"):
        ed25519(args.seconds)
    if args.only in (None, "taproot"):
        taproot(args.seconds)


if __name__ == "__main__":
    main()
