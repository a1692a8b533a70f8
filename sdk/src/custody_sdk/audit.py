"""Verifying the service's audit log against a key you pinned (the service's docs/audit.md).

Each entry of ``GET /api/v1/audit/entries`` carries ``hash = SHA-256(previous_hash || canonical
JSON of the entry's other fields)``; the chain's head is signed with the service's Ed25519 audit
key. Pin that key once, out of band (``GET /api/v1/audit/keys`` shows it; compare its ``key_id``
with what your operator tells you), then:

- :func:`verify_page`: every entry of a page hashes to its ``hash``, and consecutive entries link
  (an entry rewritten in the database fails here, naming it);
- :func:`verify_chain`: the whole chain from its first entry to the signed head, the head's
  signature by the pinned key (or a later key the pinned one endorsed), and that it extends
  every head you saved earlier (a chain rebuilt after rewriting history fails here);
- :func:`AuditLog.verify`: fetches the keys and every page, then :func:`verify_chain`; keep the
  head it returns and pass it as a checkpoint next time, or as ``resume_from`` to verify only
  what was chained since.

Everything works on the JSON as served (dicts), so it checks the bytes the service hashed, not
a parsed model of them.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

if TYPE_CHECKING:
    from custody_sdk.client import Custody

#: ``previous_hash`` of a workspace's first entry.
GENESIS = "0" * 64
_HEAD_CONTEXT = b"custody-audit-head:v1\n"
_KEY_CONTEXT = b"custody-audit-key:v1\n"
_LINK_FIELDS = ("previous_hash", "hash")
_ENTRIES = "/api/v1/audit/entries"
_KEYS = "/api/v1/audit/keys"


class AuditVerificationError(Exception):
    """The audit log does not verify; ``seq`` and ``entry_id`` name the first entry that fails
    (None when the failure is the head's or a key's)."""

    def __init__(self, message: str, *, seq: int | None = None, entry_id: str | None = None) -> None:
        super().__init__(message)
        self.seq = seq
        self.entry_id = entry_id


def canonical(document: Mapping[str, Any]) -> bytes:
    """JSON with keys sorted, no whitespace, non-ASCII characters as they are, UTF-8."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode()


def entry_hash(entry: Mapping[str, Any]) -> str:
    """What ``entry["hash"]`` must be, from its other fields and ``previous_hash``."""
    document = {key: value for key, value in entry.items() if key not in _LINK_FIELDS}
    return hashlib.sha256(bytes.fromhex(str(entry["previous_hash"])) + canonical(document)).hexdigest()


def key_id_of(public_key: bytes) -> str:
    return hashlib.sha256(public_key).hexdigest()[:32]


def _name(entry: Mapping[str, Any]) -> str:
    return f"entry {entry.get('seq')} ({entry.get('id')}, {entry.get('action')})"


def verify_page(entries: Sequence[Mapping[str, Any]]) -> None:
    """Each entry hashes to its ``hash``; an entry that follows another by ``seq`` names its hash
    as ``previous_hash``; the first entry of a chain starts from :data:`GENESIS`."""
    previous: Mapping[str, Any] | None = None
    for entry in entries:
        seq, entry_id = int(entry["seq"]), str(entry["id"])
        try:
            computed = entry_hash(entry)
        except (KeyError, ValueError, TypeError) as exc:
            raise AuditVerificationError(f"{_name(entry)} cannot be hashed: {exc}", seq=seq, entry_id=entry_id) from None
        if computed != entry["hash"]:
            raise AuditVerificationError(f"{_name(entry)} was changed after it was chained: its content hashes to "
                                         f"{computed}, the chain says {entry['hash']}", seq=seq, entry_id=entry_id)
        if seq == 1 and entry["previous_hash"] != GENESIS:
            raise AuditVerificationError(f"{_name(entry)} is first but does not start from the genesis hash",
                                         seq=seq, entry_id=entry_id)
        if previous is not None and int(previous["seq"]) + 1 == seq and entry["previous_hash"] != previous["hash"]:
            raise AuditVerificationError(f"{_name(entry)} does not follow entry {previous['seq']}: an entry between "
                                         "them was removed or rewritten", seq=seq, entry_id=entry_id)
        previous = entry


def trusted_keys(pinned_public_key: str | bytes, published: Iterable[Mapping[str, Any]]) -> dict[str, VerifyKey]:
    """The pinned key (base64 or raw 32 bytes) and every later key it endorsed, by ``key_id``.

    A key is trusted when the key before it, already trusted, signed its endorsement; a key
    whose endorsement fails is not trusted (nor any after it)."""
    raw = pinned_public_key if isinstance(pinned_public_key, bytes) else base64.b64decode(pinned_public_key)
    trusted = {key_id_of(raw): VerifyKey(raw)}
    grew = True
    keys = list(published)
    while grew:
        grew = False
        for key in keys:
            key_id, previous = str(key["key_id"]), key.get("previous_key_id")
            if key_id in trusted or previous not in trusted or not key.get("endorsement"):
                continue
            public = base64.b64decode(str(key["public_key"]))
            message = _KEY_CONTEXT + canonical({"key_id": key_id, "public_key": key["public_key"],
                                                "previous_key_id": previous})
            try:
                trusted[previous].verify(message, base64.b64decode(str(key["endorsement"])))
            except BadSignatureError:
                continue
            if key_id_of(public) == key_id:
                trusted[key_id] = VerifyKey(public)
                grew = True
    return trusted


def verify_head(head: Mapping[str, Any], keys: Mapping[str, VerifyKey]) -> None:
    """The head is signed by one of ``keys`` (see :func:`trusted_keys`)."""
    key = keys.get(str(head.get("key_id")))
    if key is None:
        raise AuditVerificationError(f"the head is signed by key {head.get('key_id')}, which the pinned key does "
                                     "not lead to")
    document = {name: value for name, value in head.items() if name != "signature"}
    try:
        key.verify(_HEAD_CONTEXT + canonical(document), base64.b64decode(str(head["signature"])))
    except (BadSignatureError, ValueError) as exc:
        raise AuditVerificationError(f"the head's signature does not verify: {exc}") from None


def verify_chain(entries: Sequence[Mapping[str, Any]], head: Mapping[str, Any], keys: Mapping[str, VerifyKey], *,
                 checkpoints: Iterable[Mapping[str, Any]] = (), resume_from: Mapping[str, Any] | None = None) -> None:
    """``entries`` are the chain up to ``head``, unfiltered: from entry 1, or from the entry after
    ``resume_from`` (a head verified earlier, whose entries need no second look). Each entry
    verifies (:func:`verify_page`), none is missing, the first links to the genesis hash (or to
    ``resume_from``), the last one is the signed head's, and the chain passes through every
    saved ``checkpoint`` it covers (an earlier head)."""
    verify_head(head, keys)
    verify_page(entries)
    start = int(resume_from["seq"]) if resume_from is not None else 0
    for index, entry in enumerate(entries, start=start + 1):
        if int(entry["seq"]) != index:
            raise AuditVerificationError(f"entry {index} is missing from the chain (found {_name(entry)} there)",
                                         seq=index)
    if entries and entries[0]["previous_hash"] != (resume_from["hash"] if resume_from is not None else GENESIS):
        raise AuditVerificationError(f"{_name(entries[0])} does not follow the head it resumes from: history "
                                     "before it was rewritten", seq=start + 1, entry_id=str(entries[0]["id"]))
    if start + len(entries) != int(head["seq"]):
        raise AuditVerificationError(f"the head says {head['seq']} entries, the chain has {start + len(entries)}")
    last_hash = entries[-1]["hash"] if entries else (resume_from["hash"] if resume_from is not None else GENESIS)
    if last_hash != head["hash"]:
        raise AuditVerificationError("the last entry is not the signed head's: the chain was rebuilt",
                                     seq=int(head["seq"]))
    for checkpoint in checkpoints:
        seq = int(checkpoint["seq"])
        if seq > start + len(entries):
            raise AuditVerificationError(f"a saved head at seq {seq} is beyond the chain: entries were removed")
        if seq > start and entries[seq - start - 1]["hash"] != checkpoint["hash"]:
            raise AuditVerificationError(f"the chain no longer passes through the head saved at seq {seq}: history "
                                         "before it was rewritten", seq=seq, entry_id=str(entries[seq - start - 1]["id"]))


@dataclass(frozen=True)
class VerifiedLog:
    """What :meth:`AuditLog.verify` checked: every entry, and the head to save as a checkpoint."""

    entries: list[dict[str, Any]]
    head: dict[str, Any] | None
    pending: int


class AuditLog:
    """The audit log of the client's workspace, verified against a pinned key."""

    def __init__(self, custody: Custody, *, pinned_public_key: str | bytes, page_size: int = 1000) -> None:
        self.custody = custody
        self.pinned_public_key = pinned_public_key
        self.page_size = page_size

    async def keys(self) -> dict[str, VerifyKey]:
        reply = await self.custody.request("GET", _KEYS)
        return trusted_keys(self.pinned_public_key, reply.json["keys"])

    async def fetch(self, *, after: int = 0, **filters: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Every entry after seq ``after`` matching ``filters`` (the query parameters of
        GET /api/v1/audit/entries), and the chain state served with the last page."""
        entries: list[dict[str, Any]] = []
        cursor = after
        while True:
            params = {**{k: v for k, v in filters.items() if v is not None}, "cursor": cursor, "limit": self.page_size}
            page = (await self.custody.request("GET", _ENTRIES, params=params)).json
            entries.extend(page["entries"])
            if entries:
                cursor = int(entries[-1]["seq"])
            head = page["chain"]["head"]
            # The last page, unless the chain grew meanwhile (then its head is beyond what was read).
            if page["next_cursor"] is None and (filters or head is None or int(head["seq"]) <= cursor):
                return entries, page["chain"]

    async def verify(self, *, checkpoints: Iterable[Mapping[str, Any]] = (),
                     resume_from: Mapping[str, Any] | None = None) -> VerifiedLog:
        """Fetch the chain and verify it up to its signed head (see :func:`verify_chain`): all of
        it, or only what follows ``resume_from`` (the head a previous verification returned)."""
        keys = await self.keys()
        entries, chain = await self.fetch(after=int(resume_from["seq"]) if resume_from is not None else 0)
        head = chain["head"]
        if head is None:
            if entries:
                raise AuditVerificationError("entries are served without a signed head")
            return VerifiedLog(entries=[], head=None, pending=int(chain["pending"]))
        # Entries chained after the head was read belong to a later head: verify up to this one.
        upto = [entry for entry in entries if int(entry["seq"]) <= int(head["seq"])]
        verify_chain(upto, head, keys, checkpoints=checkpoints, resume_from=resume_from)
        return VerifiedLog(entries=upto, head=head, pending=int(chain["pending"]))
