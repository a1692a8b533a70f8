"""Threshold ECDSA on secp256k1, 2 of 3, the key never whole: cait-sith behind the scheme interface.

Scheme ``ECDSA-secp256k1-cait-sith-v1`` (:data:`threshold.scheme.ECDSA_SCHEME`): signatures are
plain secp256k1 ECDSA signatures ``(r, s)`` with ``s`` in the lower half (EIP-2), over a 32-byte
digest the caller computes (Ethereum: the Keccak-256 signing hash of a transaction). They verify
with any ECDSA verifier and recover (``ecrecover``) to the group key.

**Unaudited.** The protocol is cait-sith (v0.8, Rust), reached through the PyPI package
``cait-sith-py`` (pyo3 bindings). Upstream says that the protocol has no formal proof of security
and that the library was never audited; it is unmaintained since 2023, and the bindings ship no
linux aarch64 wheel. docs/signing.md says what that means and how an audited protocol (DKLs23,
CGGMP) replaces it behind this same interface: the operator chooses knowingly.

Participants
------------
The layout of every key set (:mod:`threshold.scheme`): participants 1 and 2 are the service's
signers, 3 is the client's co-signer; any two sign. cait-sith numbers a participant ``p`` and
evaluates its share polynomial at ``p + 1``, so participant ``n`` here is cait-sith's ``n - 1``:
participant ``n``'s share is ``f(n)``, as in FROST and the Pedersen DKG (RFC 9591 identifiers).
Hence a key package of :mod:`threshold.dkg_secp256k1` is a valid key share of this scheme
(:meth:`KeyShare.from_key_package`), and two shares give the key by the same Lagrange
interpolation as every other key set (offline recovery).

The four protocols
------------------
Each is a :class:`Party` per participant, driven by messages (bytes) that the caller carries
between the parties; :func:`run_locally` carries them in process::

    keygen(n)                                    participants 1, 2, 3 -> KeyShare
    triple(n, pair)                              the two signers      -> Triple (key-independent)
    presign(n, pair, share, triple0, triple1)    the two signers      -> Presignature (for the key)
    sign(n, pair, share, presignature, digest)   the two signers      -> Signature

A signature needs one presignature, and a presignature two triples. Triples (about 100 KB of
messages each) and presignatures are made ahead of time by the pair that will sign; signing is
then one message each way.

Single use
----------
**A presignature used for two messages reveals the private key** (``s = k(z + r x)``: two
signatures with one ``k`` give ``k`` and then ``x``; tests/threshold/test_ecdsa.py does it with
the library's own outputs), and a triple used twice leaks alike. In this process a
:class:`Presignature` or :class:`Triple` is consumed when a protocol takes it: a second use raises
:class:`MaterialReused` before any message exists, and a consumed one cannot be serialized again.
Across processes, crashes and retries only the database can hold that rule: a stock of sealed
items each taken by exactly one signing session in a committed transaction before any share
leaves (the service's single-use stock; docs/signing.md).

Errors
------
The library reports failures as pyo3 ``PanicException``, a :class:`BaseException`: every call
into it is wrapped here, and a panic becomes :class:`ProtocolAborted` (a
:class:`~threshold.errors.FrostError`, the base of every threshold error), naming the protocol
and the participant whose message it was processing. Inputs are checked before they reach the
library. The panic's own message goes to the library's panic hook (stderr); it holds no secret.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Iterable, Mapping, Sequence, TypeVar

import cait_sith
from coincurve import PublicKey

from threshold.errors import FrostError, InvalidParameters
from threshold.scheme import ALL_PARTICIPANTS, ECDSA_SCHEME, MIN_SIGNERS, SERVICE_PARTICIPANTS
from threshold.secp256k1 import N

__all__ = [
    "SCHEME",
    "SERVICE_PAIR",
    "ProtocolAborted",
    "MaterialReused",
    "Message",
    "Party",
    "KeyShare",
    "Triple",
    "Presignature",
    "Signature",
    "keygen",
    "triple",
    "presign",
    "sign",
    "run_locally",
    "verify",
    "recovery_id",
    "signature_share",
    "combine",
]

SCHEME = ECDSA_SCHEME
#: The pair that makes triples and presignatures and signs: the two service signers.
SERVICE_PAIR: tuple[int, int] = (SERVICE_PARTICIPANTS[0], SERVICE_PARTICIPANTS[1])
_THRESHOLD = MIN_SIGNERS
_HALF_N = N // 2

T = TypeVar("T")


class ProtocolAborted(FrostError):
    """The cait-sith library failed (a Rust panic, or a protocol error it reports).

    :ivar protocol: ``keygen``, ``triple``, ``presign`` or ``sign``.
    :ivar participant: the participant whose message was being processed, when known.
    """

    def __init__(self, protocol: str, reason: str, participant: int | None = None) -> None:
        self.protocol, self.reason, self.participant = protocol, reason, participant
        whose = f" (processing a message from participant {participant})" if participant is not None else ""
        super().__init__(f"threshold ECDSA {protocol} aborted{whose}: {reason}")


class MaterialReused(FrostError):
    """A presignature or triple was offered a second time: refused, because using one twice
    reveals the private key (see the module)."""


def _call(protocol: str, function: Callable[..., T], *args: Any, participant: int | None = None) -> T:
    """Call into the library, turning its panics (BaseException) into :class:`ProtocolAborted`."""
    try:
        return function(*args)
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - pyo3's PanicException is a BaseException
        reason = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
        raise ProtocolAborted(protocol, reason, participant) from None


# --------------------------------------------------------------------------------------------
# Encodings
# --------------------------------------------------------------------------------------------


def _participant(n: int) -> Any:
    return cait_sith.Participant(n - 1)


def _check_participant(n: int, allowed: Iterable[int] = ALL_PARTICIPANTS) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n not in tuple(allowed):
        raise InvalidParameters(f"participant must be one of {tuple(allowed)}")
    return n


def _check_pair(pair: Sequence[int]) -> tuple[int, int]:
    members = tuple(pair)
    if len(members) != _THRESHOLD or len(set(members)) != _THRESHOLD:
        raise InvalidParameters(f"a signing pair is {_THRESHOLD} distinct participants")
    for member in members:
        _check_participant(member)
    low, high = sorted(members)
    return low, high


def _hex_of(value: str) -> str:
    """The hex inside one of the library's values (a JSON string of upper-case hex)."""
    return str(json.loads(value)).lower()


def _lib(hex_value: str) -> str:
    return json.dumps(hex_value.upper())


def _point(data: bytes | str, what: str) -> bytes:
    raw = bytes.fromhex(data) if isinstance(data, str) else bytes(data)
    if len(raw) != 33 or raw[0] not in (2, 3):
        raise InvalidParameters(f"{what} must be a 33-byte SEC1 compressed point")
    try:
        PublicKey(raw)
    except ValueError:
        raise InvalidParameters(f"{what} is not a point of secp256k1") from None
    return raw


def _scalar(data: bytes | str, what: str, *, nonzero: bool = True) -> bytes:
    raw = bytes.fromhex(data) if isinstance(data, str) else bytes(data)
    value = int.from_bytes(raw, "big")
    if len(raw) != 32 or value >= N or (nonzero and value == 0):
        raise InvalidParameters(f"{what} must be a 32-byte scalar below the group order")
    return raw


def _require(data: Mapping[str, Any], key: str) -> Any:
    try:
        return data[key]
    except (KeyError, TypeError):
        raise InvalidParameters(f"missing field {key!r}") from None


# --------------------------------------------------------------------------------------------
# Key shares, triples, presignatures, signatures
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyShare:
    """One participant's share of the key: ``share`` is ``f(participant)`` (secret, out of repr);
    ``public_key`` the 33-byte SEC1 group key. Encrypt :meth:`to_dict` at rest."""

    participant: int
    public_key: bytes
    share: bytes = field(repr=False)

    def __post_init__(self) -> None:
        _check_participant(self.participant)
        _point(self.public_key, "public_key")
        _scalar(self.share, "share")

    def to_dict(self) -> dict[str, Any]:
        return {"scheme": SCHEME, "participant": self.participant, "public_key": self.public_key.hex(),
                "share": self.share.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KeyShare:
        if data.get("scheme", SCHEME) != SCHEME:
            raise InvalidParameters(f"not a {SCHEME} key share")
        try:
            return cls(int(_require(data, "participant")), bytes.fromhex(str(_require(data, "public_key"))),
                       bytes.fromhex(str(_require(data, "share"))))
        except ValueError:
            raise InvalidParameters("a key share's fields are an integer and hex strings") from None

    @classmethod
    def from_key_package(cls, package: Any) -> KeyShare:
        """The share of a :mod:`threshold.dkg_secp256k1` key package (same identifiers, same
        polynomial evaluation: see the module)."""
        return cls(int(package.identifier), bytes(package.group_public_key), bytes(package.signing_share))

    def _output(self) -> Any:
        return _call("key share", cait_sith.KeyGenOutput, _lib(self.public_key.hex()), _lib(self.share.hex()))


class _SingleUse:
    """Secret material that a protocol may take once in this process (see the module)."""

    _spent: bool

    def _take(self, what: str) -> None:
        if self._spent:
            raise MaterialReused(f"this {what} was already used: using it twice would reveal the private key")
        object.__setattr__(self, "_spent", True)

    @property
    def spent(self) -> bool:
        return self._spent

    def _check_unspent(self, what: str) -> None:
        if self._spent:
            raise MaterialReused(f"a used {what} is never written out again")


@dataclass(frozen=True, eq=False)
class Triple(_SingleUse):
    """One participant's share of a Beaver triple made by ``participants`` (key-independent).

    ``data`` is the library's JSON (the share is secret: encrypt it at rest); ``public`` the
    commitments ``(A, B, C)``, equal for both participants of one triple (its identity)."""

    participant: int
    participants: tuple[int, int]
    data: str = field(repr=False)
    _spent: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_participant(self.participant, self.participants)
        _check_pair(self.participants)

    @property
    def public(self) -> tuple[bytes, bytes, bytes]:
        public = json.loads(self.data)["public"]
        return tuple(bytes.fromhex(_hex_of(public[k])) for k in ("big_a", "big_b", "big_c"))  # type: ignore[return-value]  # three of them

    def to_dict(self) -> dict[str, Any]:
        self._check_unspent("triple")
        return {"scheme": SCHEME, "participant": self.participant, "participants": list(self.participants),
                "triple": json.loads(self.data)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Triple:
        if data.get("scheme", SCHEME) != SCHEME:
            raise InvalidParameters(f"not a {SCHEME} triple")
        body = _require(data, "triple")
        if not isinstance(body, Mapping) or not {"share", "public"} <= set(body):
            raise InvalidParameters("a triple holds its share and its public commitments")
        participants = _check_pair(_require(data, "participants"))
        inner = [p["id"] + 1 for p in body["public"].get("participants", [])]
        if sorted(inner) != list(participants):
            raise InvalidParameters("the triple was made by other participants")
        return cls(int(_require(data, "participant")), participants, json.dumps(body))

    def _output(self) -> Any:
        return _call("triple", cait_sith.TripleGenerationOutput, self.data)


@dataclass(frozen=True, eq=False)
class Presignature(_SingleUse):
    """One participant's presignature for ``public_key``, made by ``participants``: ``big_r`` is
    the public nonce commitment ``R`` (its x is the signature's ``r``), ``k`` and ``sigma`` the
    secret shares (out of repr; encrypt at rest). Signs exactly one digest."""

    participant: int
    participants: tuple[int, int]
    public_key: bytes
    big_r: bytes
    k: bytes = field(repr=False)
    sigma: bytes = field(repr=False)
    _spent: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_pair(self.participants)
        _check_participant(self.participant, self.participants)
        _point(self.public_key, "public_key")
        _point(self.big_r, "big_r")
        _scalar(self.k, "k")
        _scalar(self.sigma, "sigma", nonzero=False)

    def to_dict(self) -> dict[str, Any]:
        self._check_unspent("presignature")
        return {"scheme": SCHEME, "participant": self.participant, "participants": list(self.participants),
                "public_key": self.public_key.hex(), "big_r": self.big_r.hex(), "k": self.k.hex(),
                "sigma": self.sigma.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Presignature:
        if data.get("scheme", SCHEME) != SCHEME:
            raise InvalidParameters(f"not a {SCHEME} presignature")
        try:
            public_key, big_r, k, sigma = (bytes.fromhex(str(_require(data, name)))
                                           for name in ("public_key", "big_r", "k", "sigma"))
            return cls(int(_require(data, "participant")), _check_pair(_require(data, "participants")),
                       public_key, big_r, k, sigma)
        except ValueError:
            raise InvalidParameters("a presignature's fields are integers and hex strings") from None

    @classmethod
    def _from_output(cls, participant: int, participants: tuple[int, int], public_key: bytes,
                     output: Any) -> Presignature:
        return cls(participant, participants, public_key, bytes.fromhex(_hex_of(output.big_r)),
                   bytes.fromhex(_hex_of(output.k)), bytes.fromhex(_hex_of(output.sigma)))

    def _output(self) -> Any:
        body = {"big_r": _lib(self.big_r.hex()), "k": _lib(self.k.hex()), "sigma": _lib(self.sigma.hex())}
        return _call("presignature", cait_sith.PresignOutput, json.dumps(body))


@dataclass(frozen=True)
class Signature:
    """A secp256k1 ECDSA signature: ``r``, ``s`` (low, EIP-2) and the nonce point ``big_r``.

    The library normalizes ``s`` to the lower half without adjusting ``R``, so the recovery id
    is not ``R``'s parity: :func:`recovery_id` finds it by recovering the key."""

    r: int
    s: int
    big_r: bytes

    def to_bytes(self) -> bytes:
        """``r || s``, 64 bytes (the service's signature format for every scheme)."""
        return self.r.to_bytes(32, "big") + self.s.to_bytes(32, "big")


def _signature_parts(signature: bytes) -> tuple[int, int] | None:
    if not isinstance(signature, (bytes, bytearray)) or len(signature) != 64:
        return None
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    if not (0 < r < N and 0 < s <= _HALF_N):
        return None
    return r, s


def recovery_id(public_key: bytes, digest: bytes, signature: bytes) -> int | None:
    """The recovery id (0 or 1) under which ``signature`` (``r || s``, low s) over ``digest``
    recovers to ``public_key``; None when it is not a valid signature of that key (libsecp256k1)."""
    if _signature_parts(signature) is None or len(digest) != 32:
        return None
    for candidate in (0, 1):
        try:
            recovered = PublicKey.from_signature_and_message(bytes(signature) + bytes([candidate]), bytes(digest),
                                                             hasher=None)
        except ValueError:
            continue
        if recovered.format(compressed=True) == bytes(public_key):
            return candidate
    return None


def verify(public_key: bytes, digest: bytes, signature: bytes) -> bool:
    """Whether ``signature`` (``r || s``, s in the lower half) is a valid ECDSA signature of
    ``digest`` by the 33-byte SEC1 ``public_key``; False on any malformed input."""
    try:
        return recovery_id(bytes(public_key), bytes(digest), bytes(signature)) is not None
    except (TypeError, ValueError):
        return False


# --------------------------------------------------------------------------------------------
# Parties and messages
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """A protocol message: ``recipient`` None goes to every other participant of the protocol."""

    sender: int
    recipient: int | None
    data: bytes = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"sender": self.sender, "recipient": self.recipient, "data": base64.b64encode(self.data).decode()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        recipient = data.get("recipient")
        try:
            return cls(int(_require(data, "sender")), None if recipient is None else int(recipient),
                       base64.b64decode(str(_require(data, "data")), validate=True))
        except ValueError:
            raise InvalidParameters("a message is a sender, a recipient and base64 data") from None


class Party(Generic[T]):
    """One participant's side of one protocol run.

    Call :meth:`outgoing` for what to send, deliver what others sent with :meth:`receive`, and
    repeat until :attr:`done`; :attr:`result` is then the output. The protocol object lives in
    this process: a run cannot be paused to disk half way (start a new one instead; nothing
    single-use is lost with it, since taking the material happened before the first message).
    """

    def __init__(self, name: str, participant: int, participants: Sequence[int], protocol: Any,
                 finish: Callable[[Any], T]) -> None:
        self.name = name
        self.participant = participant
        self.participants = tuple(participants)
        self._protocol = protocol
        self._finish = finish
        self._result: T | None = None
        self.done = False

    def __repr__(self) -> str:
        return f"<Party {self.name} participant {self.participant} of {self.participants}{' done' if self.done else ''}>"

    @property
    def result(self) -> T:
        if not self.done:
            raise InvalidParameters(f"the {self.name} run of participant {self.participant} has not finished")
        return self._result  # type: ignore[return-value]  # set when done

    def outgoing(self) -> list[Message]:
        """Advance as far as the messages received so far allow; the messages to send now."""
        messages: list[Message] = []
        while not self.done:
            action = _call(self.name, self._protocol.poke)
            kind = type(action).__name__.rsplit("_", 1)[-1]
            if kind == "Wait":
                break
            if kind == "SendMany":
                messages.append(Message(self.participant, None, bytes(action.message_data)))
            elif kind == "SendPrivate":
                messages.append(Message(self.participant, int(action.participant.id) + 1, bytes(action.message_data)))
            elif kind == "Return":
                self._result = self._finish(action.result)
                self.done = True
            else:  # pragma: no cover - the library has no other action
                raise ProtocolAborted(self.name, f"unknown action {kind}")
        return messages

    def receive(self, message: Message) -> None:
        """Deliver a message from another participant of this run."""
        if message.sender not in self.participants or message.sender == self.participant:
            raise InvalidParameters(f"participant {message.sender} takes no part in this {self.name} run")
        if message.recipient not in (None, self.participant):
            raise InvalidParameters(f"the message is for participant {message.recipient}")
        _call(self.name, self._protocol.message, _participant(message.sender), bytes(message.data),
              participant=message.sender)


def run_locally(parties: Sequence[Party[T]], *, max_steps: int = 10_000) -> dict[int, T]:
    """Carry every message between ``parties`` (one run, in process) until all are done."""
    by_id = {p.participant: p for p in parties}
    for party in parties:
        if set(party.participants) != set(by_id):
            raise InvalidParameters("run_locally needs exactly the parties of one run")
    for _ in range(max_steps):
        sent = False
        for party in parties:
            for message in party.outgoing():
                sent = True
                for recipient in ([message.recipient] if message.recipient else party.participants):
                    if recipient != party.participant:
                        by_id[recipient].receive(message)
        if all(p.done for p in parties):
            return {p.participant: p.result for p in parties}
        if not sent:
            raise ProtocolAborted(parties[0].name, "no participant can make progress")
    raise ProtocolAborted(parties[0].name, "too many steps")


# --------------------------------------------------------------------------------------------
# The protocols
# --------------------------------------------------------------------------------------------


def keygen(participant: int, participants: Sequence[int] = ALL_PARTICIPANTS) -> Party[KeyShare]:
    """Distributed key generation (2 of ``participants``): each ends with its :class:`KeyShare`;
    no participant ever holds the key."""
    members = sorted(set(participants))
    if members != sorted(participants) or len(members) < _THRESHOLD:
        raise InvalidParameters("keygen needs at least two distinct participants")
    for member in members:
        _check_participant(member)
    _check_participant(participant, members)
    protocol = _call("keygen", cait_sith.keygen, [_participant(m) for m in members], _participant(participant),
                     _THRESHOLD)

    def finish(output: Any) -> KeyShare:
        return KeyShare(participant, bytes.fromhex(_hex_of(output.public_key)),
                        bytes.fromhex(_hex_of(output.private_share)))

    return Party("keygen", participant, members, protocol, finish)


def triple(participant: int, pair: Sequence[int] = SERVICE_PAIR) -> Party[Triple]:
    """Make one Beaver triple between the two participants of ``pair`` (independent of any key)."""
    members = _check_pair(pair)
    _check_participant(participant, members)
    protocol = _call("triple", cait_sith.generate_triple_many, [_participant(m) for m in members],
                     _participant(participant), _THRESHOLD, 1)

    def finish(output: Any) -> Triple:
        made = json.loads(_call("triple", output.to_json))["data"]
        if len(made) != 1:  # pragma: no cover - asked for one
            raise ProtocolAborted("triple", f"made {len(made)} triples instead of one")
        return Triple(participant, members, json.dumps(made[0]))

    return Party("triple", participant, members, protocol, finish)


def presign(participant: int, pair: Sequence[int], key_share: KeyShare, triple0: Triple,
            triple1: Triple) -> Party[Presignature]:
    """A presignature for ``key_share``'s key by ``pair`` from two triples, which it consumes."""
    members = _check_pair(pair)
    _check_participant(participant, members)
    if key_share.participant != participant:
        raise InvalidParameters("the key share belongs to another participant")
    for item in (triple0, triple1):
        if item.participant != participant or item.participants != members:
            raise InvalidParameters("a triple belongs to another participant or pair")
    if triple0 is triple1 or triple0.public == triple1.public:
        raise MaterialReused("a presignature needs two different triples")
    if triple0.spent or triple1.spent:
        raise MaterialReused("a triple was already used: using it twice would reveal the private key")
    outputs = (triple0._output(), triple1._output(), key_share._output())
    triple0._take("triple")
    triple1._take("triple")
    arguments = _call("presign", cait_sith.PresignArguments, *outputs, _THRESHOLD)
    protocol = _call("presign", cait_sith.presign, [_participant(m) for m in members], _participant(participant),
                     arguments)

    def finish(output: Any) -> Presignature:
        return Presignature._from_output(participant, members, key_share.public_key, output)

    return Party("presign", participant, members, protocol, finish)


def sign(participant: int, pair: Sequence[int], key_share: KeyShare, presignature: Presignature,
         digest: bytes) -> Party[Signature]:
    """Sign the 32-byte ``digest`` with ``presignature``, which it consumes (before any message
    exists: a second call with it raises :class:`MaterialReused`)."""
    members = _check_pair(pair)
    _check_participant(participant, members)
    if not isinstance(digest, (bytes, bytearray)) or len(digest) != 32:
        raise InvalidParameters("the message to sign is a 32-byte digest")
    if key_share.participant != participant or presignature.participant != participant:
        raise InvalidParameters("the key share or presignature belongs to another participant")
    if presignature.participants != members:
        raise InvalidParameters("the presignature was made by another pair")
    if presignature.public_key != key_share.public_key:
        raise InvalidParameters("the presignature was made for another key")
    output = presignature._output()
    presignature._take("presignature")
    public_key = _lib(key_share.public_key.hex())
    protocol = _call("sign", cait_sith.sign, [_participant(m) for m in members], _participant(participant),
                     public_key, output, bytes(digest))

    def finish(result: Any) -> Signature:
        big_r = bytes.fromhex(_hex_of(result.big_r))
        r, s = int.from_bytes(big_r[1:], "big") % N, int(_hex_of(result.s), 16)
        signature = Signature(r, s, big_r)
        if not verify(key_share.public_key, bytes(digest), signature.to_bytes()):
            raise ProtocolAborted("sign", "the signature does not verify under the group key")
        return signature

    return Party("sign", participant, members, protocol, finish)


# --------------------------------------------------------------------------------------------
# Combining signature shares outside the parties (the service's coordinator)
# --------------------------------------------------------------------------------------------

#: A sign message: the library's 20-byte channel tag and 8-byte wait point, then ``s_i`` as a
#: MessagePack array of its 32 big-endian bytes (each a positive fixint or a uint8).
_SIGN_HEADER = 28


def signature_share(data: bytes) -> int:
    """The share ``s_i`` a participant's one :func:`sign` message carries (public once sent).

    The service's signers run in separate processes and keep no protocol object between
    commands, so the coordinator adds the shares (:func:`combine`) instead of a party."""
    body = bytes(data)[_SIGN_HEADER:]
    if len(body) < 3 or body[0] != 0xDC or int.from_bytes(body[1:3], "big") != 32:
        raise InvalidParameters("not a threshold ECDSA signature share message")
    index, out = 3, bytearray()
    for _ in range(32):
        if index >= len(body):
            raise InvalidParameters("a signature share message ends early")
        if body[index] < 0x80:
            out.append(body[index])
            index += 1
        elif body[index] == 0xCC and index + 1 < len(body):
            out.append(body[index + 1])
            index += 2
        else:
            raise InvalidParameters("a signature share message holds something other than bytes")
    value = int.from_bytes(bytes(out), "big")
    if index != len(body) or value >= N:
        raise InvalidParameters("a signature share message is not one scalar")
    return value


def combine(public_key: bytes, digest: bytes, big_r: bytes, shares: Sequence[int]) -> Signature:
    """The signature from every participant's share (``s = sum s_i``, then low s, as the
    library does), checked by libsecp256k1 under the group key: :class:`ProtocolAborted` when a
    share was wrong (a participant that cheated or a presignature that was not the pair's)."""
    _point(big_r, "big_r")
    s = sum(shares) % N
    s = min(s, N - s)
    r = int.from_bytes(bytes(big_r)[1:], "big") % N
    if s == 0 or r == 0:
        raise ProtocolAborted("sign", "the shares add up to no signature")
    signature = Signature(r, s, bytes(big_r))
    if not verify(public_key, bytes(digest), signature.to_bytes()):
        raise ProtocolAborted("sign", "the combined signature does not verify under the group key")
    return signature
