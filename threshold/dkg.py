"""Pedersen distributed key generation with proofs of knowledge, for FROST(Ed25519, SHA-512).

This is the KeyGen protocol of the FROST paper (Komlo & Goldberg, "FROST:
Flexible Round-Optimized Schnorr Threshold Signatures", SAC 2020, Figure 1),
built on the primitives of :mod:`threshold.frost`.  It produces the same
:class:`~threshold.frost.KeyPackage` / :class:`~threshold.frost.PublicKeyPackage`
as trusted-dealer key generation, but the group secret never exists anywhere:
each participant only ever holds its own polynomial and its final share.

The protocol is split into explicit rounds whose inputs and outputs are
serialisable dataclasses, so every participant can run in its own process:

``round1(i, t, n, context)``
    Participant ``i`` samples ``f_i(x) = a_i0 + a_i1 x + ... + a_i(t-1) x^(t-1)``,
    publishes the coefficient commitments ``C_i = ([a_i0]B, ..., [a_i(t-1)]B)``
    and a Schnorr proof of knowledge ``sigma_i = (R_i, mu_i)`` of ``a_i0``.
    It keeps a :class:`Round1SecretPackage`.  -> **broadcast** :class:`Round1Package`.

``round2(secret, round1_packages)``
    Verifies every other participant's proof of knowledge (a failure raises
    :class:`InvalidProofOfKnowledge` naming the participant), then evaluates
    ``f_i(l)`` for every other participant ``l``.  Keeps a
    :class:`Round2SecretPackage`.  -> **private, per recipient**
    :class:`Round2Package` (contains a secret share: the transport must be
    confidential and authenticated).

``finalize(secret, round2_packages)``
    Verifies every received share against its sender's commitments
    (:class:`InvalidSecretShare` names the sender), computes
    ``s_i = sum_l f_l(i)``, ``PK_i = [s_i]B``, the group key
    ``PK = sum_l C_l[0]`` and every participant's verifying share from public
    data.  -> ``(KeyPackage, PublicKeyPackage)``.

Proof of knowledge (hash input, exactly)::

    c_i  = SHA-512( "FROST-ED25519-SHA512-v1" || "dkg-pok"
                    || uint64_be(len(context)) || context
                    || SerializeScalar(i)
                    || SerializeElement(C_i[0])
                    || SerializeElement(R_i) )  mod L
    R_i  = [k]B            (k random, non-zero)
    mu_i = k + a_i0 * c_i  (mod L)
    verify: R_i == [mu_i]B - [c_i] C_i[0]

This is the paper's ``c_i = H(i, Phi, g^{a_i0}, R_i)`` with ``Phi`` the
length-prefixed session context.  The context (e.g. ``b"vault:" + vault_id``
plus a per-attempt nonce) binds proofs to one key-generation session, so a
round-1 package replayed from another session fails verification.

Assumptions the caller must provide (not checkable here):

* round-1 packages are delivered by an authenticated *broadcast*: every
  participant must see the same package from each sender (compare the
  resulting ``PublicKeyPackage`` across participants before using the key);
* round-2 packages travel over confidential, authenticated channels;
* secret packages are stored encrypted between rounds and destroyed after
  :func:`finalize`.

Participant identifiers are ``1..n`` (``max_signers``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from nacl.bindings import crypto_core_ed25519_scalar_reduce

from threshold import frost
from threshold.encoding import HexError, parse_hex
from threshold.frost import (
    FrostError,
    KeyPackage,
    PublicKeyPackage,
)

__all__ = [
    "POK_LABEL",
    "DkgError",
    "DkgMissingPackage",
    "DkgCheatingParticipant",
    "InvalidProofOfKnowledge",
    "InvalidSecretShare",
    "Round1Package",
    "Round1SecretPackage",
    "Round2Package",
    "Round2SecretPackage",
    "proof_of_knowledge_challenge",
    "prove_knowledge",
    "verify_proof_of_knowledge",
    "public_key_package_from_commitments",
    "round1",
    "round2",
    "finalize",
]

#: Label appended to the FROST context string for the proof-of-knowledge hash;
#: distinct from RFC 9591's "rho", "nonce", "msg" and "com" labels.
POK_LABEL: bytes = b"dkg-pok"


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


class DkgError(FrostError):
    """Base class of key-generation failures (parameters, routing, missing data)."""


class DkgMissingPackage(DkgError):
    """An expected package from a participant was not supplied.

    :ivar participant: identifier of the participant whose package is missing.
    """

    def __init__(self, participant: int, round_name: str) -> None:
        self.participant: int = participant
        super().__init__(f"missing {round_name} package from participant {participant}")


class DkgCheatingParticipant(DkgError):
    """A participant sent data that is provably wrong; the session must be aborted
    and the participant excluded.

    :ivar participant: identifier of the participant at fault.
    :ivar reason: human-readable description (never contains secret values).
    """

    def __init__(self, participant: int, reason: str) -> None:
        self.participant: int = participant
        self.reason: str = reason
        super().__init__(f"participant {participant} misbehaved: {reason}")


class InvalidProofOfKnowledge(DkgCheatingParticipant):
    """A round-1 proof of knowledge of the constant term does not verify."""

    def __init__(self, participant: int) -> None:
        super().__init__(participant, "proof of knowledge of the secret constant term is invalid")


class InvalidSecretShare(DkgCheatingParticipant):
    """A round-2 share is inconsistent with its sender's round-1 commitments."""

    def __init__(self, participant: int) -> None:
        super().__init__(participant, "secret share is inconsistent with its published commitments")


# --------------------------------------------------------------------------
# Validation helpers
# --------------------------------------------------------------------------


def _check_params(identifier: int, min_signers: int, max_signers: int) -> None:
    for name, v in (("identifier", identifier), ("min_signers", min_signers), ("max_signers", max_signers)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise DkgError(f"{name} must be an int")
    if not 2 <= min_signers <= max_signers:
        raise DkgError(f"need 2 <= min_signers <= max_signers, got {min_signers} of {max_signers}")
    if not 1 <= identifier <= max_signers:
        raise DkgError(f"identifier must be in [1, {max_signers}], got {identifier}")


def _context_bytes(context: bytes | str) -> bytes:
    # The vault id is naturally a string; accept it and fix the encoding so
    # every participant hashes identical bytes.
    if isinstance(context, str):
        return context.encode("utf-8")
    if isinstance(context, (bytes, bytearray)):
        return bytes(context)
    raise DkgError("context must be bytes or str")


def _get(data: Mapping[str, Any], key: str) -> Any:
    if not isinstance(data, Mapping) or key not in data:
        raise DkgError(f"missing field {key!r}")
    return data[key]


def _unhex(value: Any, what: str) -> bytes:
    try:
        return parse_hex(value, what=what)
    except HexError as error:
        raise DkgError(str(error)) from None


def _int_field(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DkgError(f"{what} must be an integer")
    return value


# --------------------------------------------------------------------------
# Proof of knowledge
# --------------------------------------------------------------------------


def proof_of_knowledge_challenge(identifier: int, context: bytes | str, commitment0: bytes, r: bytes) -> bytes:
    """``c_i = H(i, Phi, [a_i0]B, R_i)``; see the module docstring for the exact bytes.

    The context is length-prefixed so that no (context, rest) split of the
    hash input is ambiguous; all other fields are fixed-size.
    """
    ctx = _context_bytes(context)
    digest = hashlib.sha512(
        frost.CONTEXT_STRING
        + POK_LABEL
        + len(ctx).to_bytes(8, "big")
        + ctx
        + frost.serialize_identifier(identifier)
        + frost.serialize_element(commitment0)
        + frost.serialize_element(r)
    ).digest()
    # 64-byte digest reduced mod L: bias below 2**-250, as RFC 9591's H1/H3.
    return crypto_core_ed25519_scalar_reduce(digest)


def prove_knowledge(identifier: int, context: bytes | str, secret: bytes) -> tuple[bytes, bytes]:
    """Schnorr proof of knowledge of ``secret`` for ``[secret]B``: returns ``(R, mu)``."""
    secret = frost.deserialize_scalar(secret, what="constant term", allow_zero=False)
    k = frost.random_scalar()
    r = frost.scalar_base_mult(k)
    c = proof_of_knowledge_challenge(identifier, context, frost.scalar_base_mult(secret), r)
    mu = frost.scalar_add(k, frost.scalar_mul(secret, c))
    return r, mu


def verify_proof_of_knowledge(
    identifier: int, context: bytes | str, commitment0: bytes, r: bytes, mu: bytes
) -> bool:
    """Check ``R == [mu]B - [c]C_0``.  All inputs must already be validated encodings."""
    c = proof_of_knowledge_challenge(identifier, context, commitment0, r)
    expected = frost.element_sub(frost.scalar_base_mult(mu), frost.scalar_mult(c, commitment0))
    return expected == r


# --------------------------------------------------------------------------
# Messages and state
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Round1Package:
    """Round-1 broadcast of participant ``sender``: commitments and proof of knowledge.

    :ivar sender: identifier of the participant that produced it.
    :ivar commitments: ``([a_0]B, ..., [a_(t-1)]B)``; length is the threshold.
    :ivar proof_r: ``R`` of the proof of knowledge of ``a_0``.
    :ivar proof_mu: ``mu`` of the proof of knowledge of ``a_0``.

    Malformed content raises :class:`DkgCheatingParticipant` naming ``sender``.
    """

    sender: int
    commitments: tuple[bytes, ...]
    proof_r: bytes
    proof_mu: bytes

    def __post_init__(self) -> None:
        sender = _int_field(self.sender, "sender")
        if sender < 1:
            raise DkgError(f"sender must be a positive identifier, got {sender}")
        try:
            if not isinstance(self.commitments, (tuple, list)) or len(self.commitments) < 2:
                raise frost.InvalidParameters("at least two coefficient commitments are required")
            commitments = tuple(
                frost.deserialize_element(c, what=f"commitment {k}") for k, c in enumerate(self.commitments)
            )
            r = frost.deserialize_element(self.proof_r, what="proof R")
            mu = frost.deserialize_scalar(self.proof_mu, what="proof mu")
        except FrostError as exc:
            raise DkgCheatingParticipant(sender, f"malformed round 1 package: {exc}") from None
        object.__setattr__(self, "commitments", commitments)
        object.__setattr__(self, "proof_r", r)
        object.__setattr__(self, "proof_mu", mu)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sender": self.sender,
            "commitments": [c.hex() for c in self.commitments],
            "proof_r": self.proof_r.hex(),
            "proof_mu": self.proof_mu.hex(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Round1Package":
        sender = _int_field(_get(data, "sender"), "sender")
        raw = _get(data, "commitments")
        if not isinstance(raw, list):
            raise DkgCheatingParticipant(sender, "malformed round 1 package: commitments must be a list")
        try:
            commitments = tuple(_unhex(c, "commitment") for c in raw)
            r = _unhex(_get(data, "proof_r"), "proof_r")
            mu = _unhex(_get(data, "proof_mu"), "proof_mu")
        except DkgError as exc:
            raise DkgCheatingParticipant(sender, f"malformed round 1 package: {exc}") from None
        return cls(sender, commitments, r, mu)


@dataclass(frozen=True)
class Round1SecretPackage:
    """State participant ``identifier`` keeps between round 1 and round 2.

    Holds the secret polynomial coefficients (excluded from ``repr``);
    ``to_dict`` output must be stored encrypted and destroyed after round 2.
    """

    identifier: int
    min_signers: int
    max_signers: int
    context: bytes
    coefficients: tuple[bytes, ...] = field(repr=False)

    def __post_init__(self) -> None:
        _check_params(self.identifier, self.min_signers, self.max_signers)
        object.__setattr__(self, "context", _context_bytes(self.context))
        if len(self.coefficients) != self.min_signers:
            raise DkgError("secret polynomial must have min_signers coefficients")
        coeffs = tuple(
            frost.deserialize_scalar(a, what="polynomial coefficient", allow_zero=False) for a in self.coefficients
        )
        object.__setattr__(self, "coefficients", coeffs)

    @property
    def commitments(self) -> tuple[bytes, ...]:
        """The public commitments to this participant's coefficients."""
        return tuple(frost.vss_commit(self.coefficients))

    def to_dict(self) -> dict[str, Any]:
        return {
            "identifier": self.identifier,
            "min_signers": self.min_signers,
            "max_signers": self.max_signers,
            "context": self.context.hex(),
            "coefficients": [a.hex() for a in self.coefficients],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Round1SecretPackage":
        coeffs = _get(data, "coefficients")
        if not isinstance(coeffs, list):
            raise DkgError("coefficients must be a list")
        return cls(
            _int_field(_get(data, "identifier"), "identifier"),
            _int_field(_get(data, "min_signers"), "min_signers"),
            _int_field(_get(data, "max_signers"), "max_signers"),
            _unhex(_get(data, "context"), "context"),
            tuple(_unhex(a, "coefficient") for a in coeffs),
        )


@dataclass(frozen=True)
class Round2Package:
    """Private round-2 message: ``signing_share = f_sender(recipient)``.

    Secret: send it only over a confidential, authenticated channel.
    Malformed content raises :class:`DkgCheatingParticipant` naming ``sender``.
    """

    sender: int
    recipient: int
    signing_share: bytes = field(repr=False)

    def __post_init__(self) -> None:
        sender = _int_field(self.sender, "sender")
        recipient = _int_field(self.recipient, "recipient")
        if sender < 1 or recipient < 1:
            raise DkgError("sender and recipient must be positive identifiers")
        if sender == recipient:
            raise DkgError("a round 2 package must be addressed to another participant")
        try:
            share = frost.deserialize_scalar(self.signing_share, what="secret share")
        except FrostError as exc:
            raise DkgCheatingParticipant(sender, f"malformed round 2 package: {exc}") from None
        object.__setattr__(self, "signing_share", share)

    def to_dict(self) -> dict[str, Any]:
        return {"sender": self.sender, "recipient": self.recipient, "signing_share": self.signing_share.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Round2Package":
        sender = _int_field(_get(data, "sender"), "sender")
        try:
            share = _unhex(_get(data, "signing_share"), "signing_share")
        except DkgError as exc:
            raise DkgCheatingParticipant(sender, f"malformed round 2 package: {exc}") from None
        return cls(sender, _int_field(_get(data, "recipient"), "recipient"), share)


@dataclass(frozen=True)
class Round2SecretPackage:
    """State participant ``identifier`` keeps between round 2 and finalize.

    :ivar own_share: ``f_i(i)`` (secret, excluded from ``repr``).
    :ivar commitments: every participant's verified round-1 commitments,
        including this participant's own, by identifier.

    ``to_dict`` output must be stored encrypted and destroyed after finalize.
    """

    identifier: int
    min_signers: int
    max_signers: int
    context: bytes
    own_share: bytes = field(repr=False)
    commitments: Mapping[int, tuple[bytes, ...]]

    def __post_init__(self) -> None:
        _check_params(self.identifier, self.min_signers, self.max_signers)
        object.__setattr__(self, "context", _context_bytes(self.context))
        object.__setattr__(self, "own_share", frost.deserialize_scalar(self.own_share, what="own share"))
        if set(self.commitments) != set(range(1, self.max_signers + 1)):
            raise DkgError("commitments must cover exactly participants 1..max_signers")
        commitments: dict[int, tuple[bytes, ...]] = {}
        for ident in sorted(self.commitments):
            cs = self.commitments[ident]
            if len(cs) != self.min_signers:
                raise DkgError(f"participant {ident} must have min_signers commitments")
            commitments[ident] = tuple(
                frost.deserialize_element(c, what=f"commitment of participant {ident}") for c in cs
            )
        object.__setattr__(self, "commitments", commitments)

    def to_dict(self) -> dict[str, Any]:
        return {
            "identifier": self.identifier,
            "min_signers": self.min_signers,
            "max_signers": self.max_signers,
            "context": self.context.hex(),
            "own_share": self.own_share.hex(),
            "commitments": {str(i): [c.hex() for c in cs] for i, cs in self.commitments.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Round2SecretPackage":
        raw = _get(data, "commitments")
        if not isinstance(raw, Mapping):
            raise DkgError("commitments must be an object")
        commitments: dict[int, tuple[bytes, ...]] = {}
        for k, cs in raw.items():
            try:
                ident = int(k)
            except (TypeError, ValueError):
                raise DkgError("commitments keys must be integer identifiers") from None
            if not isinstance(cs, list):
                raise DkgError("commitments values must be lists")
            commitments[ident] = tuple(_unhex(c, "commitment") for c in cs)
        return cls(
            _int_field(_get(data, "identifier"), "identifier"),
            _int_field(_get(data, "min_signers"), "min_signers"),
            _int_field(_get(data, "max_signers"), "max_signers"),
            _unhex(_get(data, "context"), "context"),
            _unhex(_get(data, "own_share"), "own_share"),
            commitments,
        )


# --------------------------------------------------------------------------
# Public derivation
# --------------------------------------------------------------------------


def public_key_package_from_commitments(
    commitments: Mapping[int, Sequence[bytes]], min_signers: int
) -> PublicKeyPackage:
    """Group public key and all verifying shares from the round-1 commitments alone.

    Summing the commitment vectors coefficient-wise gives commitments to the
    joint polynomial ``F = sum_l f_l``; then ``PK = F-commitment[0]`` and
    ``PK_j = sum_k [j^k] F-commitment[k]``.  Anyone holding the (verified)
    round-1 broadcasts can compute this, so a coordinator needs no secret.
    """
    if not commitments:
        raise DkgError("no commitments")
    joint = [frost.IDENTITY] * min_signers
    for ident in sorted(commitments):
        cs = commitments[ident]
        if len(cs) != min_signers:
            raise DkgCheatingParticipant(ident, f"expected {min_signers} commitments, got {len(cs)}")
        joint = [frost.element_add(acc, c) for acc, c in zip(joint, cs)]
    group_public_key = joint[0]
    if group_public_key == frost.IDENTITY:
        raise DkgError("group public key is the identity element")
    verifying_shares: dict[int, bytes] = {}
    for j in sorted(commitments):
        pk_j = frost.verifying_share_from_commitments(j, joint)
        if pk_j == frost.IDENTITY:
            raise DkgError(f"verifying share of participant {j} is the identity element")
        verifying_shares[j] = pk_j
    return PublicKeyPackage(group_public_key, verifying_shares, min_signers)


# --------------------------------------------------------------------------
# Rounds
# --------------------------------------------------------------------------


def round1(
    identifier: int, min_signers: int, max_signers: int, context: bytes | str
) -> tuple[Round1SecretPackage, Round1Package]:
    """Round 1: sample the secret polynomial, commit to it, prove knowledge of ``a_0``.

    Returns the secret state to keep (encrypted) and the package to broadcast.
    """
    _check_params(identifier, min_signers, max_signers)
    ctx = _context_bytes(context)
    # Non-zero coefficients: a zero coefficient would commit to the identity,
    # which is not a valid element on the wire.
    coefficients = tuple(frost.random_scalar() for _ in range(min_signers))
    secret = Round1SecretPackage(identifier, min_signers, max_signers, ctx, coefficients)
    r, mu = prove_knowledge(identifier, ctx, coefficients[0])
    return secret, Round1Package(identifier, secret.commitments, r, mu)


def _index_by_sender(
    packages: Iterable[Any], package_type: type, own: int, max_signers: int, round_name: str
) -> dict[int, Any]:
    by_sender: dict[int, Any] = {}
    for pkg in packages:
        if not isinstance(pkg, package_type):
            raise DkgError(f"expected {package_type.__name__}, got {type(pkg).__name__}")
        if not 1 <= pkg.sender <= max_signers:
            raise DkgError(f"{round_name} package from unknown participant {pkg.sender}")
        if pkg.sender in by_sender and by_sender[pkg.sender] != pkg:
            # Two different messages from one sender: equivocation.
            raise DkgCheatingParticipant(pkg.sender, f"sent conflicting {round_name} packages")
        by_sender[pkg.sender] = pkg
    for ident in range(1, max_signers + 1):
        if ident != own and ident not in by_sender:
            raise DkgMissingPackage(ident, round_name)
    return by_sender


def round2(
    secret: Round1SecretPackage, round1_packages: Iterable[Round1Package]
) -> tuple[Round2SecretPackage, dict[int, Round2Package]]:
    """Round 2: verify every other participant's proof of knowledge, then share.

    ``round1_packages`` must contain the broadcast of every other participant
    (this participant's own package may be included; it must then be
    unchanged).  Participants are checked in identifier order and the first
    invalid one raises :class:`InvalidProofOfKnowledge` (or
    :class:`DkgCheatingParticipant` for a wrong number of commitments).

    Returns the secret state for :func:`finalize` and the private packages,
    keyed by recipient.
    """
    i = secret.identifier
    own_commitments = secret.commitments
    by_sender = _index_by_sender(round1_packages, Round1Package, i, secret.max_signers, "round 1")
    if i in by_sender and by_sender[i].commitments != own_commitments:
        raise DkgError(f"round 1 package attributed to this participant ({i}) is not ours")

    commitments: dict[int, tuple[bytes, ...]] = {i: own_commitments}
    for sender in sorted(by_sender):
        if sender == i:
            continue
        pkg: Round1Package = by_sender[sender]
        if len(pkg.commitments) != secret.min_signers:
            raise DkgCheatingParticipant(
                sender, f"published {len(pkg.commitments)} commitments, expected {secret.min_signers}"
            )
        if not verify_proof_of_knowledge(sender, secret.context, pkg.commitments[0], pkg.proof_r, pkg.proof_mu):
            raise InvalidProofOfKnowledge(sender)
        commitments[sender] = pkg.commitments

    outgoing: dict[int, Round2Package] = {}
    for recipient in range(1, secret.max_signers + 1):
        if recipient == i:
            continue
        share = frost.polynomial_evaluate(frost.scalar_from_int(recipient), secret.coefficients)
        outgoing[recipient] = Round2Package(i, recipient, share)
    own_share = frost.polynomial_evaluate(frost.scalar_from_int(i), secret.coefficients)
    state = Round2SecretPackage(i, secret.min_signers, secret.max_signers, secret.context, own_share, commitments)
    return state, outgoing


def finalize(
    secret: Round2SecretPackage, round2_packages: Iterable[Round2Package]
) -> tuple[KeyPackage, PublicKeyPackage]:
    """Finalize (round 3): verify received shares, derive the key material.

    Each share ``f_l(i)`` is checked against ``sum_k [i^k] C_l[k]``; the
    first inconsistent sender (identifier order) raises
    :class:`InvalidSecretShare`.  Returns this participant's
    :class:`~threshold.frost.KeyPackage` and the :class:`~threshold.frost.PublicKeyPackage`
    that every honest participant derives identically.
    """
    i = secret.identifier
    packages = list(round2_packages)
    for pkg in packages:
        if isinstance(pkg, Round2Package) and pkg.recipient != i:
            raise DkgError(f"round 2 package from participant {pkg.sender} is addressed to {pkg.recipient}, not {i}")
    by_sender = _index_by_sender(packages, Round2Package, i, secret.max_signers, "round 2")
    if i in by_sender:
        raise DkgError("round 2 packages must come from other participants")

    signing_share = secret.own_share
    for sender in sorted(by_sender):
        share: bytes = by_sender[sender].signing_share
        if not frost.vss_verify((i, share), secret.commitments[sender]):
            raise InvalidSecretShare(sender)
        signing_share = frost.scalar_add(signing_share, share)

    public = public_key_package_from_commitments(secret.commitments, secret.min_signers)
    verifying_share = frost.scalar_base_mult(signing_share)
    # Our own f_i(i) was never checked against our commitments by anyone else;
    # this catches local corruption of the stored state.
    if verifying_share != public.verifying_shares[i]:
        raise DkgError("derived signing share does not match the public commitments")
    key_package = KeyPackage(i, signing_share, verifying_share, public.group_public_key)
    return key_package, public
