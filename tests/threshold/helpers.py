"""Helpers of the threshold tests: vector files, and participants run as separate processes would.

Every message and every secret state kept between rounds goes through JSON (``wire``), as it
does between the service's signers, the co-signer and the coordinator. Nothing here touches a
database or a broker.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

import pytest

from threshold.pedersen import PedersenDkg, Round1Package, Round2Package
from threshold.protocol import Frost, KeyPackage, PublicKeyPackage, SigningCommitments, SigningNonces

Round1Tamper = Callable[[dict[int, Round1Package]], dict[int, Round1Package]]
Round2Tamper = Callable[[dict[int, dict[int, Round2Package]]], dict[int, dict[int, Round2Package]]]


def vectors_dir() -> Path:
    # /work/main is the repository; the shared vectors live beside it.
    override = os.environ.get("CUSTODY_VECTORS_DIR")
    return Path(override) if override else Path(__file__).resolve().parents[3] / "shared" / "vectors"


def load_vectors(name: str) -> dict[str, Any]:
    """A vector file of the shared directory, or a test failure naming where it was looked for."""
    path = vectors_dir() / name
    if not path.exists():  # pragma: no cover - environment problem, not a code problem
        pytest.fail(f"test vectors not found at {path} (set CUSTODY_VECTORS_DIR)")
    return json.loads(path.read_text())


def h(x: str) -> bytes:
    return bytes.fromhex(x)


def wire(obj: Any) -> Any:
    """Send a message (or store a state) as JSON and parse it back on the other side."""
    return type(obj).from_dict(json.loads(json.dumps(obj.to_dict())))


def run_dkg(
    engine: PedersenDkg,
    min_signers: int,
    max_signers: int,
    context: str | bytes = "vault:test",
    *,
    tamper_round1: Round1Tamper | None = None,
    tamper_round2: Round2Tamper | None = None,
) -> tuple[dict[int, KeyPackage], dict[int, PublicKeyPackage]]:
    """Run all participants; each only ever sees its own secrets and received messages."""
    ids = range(1, max_signers + 1)

    # Round 1: each process samples its polynomial and broadcasts commitments + proof.
    r1_state: dict[int, dict[str, Any]] = {}
    broadcast: dict[int, Round1Package] = {}
    for i in ids:
        secret, pkg = engine.round1(i, min_signers, max_signers, context)
        r1_state[i] = secret.to_dict()  # stored (encrypted, in production) between rounds
        broadcast[i] = wire(pkg)
    if tamper_round1:
        broadcast = tamper_round1(broadcast)

    # Round 2: each process verifies the others' proofs and sends private shares.
    r2_state: dict[int, dict[str, Any]] = {}
    outbox: dict[int, dict[int, Round2Package]] = {}
    for i in ids:
        secret = engine.Round1SecretPackage.from_dict(r1_state[i])
        received = [wire(broadcast[sender]) for sender in ids if sender != i]
        state, out = engine.round2(secret, received)
        r2_state[i] = state.to_dict()
        outbox[i] = {recipient: wire(p) for recipient, p in out.items()}
    if tamper_round2:
        outbox = tamper_round2(outbox)

    # Finalize: each process verifies the shares it received.
    key_packages: dict[int, KeyPackage] = {}
    publics: dict[int, PublicKeyPackage] = {}
    for i in ids:
        state = engine.Round2SecretPackage.from_dict(r2_state[i])
        inbox = [outbox[sender][i] for sender in ids if sender != i]
        kp, pub = engine.finalize(state, inbox)
        key_packages[i] = wire(kp)
        publics[i] = wire(pub)
    return key_packages, publics


def signing_session(
    frost: Frost, key_packages: dict[int, KeyPackage], signers: list[int]
) -> tuple[dict[int, SigningNonces], list[SigningCommitments]]:
    """Round one of ``signers``: their nonces, and the sorted commitment list the coordinator sends."""
    nonces: dict[int, SigningNonces] = {}
    commitments: list[SigningCommitments] = []
    for i in sorted(signers):
        nonces[i], commitment = frost.commit(key_packages[i])
        commitments.append(wire(commitment))
    return nonces, commitments


def threshold_sign(
    frost: Frost,
    key_packages: dict[int, KeyPackage],
    public: PublicKeyPackage,
    signers: list[int],
    msg: bytes,
) -> bytes:
    """Both rounds and the aggregation, messages through JSON."""
    nonces, commitments = signing_session(frost, key_packages, signers)
    shares = [
        wire(frost.sign(key_packages[i], nonces[i], msg, commitments, min_signers=public.min_signers))
        for i in sorted(signers)
    ]
    return frost.aggregate(commitments, msg, shares, public)
