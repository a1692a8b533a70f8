"""Pedersen distributed key generation with proofs of knowledge, for any FROST ciphersuite.

This is the KeyGen protocol of the FROST paper (Komlo & Goldberg, "FROST: Flexible
Round-Optimized Schnorr Threshold Signatures", SAC 2020, Figure 1), implemented once over
:class:`threshold.protocol.Frost`. It produces the same key packages as trusted-dealer key
generation, but the group secret never exists anywhere: each participant only ever holds its
own polynomial and its final share. :mod:`threshold.dkg` (Ed25519) and
:mod:`threshold.dkg_secp256k1` bind it to a ciphersuite.

The protocol is split into explicit rounds whose inputs and outputs are serialisable
dataclasses, so every participant can run in its own process:

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

    c_i  = HashToScalar( contextString || "dkg-pok",
                         uint64_be(len(context)) || context
                         || SerializeScalar(i)
                         || SerializeElement(C_i[0])
                         || SerializeElement(R_i) )
    R_i  = [k]B            (k random, non-zero)
    mu_i = k + a_i0 * c_i  (mod order)
    verify: R_i == [mu_i]B - [c_i] C_i[0]

``HashToScalar`` is the suite's H1/H3 construction with the label ``"dkg-pok"``: for Ed25519
SHA-512 of ``contextString || "dkg-pok" || input`` reduced mod L, for secp256k1 RFC 9380's
hash_to_field with that DST. This is the paper's ``c_i = H(i, Phi, g^{a_i0}, R_i)`` with
``Phi`` the length-prefixed session context. The context (e.g. ``b"vault:" + vault_id`` plus a
per-attempt nonce) binds proofs to one key-generation session, so a round-1 package replayed
from another session fails verification, and the identifier binds it to its sender, so a
package relabelled with another sender fails too.

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

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping, Self, Sequence, TypeAlias

from threshold.encoding import HexError, parse_hex
from threshold.errors import FrostError, InvalidParameters
from threshold.protocol import BoundClass, Frost, GroupBound, KeyPackage, PublicKeyPackage

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
    "PedersenDkg",
]

#: Label appended to the ciphersuite's context string for the proof-of-knowledge hash;
#: distinct from RFC 9591's "rho", "nonce", "msg", "com" and "chal" labels.
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


class _SessionState:
    """What both secret states start with: whose they are, the parameters and the session context."""

    identifier: int
    min_signers: int
    max_signers: int
    context: bytes

    def _session_dict(self) -> dict[str, Any]:
        return {
            "identifier": self.identifier,
            "min_signers": self.min_signers,
            "max_signers": self.max_signers,
            "context": self.context.hex(),
        }

    @staticmethod
    def _session_fields(data: Mapping[str, Any]) -> tuple[int, int, int, bytes]:
        ints = (_int_field(_get(data, name), name) for name in ("identifier", "min_signers", "max_signers"))
        return (*ints, _unhex(_get(data, "context"), "context"))  # type: ignore[return-value]  # the fields as parsed


# --------------------------------------------------------------------------
# Messages and state (generic; bound to a group like threshold.protocol's)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Round1Package(GroupBound):
    """Round-1 broadcast of participant ``sender``: commitments and proof of knowledge.

    :ivar sender: identifier of the participant that produced it.
    :ivar commitments: ``([a_0]B, ..., [a_(t-1)]B)``; length is the threshold.
    :ivar proof_r: ``R`` of the proof of knowledge of ``a_0``.
    :ivar proof_mu: ``mu`` of the proof of knowledge of ``a_0``.

    Malformed content raises :class:`DkgCheatingParticipant` naming ``sender``.
    """

    _generic: ClassVar[bool] = True

    sender: int
    commitments: tuple[bytes, ...]
    proof_r: bytes
    proof_mu: bytes

    def __post_init__(self) -> None:
        g = self.group
        sender = _int_field(self.sender, "sender")
        if sender < 1:
            raise DkgError(f"sender must be a positive identifier, got {sender}")
        try:
            if not isinstance(self.commitments, (tuple, list)) or len(self.commitments) < 2:
                raise InvalidParameters("at least two coefficient commitments are required")
            commitments = tuple(g.deserialize_element(c, what=f"commitment {k}") for k, c in enumerate(self.commitments))
            r = g.deserialize_element(self.proof_r, what="proof R")
            mu = g.deserialize_scalar(self.proof_mu, what="proof mu")
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
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
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
class Round1SecretPackage(GroupBound, _SessionState):
    """State participant ``identifier`` keeps between round 1 and round 2.

    Holds the secret polynomial coefficients (excluded from ``repr``);
    ``to_dict`` output must be stored encrypted and destroyed after round 2.
    """

    _generic: ClassVar[bool] = True

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
            self.group.deserialize_scalar(a, what="polynomial coefficient", allow_zero=False) for a in self.coefficients
        )
        object.__setattr__(self, "coefficients", coeffs)

    @property
    def commitments(self) -> tuple[bytes, ...]:
        """The public commitments to this participant's coefficients."""
        return tuple(self.group.scalar_base_mult(a) for a in self.coefficients)

    def to_dict(self) -> dict[str, Any]:
        return {**self._session_dict(), "coefficients": [a.hex() for a in self.coefficients]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        coeffs = _get(data, "coefficients")
        if not isinstance(coeffs, list):
            raise DkgError("coefficients must be a list")
        return cls(*cls._session_fields(data), tuple(_unhex(a, "coefficient") for a in coeffs))


@dataclass(frozen=True)
class Round2Package(GroupBound):
    """Private round-2 message: ``signing_share = f_sender(recipient)``.

    Secret: send it only over a confidential, authenticated channel.
    Malformed content raises :class:`DkgCheatingParticipant` naming ``sender``.
    """

    _generic: ClassVar[bool] = True

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
            share = self.group.deserialize_scalar(self.signing_share, what="secret share")
        except FrostError as exc:
            raise DkgCheatingParticipant(sender, f"malformed round 2 package: {exc}") from None
        object.__setattr__(self, "signing_share", share)

    def to_dict(self) -> dict[str, Any]:
        return {"sender": self.sender, "recipient": self.recipient, "signing_share": self.signing_share.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        sender = _int_field(_get(data, "sender"), "sender")
        try:
            share = _unhex(_get(data, "signing_share"), "signing_share")
        except DkgError as exc:
            raise DkgCheatingParticipant(sender, f"malformed round 2 package: {exc}") from None
        return cls(sender, _int_field(_get(data, "recipient"), "recipient"), share)


@dataclass(frozen=True)
class Round2SecretPackage(GroupBound, _SessionState):
    """State participant ``identifier`` keeps between round 2 and finalize.

    :ivar own_share: ``f_i(i)`` (secret, excluded from ``repr``).
    :ivar commitments: every participant's verified round-1 commitments,
        including this participant's own, by identifier.

    ``to_dict`` output must be stored encrypted and destroyed after finalize.
    """

    _generic: ClassVar[bool] = True

    identifier: int
    min_signers: int
    max_signers: int
    context: bytes
    own_share: bytes = field(repr=False)
    commitments: Mapping[int, tuple[bytes, ...]]

    def __post_init__(self) -> None:
        g = self.group
        _check_params(self.identifier, self.min_signers, self.max_signers)
        object.__setattr__(self, "context", _context_bytes(self.context))
        object.__setattr__(self, "own_share", g.deserialize_scalar(self.own_share, what="own share"))
        if set(self.commitments) != set(range(1, self.max_signers + 1)):
            raise DkgError("commitments must cover exactly participants 1..max_signers")
        commitments: dict[int, tuple[bytes, ...]] = {}
        for ident in sorted(self.commitments):
            cs = self.commitments[ident]
            if len(cs) != self.min_signers:
                raise DkgError(f"participant {ident} must have min_signers commitments")
            commitments[ident] = tuple(g.deserialize_element(c, what=f"commitment of participant {ident}") for c in cs)
        object.__setattr__(self, "commitments", commitments)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._session_dict(),
            "own_share": self.own_share.hex(),
            "commitments": {str(i): [c.hex() for c in cs] for i, cs in self.commitments.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
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
        return cls(*cls._session_fields(data), _unhex(_get(data, "own_share"), "own_share"), commitments)


# --------------------------------------------------------------------------
# The protocol
# --------------------------------------------------------------------------


# In the engine's class body its attributes (``X = BoundClass(X)``) shadow the data classes'
# names: its annotations name the data classes through these aliases.
_Round1Package: TypeAlias = Round1Package
_Round1SecretPackage: TypeAlias = Round1SecretPackage
_Round2Package: TypeAlias = Round2Package
_Round2SecretPackage: TypeAlias = Round2SecretPackage


class PedersenDkg:
    """The DKG bound to one FROST protocol instance (its ciphersuite and key package types).

    The data classes of the suite's group are attributes (``Round1Package``,
    ``Round1SecretPackage``, ``Round2Package``, ``Round2SecretPackage``).
    """

    def __init__(self, frost: Frost) -> None:
        self.frost = frost
        self.group = frost.group

    def __repr__(self) -> str:
        return f"<PedersenDkg {self.frost.suite.context_string.decode()}>"

    Round1Package = BoundClass(Round1Package)
    Round1SecretPackage = BoundClass(Round1SecretPackage)
    Round2Package = BoundClass(Round2Package)
    Round2SecretPackage = BoundClass(Round2SecretPackage)

    # -- proof of knowledge ------------------------------------------------------------

    def proof_of_knowledge_challenge(self, identifier: int, context: bytes | str, commitment0: bytes, r: bytes) -> bytes:
        """``c_i = H(i, Phi, [a_i0]B, R_i)``; see the module docstring for the exact bytes.

        The context is length-prefixed so that no (context, rest) split of the hash input is
        ambiguous; all other fields are fixed-size.
        """
        g = self.group
        ctx = _context_bytes(context)
        return self.frost.suite.hash_to_scalar(
            POK_LABEL,
            len(ctx).to_bytes(8, "big")
            + ctx
            + g.serialize_identifier(identifier)
            + g.serialize_element(commitment0)
            + g.serialize_element(r),
        )

    def prove_knowledge(self, identifier: int, context: bytes | str, secret: bytes) -> tuple[bytes, bytes]:
        """Schnorr proof of knowledge of ``secret`` for ``[secret]B``: returns ``(R, mu)``."""
        g = self.group
        secret = g.deserialize_scalar(secret, what="constant term", allow_zero=False)
        k = g.random_scalar()
        r = g.scalar_base_mult(k)
        c = self.proof_of_knowledge_challenge(identifier, context, g.scalar_base_mult(secret), r)
        mu = g.scalar_add(k, g.scalar_mul(secret, c))
        return r, mu

    def verify_proof_of_knowledge(
        self, identifier: int, context: bytes | str, commitment0: bytes, r: bytes, mu: bytes
    ) -> bool:
        """Check ``R == [mu]B - [c]C_0``.  All inputs must already be validated encodings."""
        g = self.group
        c = self.proof_of_knowledge_challenge(identifier, context, commitment0, r)
        expected = g.element_sub(g.scalar_base_mult(mu), g.scalar_mult(c, commitment0))
        return expected == r

    # -- public derivation ---------------------------------------------------------------

    def public_key_package_from_commitments(
        self, commitments: Mapping[int, Sequence[bytes]], min_signers: int
    ) -> PublicKeyPackage:
        """Group public key and all verifying shares from the round-1 commitments alone.

        Summing the commitment vectors coefficient-wise gives commitments to the joint
        polynomial ``F = sum_l f_l``; then ``PK = F-commitment[0]`` and
        ``PK_j = sum_k [j^k] F-commitment[k]``. Anyone holding the (verified) round-1
        broadcasts can compute this, so a coordinator needs no secret.
        """
        g = self.group
        if not commitments:
            raise DkgError("no commitments")
        joint = [g.identity] * min_signers
        for ident in sorted(commitments):
            cs = commitments[ident]
            if len(cs) != min_signers:
                raise DkgCheatingParticipant(ident, f"expected {min_signers} commitments, got {len(cs)}")
            joint = [g.element_add(acc, c) for acc, c in zip(joint, cs)]
        group_public_key = joint[0]
        if g.is_identity(group_public_key):
            raise DkgError("group public key is the identity element")
        verifying_shares: dict[int, bytes] = {}
        for j in sorted(commitments):
            pk_j = self.frost.verifying_share_from_commitments(j, joint)
            if g.is_identity(pk_j):
                raise DkgError(f"verifying share of participant {j} is the identity element")
            verifying_shares[j] = pk_j
        return self.frost.PublicKeyPackage(group_public_key, verifying_shares, min_signers)

    # -- rounds --------------------------------------------------------------------------

    def round1(
        self, identifier: int, min_signers: int, max_signers: int, context: bytes | str
    ) -> tuple[_Round1SecretPackage, _Round1Package]:
        """Round 1: sample the secret polynomial, commit to it, prove knowledge of ``a_0``.

        Returns the secret state to keep (encrypted) and the package to broadcast.
        """
        _check_params(identifier, min_signers, max_signers)
        ctx = _context_bytes(context)
        # Non-zero coefficients: a zero coefficient would commit to the identity,
        # which is not a valid element on the wire.
        coefficients = tuple(self.group.random_scalar() for _ in range(min_signers))
        secret = self.Round1SecretPackage(identifier, min_signers, max_signers, ctx, coefficients)
        r, mu = self.prove_knowledge(identifier, ctx, coefficients[0])
        return secret, self.Round1Package(identifier, secret.commitments, r, mu)

    @staticmethod
    def _index_by_sender(
        packages: Iterable[Any], package_type: type[_Round1Package] | type[_Round2Package], own: int, max_signers: int,
        round_name: str
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
        self, secret: _Round1SecretPackage, round1_packages: Iterable[_Round1Package]
    ) -> tuple[_Round2SecretPackage, dict[int, _Round2Package]]:
        """Round 2: verify every other participant's proof of knowledge, then share.

        ``round1_packages`` must contain the broadcast of every other participant (this
        participant's own package may be included; it must then be unchanged). Participants
        are checked in identifier order and the first invalid one raises
        :class:`InvalidProofOfKnowledge` (or :class:`DkgCheatingParticipant` for a wrong number
        of commitments).

        Returns the secret state for :meth:`finalize` and the private packages, keyed by
        recipient.
        """
        g = self.group
        i = secret.identifier
        own_commitments = secret.commitments
        by_sender = self._index_by_sender(round1_packages, self.Round1Package, i, secret.max_signers, "round 1")
        if i in by_sender and by_sender[i].commitments != own_commitments:
            raise DkgError(f"round 1 package attributed to this participant ({i}) is not ours")

        commitments: dict[int, tuple[bytes, ...]] = {i: own_commitments}
        for sender in sorted(by_sender):
            if sender == i:
                continue
            pkg: _Round1Package = by_sender[sender]
            if len(pkg.commitments) != secret.min_signers:
                raise DkgCheatingParticipant(
                    sender, f"published {len(pkg.commitments)} commitments, expected {secret.min_signers}"
                )
            if not self.verify_proof_of_knowledge(sender, secret.context, pkg.commitments[0], pkg.proof_r, pkg.proof_mu):
                raise InvalidProofOfKnowledge(sender)
            commitments[sender] = pkg.commitments

        outgoing: dict[int, _Round2Package] = {}
        for recipient in range(1, secret.max_signers + 1):
            if recipient == i:
                continue
            share = self.frost.polynomial_evaluate(g.scalar_from_int(recipient), secret.coefficients)
            outgoing[recipient] = self.Round2Package(i, recipient, share)
        own_share = self.frost.polynomial_evaluate(g.scalar_from_int(i), secret.coefficients)
        state = self.Round2SecretPackage(
            i, secret.min_signers, secret.max_signers, secret.context, own_share, commitments
        )
        return state, outgoing

    def finalize(
        self, secret: _Round2SecretPackage, round2_packages: Iterable[_Round2Package]
    ) -> tuple[KeyPackage, PublicKeyPackage]:
        """Finalize (round 3): verify received shares, derive the key material.

        Each share ``f_l(i)`` is checked against ``sum_k [i^k] C_l[k]``; the first inconsistent
        sender (identifier order) raises :class:`InvalidSecretShare`. Returns this
        participant's key package and the public key package that every honest participant
        derives identically.
        """
        g = self.group
        i = secret.identifier
        packages = list(round2_packages)
        for pkg in packages:
            if isinstance(pkg, self.Round2Package) and pkg.recipient != i:
                raise DkgError(
                    f"round 2 package from participant {pkg.sender} is addressed to {pkg.recipient}, not {i}"
                )
        by_sender = self._index_by_sender(packages, self.Round2Package, i, secret.max_signers, "round 2")
        if i in by_sender:
            raise DkgError("round 2 packages must come from other participants")

        signing_share = secret.own_share
        for sender in sorted(by_sender):
            share: bytes = by_sender[sender].signing_share
            if not self.frost.vss_verify((i, share), secret.commitments[sender]):
                raise InvalidSecretShare(sender)
            signing_share = g.scalar_add(signing_share, share)

        public = self.public_key_package_from_commitments(secret.commitments, secret.min_signers)
        verifying_share = g.scalar_base_mult(signing_share)
        # Our own f_i(i) was never checked against our commitments by anyone else;
        # this catches local corruption of the stored state.
        if verifying_share != public.verifying_shares[i]:
            raise DkgError("derived signing share does not match the public commitments")
        key_package = self.frost.KeyPackage(i, signing_share, verifying_share, public.group_public_key)
        return key_package, public
