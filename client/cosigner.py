"""The headless co-signer: the client's own FROST participant (participant 3) of every key set.

A client runs it on its own machine with its own share; the service never sees that share::

    python -m client.cosigner run --credentials cosigner.json --store ./cosigner-store \\
        --passphrase-file ./cosigner-passphrase.txt [--interval 2] [--once]
    python -m client.cosigner export-share --store ./cosigner-store --passphrase-file ./cosigner-passphrase.txt \\
        --key-set <key_set_id> --out share.json
    python -m client.cosigner list --store ./cosigner-store --passphrase-file ./cosigner-passphrase.txt

``--credentials`` is the JSON written by ``custody bootstrap --out FILE`` (base_url,
workspace_id, client_type ``user`` for an API user or ``device`` for a paired device,
client_id, private_key = base64 Ed25519 seed). The co-signer signs token requests with that key
(POST /api/v2/auth/access-token), then polls /api/v1/co-signer/key-generations and
/api/v1/co-signer/signing-requests and acts on each item's ``action``:

* key generation: round 1 (commitments, proof of knowledge, a fresh X25519 transport key),
  round 2 (one Box-encrypted share per other participant), finalize (verify the shares
  received, store the key package, POST /co-signer/part with the config, then commit it). A
  participant caught cheating is reported (POST .../complaint) and the key generation fails.
* signing: commit (a fresh nonce pair, stored before its commitments are sent), sign (the
  share is recorded, the nonce deleted, then the share is sent; a session whose nonce is gone
  is never signed again).
* threshold ECDSA (EVM key sets, under a policy that requires the co-signer): presign (make a
  presignature with the session's service signer, the service relaying the messages; the part is
  stored here before it is registered), sign (with the part of the session's ``presignature_r``:
  the share is recorded, the part deleted, then the share is sent).

Everything secret is kept in ``--store``: one file per record, each a SecretBox under a key
derived from the passphrase with argon2id (nacl.pwhash; salt and cost in ``store.json``). The
store survives restarts: a co-signer killed mid-protocol resumes from its files and never
makes a second nonce for a session. ``export-share`` writes the part config (the key package
encrypted under the same passphrase) that client/recovery.py accepts.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import getpass
import hashlib
import inspect
import json
import logging
import secrets
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Protocol

import aiohttp
import nacl.secret
from nacl.exceptions import CryptoError
from nacl.public import Box, PrivateKey, PublicKey
from nacl.signing import SigningKey

from common.files import write_private_file
from threshold import frost, protocol
from threshold.cosigner_part import (
    KdfParams,
    build_config,
    derive_key,
    encrypt_key_package,
    new_salt,
)
from threshold.pedersen import DkgCheatingParticipant
from threshold.scheme import COSIGNER_PARTICIPANT, ED25519_SCHEME
from threshold.suites import SUITES, Suite, suite_of
from threshold.transport import (
    open_round2_package,
    seal_round2_package,
    transport_key_is_usable,
)

logger = logging.getLogger("client.cosigner")

PARTICIPANT = COSIGNER_PARTICIPANT
SCHEME = ED25519_SCHEME
#: The schemes this co-signer makes and uses key sets of (FROST(Ed25519), secp256k1 and Taproot).
SCHEMES = tuple(SUITES)


def _suite(record: dict[str, Any]) -> Suite:
    """The suite of a stored DKG state or share (records written before schemes existed are Ed25519)."""
    return suite_of(record.get("scheme", SCHEME))
STORE_FORMAT = "custody-cosigner-store"

Approve = Callable[[dict[str, Any]], "bool | Awaitable[bool]"]


class CosignerError(RuntimeError):
    """Something the co-signer cannot continue from (bad store, refused credentials, ...)."""


class ApiError(CosignerError):
    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body if isinstance(body, dict) else {}
        self.code = self.body.get("code")
        super().__init__(f"HTTP {status} {self.code}: {self.body.get('error', body)}")


# --------------------------------------------------------------------------------------------
# Transport
# --------------------------------------------------------------------------------------------


class Transport(Protocol):
    async def request(self, method: str, path: str, *, json_body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """Send one request; return the status and the decoded JSON body (None if empty)."""


class HttpTransport:
    """HTTP(S) to the service with aiohttp."""

    def __init__(self, base_url: str, *, timeout: float = 15.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._session: Any = None

    async def request(self, method: str, path: str, *, json_body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
        async with self._session.request(method, self.base_url + path, json=json_body, headers=headers) as response:
            text = await response.text()
            return response.status, (json.loads(text) if text else None)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


# --------------------------------------------------------------------------------------------
# Encrypted store on the co-signer's disk
# --------------------------------------------------------------------------------------------


class ShareStore:
    """A directory of SecretBox-encrypted JSON records under a passphrase-derived key.

    ``store.json`` holds the KDF salt and cost and a check value (so a wrong passphrase is
    reported at once); ``<kind>/<name>.bin`` are the records: ``dkg`` (round state per key set),
    ``share`` (key package + part config per key set), ``nonce`` (per signing session, until
    used), ``presig`` (a threshold ECDSA presignature part, until used: :func:`presignature_name`)
    and ``signed`` (the share sent for a session; its presence means the nonce or presignature is gone).
    Files are written atomically with mode 0600.
    """

    KINDS = ("dkg", "share", "nonce", "signed", "presig")

    def __init__(self, path: Path | str, passphrase: bytes, *, params: KdfParams | None = None) -> None:
        self.path = Path(path)
        meta_path = self.path / "store.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            if meta.get("format") != STORE_FORMAT:
                raise CosignerError(f"{meta_path} is not a co-signer store")
            self.salt = base64.b64decode(meta["salt"])
            self.params = KdfParams(meta["opslimit"], meta["memlimit"])
            self._key = derive_key(passphrase, self.salt, self.params)
            try:
                nacl.secret.SecretBox(self._key).decrypt(base64.b64decode(meta["check"]))
            except CryptoError:
                raise CosignerError("wrong passphrase for this co-signer store") from None
        else:
            self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.salt = new_salt()
            self.params = params or KdfParams()
            self._key = derive_key(passphrase, self.salt, self.params)
            check = nacl.secret.SecretBox(self._key).encrypt(STORE_FORMAT.encode())
            self._write(meta_path, json.dumps({
                "format": STORE_FORMAT, "version": 1, "kdf": "argon2id13", "salt": base64.b64encode(self.salt).decode(),
                "opslimit": self.params.opslimit, "memlimit": self.params.memlimit,
                "check": base64.b64encode(bytes(check)).decode(),
            }).encode())

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_private_file(path, data)

    def _file(self, kind: str, name: str) -> Path:
        if kind not in self.KINDS:
            raise ValueError(f"unknown record kind {kind!r}")
        safe = str(uuid.UUID(str(name)))  # names are ids: no path tricks
        return self.path / kind / f"{safe}.bin"

    def save(self, kind: str, name: str, data: dict[str, Any]) -> None:
        self._write(self._file(kind, name),
                    bytes(nacl.secret.SecretBox(self._key).encrypt(json.dumps(data).encode())))

    def load(self, kind: str, name: str) -> dict[str, Any] | None:
        path = self._file(kind, name)
        if not path.exists():
            return None
        return json.loads(nacl.secret.SecretBox(self._key).decrypt(path.read_bytes()))

    def exists(self, kind: str, name: str) -> bool:
        return self._file(kind, name).exists()

    def delete(self, kind: str, name: str) -> None:
        path = self._file(kind, name)
        if path.exists():
            path.unlink()

    def names(self, kind: str) -> list[str]:
        folder = self.path / kind
        return sorted(p.stem for p in folder.glob("*.bin")) if folder.exists() else []

    def encrypt_key_package(self, key_package: protocol.KeyPackage) -> dict[str, Any]:
        """The key package encrypted under this store's passphrase key (for the part config)."""
        return encrypt_key_package(key_package, key=self._key, salt=self.salt, params=self.params)


# --------------------------------------------------------------------------------------------
# Credentials and the co-signer itself
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Credentials:
    base_url: str
    workspace_id: str
    client_id: str
    client_type: str
    signing_key: SigningKey

    @classmethod
    def from_file(cls, path: Path | str) -> "Credentials":
        data = json.loads(Path(path).read_text())
        client_type = data.get("client_type", "user")
        if client_type not in ("user", "device"):
            raise CosignerError("client_type must be user (API user) or device")
        return cls(base_url=data["base_url"], workspace_id=data["workspace_id"], client_id=data["client_id"],
                   client_type=client_type, signing_key=SigningKey(base64.b64decode(data["private_key"])))


@dataclass
class StepReport:
    """What one :meth:`CoSigner.step` did."""

    key_generation_steps: int = 0
    commitments: int = 0
    shares: int = 0
    complaints: int = 0
    presignatures: int = 0
    skipped: int = 0


def _signer_of(participants: list[int]) -> int:
    """The service signer of a threshold ECDSA session's pair."""
    return next(p for p in participants if p != PARTICIPANT)


def presignature_name(key_set_id: str, big_r: bytes) -> str:
    """The store name (an id) of the co-signer's part of a key set's presignature of ``R`` = ``big_r``."""
    return str(uuid.UUID(bytes=hashlib.sha256(str(key_set_id).encode() + b"|" + bytes(big_r)).digest()[:16]))


#: How long the co-signer's side of one presignature run waits in all (the signer waits 60 s per message).
PRESIGNATURE_RUN_SECONDS = 180.0


class CoSigner:
    """The co-signer protocol loop over a :class:`Transport` (HTTP, or an in-process client in tests)."""

    def __init__(self, transport: Transport, *, credentials: Credentials, store: ShareStore,
                 approve: Approve | None = None) -> None:
        self.transport = transport
        self.credentials = credentials
        self.store = store
        self.approve = approve
        self._token: str | None = None

    # --- API plumbing -----------------------------------------------------------------------

    async def login(self) -> str:
        status, server_time = await self.transport.request("GET", "/api/v2/auth/time")
        if status != 200:
            raise ApiError(status, server_time)
        payload = json.dumps({
            "client_type": self.credentials.client_type,
            "client_id": self.credentials.client_id,
            "timestamp": int(server_time["unix_seconds"]),
            "nonce": secrets.token_hex(16),
        })
        signature = base64.b64encode(self.credentials.signing_key.sign(payload.encode()).signature).decode()
        status, body = await self.transport.request("POST", "/api/v2/auth/access-token",
                                                    json_body={"data": payload, "signature": signature})
        if status != 200:
            raise ApiError(status, body)
        self._token = body["access_token"]
        return self._token

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        """An authenticated call; logs in again once if the token expired."""
        for attempt in (1, 2):
            if self._token is None:
                await self.login()
            headers = {"Authorization": f"Bearer {self._token}", "X-Workspace-Id": self.credentials.workspace_id}
            status, response = await self.transport.request(method, path, json_body=body, headers=headers)
            if status == 401 and attempt == 1:
                self._token = None
                continue
            if status >= 400:
                raise ApiError(status, response)
            return response
        raise AssertionError("unreachable")  # pragma: no cover

    # --- the loop ---------------------------------------------------------------------------

    async def step(self) -> StepReport:
        """Act once on everything waiting for this co-signer."""
        report = StepReport()
        # One item's problem (a refused request, an inconsistent view) must not stop the others.
        for item in (await self.call("GET", "/api/v1/co-signer/key-generations"))["items"]:
            try:
                await self.handle_key_generation(item, report)
            except (CosignerError, frost.FrostError, KeyError, ValueError) as exc:
                logger.warning("co-signer: key generation %s: %s", item["key_set_id"], exc)
                report.skipped += 1
        for item in (await self.call("GET", "/api/v1/co-signer/signing-requests"))["items"]:
            try:
                await self.handle_signing_request(item, report)
            except (CosignerError, frost.FrostError, KeyError, ValueError) as exc:
                logger.warning("co-signer: signing request %s: %s", item["id"], exc)
                report.skipped += 1
        return report

    async def run(self, *, interval: float = 2.0, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        announced = False
        while not stop.is_set():
            try:
                report = await self.step()
                if not announced:
                    # Once: the operator knows it is signed in and polling (then it is quiet when idle).
                    logger.info("co-signer: signed in as %s in workspace %s; waiting for key generations and "
                                "signing requests (every %gs)", self.credentials.client_id,
                                self.credentials.workspace_id, interval)
                    announced = True
                if report != StepReport():
                    logger.info("co-signer: %s", report)
            except (CosignerError, OSError) as exc:
                logger.warning("co-signer: %s; retrying in %.1fs", exc, interval)
            try:
                await asyncio.wait_for(stop.wait(), timeout=interval)
            except asyncio.TimeoutError:
                pass

    # --- key generation ---------------------------------------------------------------------

    async def _complain(self, key_set_id: str, participant: int, reason: str, report: StepReport) -> None:
        logger.error("co-signer: participant %d cheated in key generation %s: %s", participant, key_set_id, reason)
        await self.call("POST", f"/api/v1/co-signer/key-generations/{key_set_id}/complaint",
                        {"participant": participant, "reason": reason[:500]})
        self.store.delete("dkg", key_set_id)
        report.complaints += 1

    async def handle_key_generation(self, view: dict[str, Any], report: StepReport) -> None:
        key_set_id, action = view["key_set_id"], view["action"]
        if view["participant"] != PARTICIPANT or view["scheme"] not in SCHEMES:
            raise CosignerError(f"unexpected key generation parameters for {key_set_id}")
        if action == "round1":
            await self._round1(view)
        elif action == "round2":
            await self._round2(view, report)
        elif action == "finalize":
            await self._finalize(view, report)
        else:
            return
        report.key_generation_steps += 1

    async def _round1(self, view: dict[str, Any]) -> None:
        key_set_id = view["key_set_id"]
        state = self.store.load("dkg", key_set_id)
        if state is None:
            context = bytes.fromhex(view["context"])
            secret, package = suite_of(view["scheme"]).dkg.round1(PARTICIPANT, view["min_signers"],
                                                                  view["max_signers"], context)
            transport = PrivateKey.generate()
            state = {"stage": 1, "scheme": view["scheme"], "context": view["context"], "round1": secret.to_dict(),
                     "package": package.to_dict(), "transport_private_key": bytes(transport).hex(),
                     "transport_public_key": bytes(transport.public_key).hex()}
            # Saved before anything is sent: a restart re-sends the very same package.
            self.store.save("dkg", key_set_id, state)
        elif state["context"] != view["context"]:
            raise CosignerError(f"key generation {key_set_id} changed its context")
        await self.call("POST", f"/api/v1/co-signer/key-generations/{key_set_id}/round1",
                        {"package": state["package"], "transport_public_key": state["transport_public_key"]})

    async def _round2(self, view: dict[str, Any], report: StepReport) -> None:
        key_set_id = view["key_set_id"]
        state = self.store.load("dkg", key_set_id)
        if state is None:
            raise CosignerError(f"no round 1 state for key generation {key_set_id}")
        if "round2_packages" not in state:
            dkg = _suite(state).dkg
            secret = dkg.Round1SecretPackage.from_dict(state["round1"])
            received, transport_keys = [], {}
            try:
                for item in view["round1_packages"]:
                    sender = item["sender"]
                    package = dkg.Round1Package.from_dict(item["package"])
                    if package.sender != sender:
                        raise DkgCheatingParticipant(sender, "round 1 package names another sender")
                    if sender == PARTICIPANT:
                        if item["package"] != state["package"]:
                            raise CosignerError("the service altered this co-signer's round 1 package")
                        continue
                    transport_key = bytes.fromhex(item["transport_public_key"])
                    if len(transport_key) != 32 or not transport_key_is_usable(transport_key):
                        raise DkgCheatingParticipant(sender, "unusable transport public key")
                    transport_keys[sender] = item["transport_public_key"]
                    received.append(package)
                round2_secret, outgoing = dkg.round2(secret, received)
            except DkgCheatingParticipant as exc:
                await self._complain(key_set_id, exc.participant, str(exc), report)
                return
            own = PrivateKey(bytes.fromhex(state["transport_private_key"]))
            packages = [
                {"recipient": r, "ciphertext": seal_round2_package(
                    p, own=own, recipient_transport_key=bytes.fromhex(transport_keys[r]))}
                for r, p in sorted(outgoing.items())
            ]
            # The polynomial is no longer needed: keep only what finalize uses.
            state = {"stage": 2, "scheme": _suite(state).scheme, "context": state["context"], "round2": round2_secret.to_dict(),
                     "transport_private_key": state["transport_private_key"], "transport_keys": transport_keys,
                     "round2_packages": packages, "package": state["package"]}
            self.store.save("dkg", key_set_id, state)
        await self.call("POST", f"/api/v1/co-signer/key-generations/{key_set_id}/round2",
                        {"packages": state["round2_packages"]})

    async def _finalize(self, view: dict[str, Any], report: StepReport) -> None:
        key_set_id = view["key_set_id"]
        record = self.store.load("share", key_set_id)
        if record is None:
            state = self.store.load("dkg", key_set_id)
            if state is None or "round2" not in state:
                raise CosignerError(f"no round 2 state for key generation {key_set_id}")
            own = PrivateKey(bytes.fromhex(state["transport_private_key"]))
            senders_keys = {int(sender): bytes.fromhex(key) for sender, key in state["transport_keys"].items()}
            suite = _suite(state)
            dkg = suite.dkg
            try:
                received = [
                    open_round2_package(own=own, recipient=PARTICIPANT, sender=item["sender"],
                                        sender_transport_key=senders_keys[item["sender"]],
                                        ciphertext_b64=item["ciphertext"], package_type=dkg.Round2Package)
                    for item in view["round2_packages"]
                ]
                key_package, public = dkg.finalize(dkg.Round2SecretPackage.from_dict(state["round2"]), received)
            except DkgCheatingParticipant as exc:
                await self._complain(key_set_id, exc.participant, str(exc), report)
                return
            config = build_config(key_set_id=key_set_id, key_package=key_package, min_signers=public.min_signers,
                                  max_signers=public.max_signers,
                                  encrypted_key_package=self.store.encrypt_key_package(key_package),
                                  scheme=suite.scheme)
            record = {"key_set_id": key_set_id, "scheme": suite.scheme, "vault_id": view["vault_id"], "key_package": key_package.to_dict(),
                      "public_key_package": public.to_dict(), "config": config, "part_id": None}
            # The share is on disk (encrypted) before the service hears of it.
            self.store.save("share", key_set_id, record)
            self.store.delete("dkg", key_set_id)
        if record["part_id"] is None:
            part = await self.call("POST", "/api/v1/co-signer/part",
                                   {"config": record["config"], "intent_id": key_set_id})
            record["part_id"] = part["id"]
            self.store.save("share", key_set_id, record)
        await self.call("POST", f"/api/v1/co-signer/part/{record['part_id']}/commit")

    # --- signing ----------------------------------------------------------------------------

    def key_package(self, key_set_id: str) -> protocol.KeyPackage | None:
        record = self.store.load("share", key_set_id)
        return _suite(record).KeyPackage.from_dict(record["key_package"]) if record else None

    async def handle_signing_request(self, view: dict[str, Any], report: StepReport) -> None:
        session_id, action = view["id"], view["action"]
        share_record = self.store.load("share", view["key_set_id"])  # read (and decrypted) once per request
        if share_record is None or PARTICIPANT not in view["participants"]:
            report.skipped += 1
            return
        suite = _suite(share_record)
        key_package = suite.KeyPackage.from_dict(share_record["key_package"])
        if view["group_public_key"] != key_package.group_public_key.hex():
            raise CosignerError(f"signing request {session_id} names another group key")
        message = base64.b64decode(view["message"])
        if suite.ecdsa:
            if action == "presign":
                await self.make_presignature(view["key_set_id"], _signer_of(view["participants"]), key_package)
                report.presignatures += 1
            elif action == "sign":
                if await self._sign_ecdsa(view, key_package, message):
                    report.shares += 1
                else:
                    report.skipped += 1
            return
        if action == "commit":
            await self._commit(view, suite, key_package, message)
            report.commitments += 1
        elif action == "sign":
            if await self._sign(view, share_record, key_package, message):
                report.shares += 1
            else:
                report.skipped += 1

    async def _commit(self, view: dict[str, Any], suite: Suite, key_package: protocol.KeyPackage,
                      message: bytes) -> None:
        session_id = view["id"]
        if self.store.exists("signed", session_id):
            raise CosignerError(f"session {session_id} was already signed; no new nonce")
        record = self.store.load("nonce", session_id)
        if record is None:
            nonces, commitments = suite.frost.commit(key_package)
            record = {"nonces": nonces.to_dict(), "commitments": commitments.to_dict(),
                      "message_sha256": hashlib.sha256(message).hexdigest()}
            self.store.save("nonce", session_id, record)
        await self.call("POST", f"/api/v1/co-signer/signing-requests/{session_id}/commitment",
                        {"hiding": record["commitments"]["hiding"], "binding": record["commitments"]["binding"]})

    async def _sign(self, view: dict[str, Any], share_record: dict[str, Any], key_package: protocol.KeyPackage,
                    message: bytes) -> bool:
        session_id = view["id"]
        signed = self.store.load("signed", session_id)
        if signed is None:
            record = self.store.load("nonce", session_id)
            if record is None:
                logger.error("co-signer: no unused nonce for session %s; refusing to sign", session_id)
                return False
            if record["message_sha256"] != hashlib.sha256(message).hexdigest():
                logger.error("co-signer: session %s changed its message; refusing to sign", session_id)
                return False
            if self.approve is not None:
                verdict = self.approve(view)
                if inspect.isawaitable(verdict):
                    verdict = await verdict
                if not verdict:
                    logger.info("co-signer: session %s not approved (%s)", session_id, view["purpose"])
                    return False
            suite = _suite(share_record)
            if view.get("scheme", SCHEME) != suite.scheme:
                logger.error("co-signer: session %s names another scheme than its key set; refusing", session_id)
                return False
            commitments = [suite.SigningCommitments(c["participant"], bytes.fromhex(c["hiding"]),
                                                    bytes.fromhex(c["binding"])) for c in view["commitments"]]
            min_signers = share_record["public_key_package"]["min_signers"]
            # Taproot sessions sign for the output key of their merkle root (a P2TR address's key).
            merkle_root = None if view.get("merkle_root") is None else bytes.fromhex(view["merkle_root"])
            share = suite.engine(merkle_root).sign(key_package, suite.SigningNonces.from_dict(record["nonces"]),
                                                   message, commitments, min_signers=min_signers)
            signed = {"share": share.share.hex()}
            # Record the share, destroy the nonce, and only then let the share leave.
            self.store.save("signed", session_id, signed)
            self.store.delete("nonce", session_id)
        await self.call("POST", f"/api/v1/co-signer/signing-requests/{session_id}/share", {"share": signed["share"]})
        return True

    # --- threshold ECDSA: presignatures with a service signer, then one share -------------------

    async def make_presignature(self, key_set_id: str, signer: int, key_package: Any) -> str:
        """Make one presignature of the key set with service ``signer``: the service relays the
        protocol messages (two triples, then the presignature); this part is stored in the store
        *before* it is registered with the service, so a registered presignature is always on
        disk. Returns its ``R`` (hex)."""
        from threshold import ecdsa  # cait-sith loads only for threshold ECDSA key sets

        pair = (signer, PARTICIPANT)
        run_key = PrivateKey.generate()  # this run's X25519 key: every message is a Box with the signer's
        run = await self.call("POST", "/api/v1/co-signer/presignature-runs", {
            "key_set_id": key_set_id, "signer": signer,
            "transport_public_key": bytes(run_key.public_key).hex()})
        run_id = run["run_id"]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PRESIGNATURE_RUN_SECONDS
        path = f"/api/v1/co-signer/presignature-runs/{run_id}/messages"
        early: list[str] = []  # the signer's first messages may come with its key: kept for the first triple
        while True:  # the signer's run key, once its process took the run
            answer = await self.call("GET", f"{path}?phase=t0&wait=1")
            early += answer["messages"]
            signer_key = answer["signer_transport_public_key"]
            if signer_key:
                break
            if loop.time() > deadline:
                raise CosignerError(f"presignature run {run_id}: signer {signer} never started")
            await asyncio.sleep(0.2)
        if not transport_key_is_usable(bytes.fromhex(signer_key)):
            raise CosignerError(f"presignature run {run_id}: the signer's run key is unusable")
        box = Box(run_key, PublicKey(bytes.fromhex(signer_key)))
        key_share = ecdsa.KeyShare.from_key_package(key_package)
        first = await self._drive(ecdsa.triple(PARTICIPANT, pair), run_id, "t0", signer, deadline, box, early)
        second = await self._drive(ecdsa.triple(PARTICIPANT, pair), run_id, "t1", signer, deadline, box)
        presignature = await self._drive(ecdsa.presign(PARTICIPANT, pair, key_share, first, second), run_id,
                                         "presign", signer, deadline, box)
        self.store.save("presig", presignature_name(key_set_id, presignature.big_r),
                        {"key_set_id": key_set_id, "participants": sorted(pair),
                         "presignature": presignature.to_dict()})
        await self.call("POST", f"/api/v1/co-signer/presignature-runs/{run_id}/presignature",
                        {"big_r": presignature.big_r.hex()})
        return str(presignature.big_r.hex())

    async def _drive(self, party: Any, run_id: str, phase: str, signer: int, deadline: float, box: Box,
                     received: list[str] | None = None) -> Any:
        from threshold import ecdsa

        loop = asyncio.get_running_loop()
        path = f"/api/v1/co-signer/presignature-runs/{run_id}/messages"
        inbox = list(received or [])
        while True:
            for data in inbox:
                try:
                    opened = box.decrypt(base64.b64decode(data))
                except CryptoError:
                    raise CosignerError(f"presignature run {run_id}: a message of signer {signer} does not open") \
                        from None
                party.receive(ecdsa.Message(signer, PARTICIPANT, bytes(opened)))
            for message in party.outgoing():
                await self.call("POST", path, {"phase": phase,
                                               "data": base64.b64encode(bytes(box.encrypt(message.data))).decode()})
            if party.done:
                return party.result
            if loop.time() > deadline:
                raise CosignerError(f"presignature run {run_id}: signer {signer} went silent in {phase}")
            inbox = (await self.call("GET", f"{path}?phase={phase}&wait=5"))["messages"]

    async def _sign_ecdsa(self, view: dict[str, Any], key_package: Any, message: bytes) -> bool:
        """The co-signer's share of a threshold ECDSA session: with its part of the presignature
        the session took (``presignature_r``), which is deleted once the share is recorded and
        before it is sent; a presignature that is gone is never used again."""
        from threshold import ecdsa

        session_id = view["id"]
        signed = self.store.load("signed", session_id)
        if signed is None:
            if not view.get("presignature_r") or len(message) != 32:
                logger.error("co-signer: ECDSA session %s names no presignature or no digest; refusing", session_id)
                return False
            name = presignature_name(view["key_set_id"], bytes.fromhex(view["presignature_r"]))
            record = self.store.load("presig", name)
            if record is None or record["key_set_id"] != view["key_set_id"] \
                    or sorted(record["participants"]) != sorted(view["participants"]):
                logger.error("co-signer: no unused presignature of session %s here; refusing to sign", session_id)
                return False
            if self.approve is not None:
                verdict = self.approve(view)
                if inspect.isawaitable(verdict):
                    verdict = await verdict
                if not verdict:
                    logger.info("co-signer: session %s not approved (%s)", session_id, view["purpose"])
                    return False
            pair = tuple(sorted(record["participants"]))
            party = ecdsa.sign(PARTICIPANT, pair, ecdsa.KeyShare.from_key_package(key_package),
                               ecdsa.Presignature.from_dict(record["presignature"]), message)
            messages = party.outgoing()
            if len(messages) != 1:
                raise CosignerError(f"threshold ECDSA sign gave {len(messages)} messages")
            signed = {"share": ecdsa.signature_share(messages[0].data).to_bytes(32, "big").hex()}
            # Record the share, destroy the presignature, and only then let the share leave.
            self.store.save("signed", session_id, signed)
            self.store.delete("presig", name)
        await self.call("POST", f"/api/v1/co-signer/signing-requests/{session_id}/share", {"share": signed["share"]})
        return True

    def export_share(self, key_set_id: str) -> str:
        """The part config of a key set: the key package encrypted under the store's passphrase."""
        record = self.store.load("share", key_set_id)
        if record is None:
            raise CosignerError(f"no share for key set {key_set_id}")
        return record["config"]


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def _passphrase(path: str | None) -> bytes:
    if path:
        return Path(path).read_text().rstrip("\n").encode()
    return getpass.getpass("co-signer store passphrase: ").encode()


async def _run(args: argparse.Namespace) -> int:
    credentials = Credentials.from_file(args.credentials)
    store = ShareStore(args.store, _passphrase(args.passphrase_file))
    transport = HttpTransport(args.base_url or credentials.base_url)
    cosigner = CoSigner(transport, credentials=credentials, store=store)
    try:
        if args.once:
            print(json.dumps((await cosigner.step()).__dict__))
        else:
            await cosigner.run(interval=args.interval)
    finally:
        await transport.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(prog="python -m client.cosigner", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="take part in key generation and signing")
    run.add_argument("--credentials", required=True,
                     help="JSON: base_url, workspace_id, client_type, client_id, private_key")
    run.add_argument("--store", required=True, help="directory of the encrypted share store")
    run.add_argument("--passphrase-file", default=None, help="file holding the store passphrase (else prompted)")
    run.add_argument("--base-url", default=None, help="override the credentials' base_url")
    run.add_argument("--interval", type=float, default=2.0, help="seconds between polls")
    run.add_argument("--once", action="store_true", help="act once on what is waiting, then exit")
    export = sub.add_parser("export-share", help="write a key set's encrypted share (part config) to a file")
    export.add_argument("--store", required=True)
    export.add_argument("--passphrase-file", default=None)
    export.add_argument("--key-set", required=True)
    export.add_argument("--out", required=True)
    listing = sub.add_parser("list", help="list the key sets this co-signer holds a share of")
    listing.add_argument("--store", required=True)
    listing.add_argument("--passphrase-file", default=None)
    args = parser.parse_args(argv)

    try:
        if args.command == "run":
            return asyncio.run(_run(args))
        store = ShareStore(args.store, _passphrase(args.passphrase_file))
        if args.command == "list":
            for key_set_id in store.names("share"):
                entry = store.load("share", key_set_id) or {}
                print(key_set_id, entry.get("vault_id"), entry.get("key_package", {}).get("group_public_key"))
            return 0
        record = store.load("share", args.key_set)
        if record is None:
            raise CosignerError(f"no share for key set {args.key_set}")
        write_private_file(args.out, record["config"])
        print(f"encrypted share of key set {args.key_set} written to {args.out}")
        return 0
    except CosignerError as exc:
        print(f"co-signer: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
