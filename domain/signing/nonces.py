"""FROST round-one commitments made ahead of time: the service signers' nonce stock.

RFC 9591 section 5.1 lets a participant commit before the message is known. Each service
signer keeps a stock of nonce pairs in the single-use stock (domain/signing/stock.py), one kind
per scheme (:func:`kind`), holder = its participant number, no key set (a nonce pair is not tied
to a key: the commitment carries only the participant's identifier, and the key enters at
round two). The rules, in the order they apply:

1. :func:`make` (in the signer's process) draws each pair as RFC 9591's ``nonce_generate``
   does, hedged with a secret derived from the signer's own sealing key instead of a key share
   (a weak RNG alone still does not make the nonces predictable); the public part is the
   commitments ``hiding || binding``, the secret part the nonces, sealed with that key.
2. A signing request takes one pair per service participant in its own transaction
   (domain/signing/sessions.py): the commitments are known at once, round one costs no message,
   and a session of service participants goes straight to round two.
3. The signer spends its pair in the transaction that stores its signature share
   (domain/signing/service_signer.py ``sign_sessions``): a pair signs once, whatever crashes
   and retries happen, and a pair never taken never signs.
4. A signer process replaces what it spends: after each :data:`REFILL_CHECK_EVERY` pairs it
   spent it makes as many and stocks them, in a transaction after the spending one
   (``replace_spent_nonces``, never above :data:`TARGET`), so the stock's production grows with
   the processes of the pool. Below :data:`LOW_WATER` it refills up to :data:`TARGET`
   (``refill_nonces``, a chunk per transaction, nudged by that replacement, by a request that
   found the stock empty, and by the signing sweep). With an empty stock a request falls back
   to the live round one (``signer_N.commit``), so the stock is an optimisation, never a
   condition.
"""

from __future__ import annotations

from threshold.protocol import Frost

#: Refill when fewer pairs than this are available (per signer and scheme) ...
LOW_WATER = 400
#: ... up to this many.
TARGET = 1000
#: Pairs one INSERT stores while refilling (the work between two commits stays short).
REFILL_CHUNK = 250
#: A signer process replaces the pairs of a scheme it spent once they are this many.
REFILL_CHECK_EVERY = 50

_HEDGE_CONTEXT = b"custody:frost-nonce-stock:v1:"


def kind(scheme: str) -> str:
    """The stock kind of ``scheme``'s FROST nonce pairs."""
    return f"frost-nonce:{scheme}"


def commitment_parts(public: bytes) -> tuple[bytes, bytes]:
    """``(hiding, binding)`` from a pair's public part (``hiding || binding``, equal sizes)."""
    half = len(public) // 2
    return public[:half], public[half:]


def make(engine: Frost, participant: int, share_key: bytes, count: int) -> list[tuple[bytes, bytes]]:
    """``count`` fresh nonce pairs of ``participant`` as ``(public, secret)``: the commitments
    ``hiding || binding`` and the serialized nonces (to be sealed by the stock)."""
    hedge = engine.suite.H3(_HEDGE_CONTEXT + share_key)
    pairs = []
    for _ in range(count):
        nonces = engine.SigningNonces(engine.nonce_generate(hedge), engine.nonce_generate(hedge))
        commitments = nonces.commitments(participant)
        pairs.append((bytes(commitments.hiding) + bytes(commitments.binding), nonces.to_bytes()))
    return pairs
