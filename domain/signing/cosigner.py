"""The client co-signer's side of the protocol, as the service sees it through the API.

The co-signer (participant 3: a headless co-signer run by the client, or a paired device) is the
API user or device **the owner designated** (:func:`designate`, MANAGE_SIGNING_POLICY; audited and
announced; ``custody bootstrap`` designates its API user), still holding SIGN_TRANSACTION. Only
the designated principal sees an unclaimed key set and takes its seat, by sending that key
set's round-1 package; from then on only the same principal (same user, same device or no
device) sees and acts on that key set and its signing sessions, whoever is designated later.
Anyone else gets the 404 a missing object gets. A workspace without a designation has no
co-signer: its key generations wait (and time out naming participant 3).

Reading a co-signer part (:func:`get_part`: its config holds the key package, encrypted under the
client's passphrase) is reading key material: every read is audited and announced to the
owner and the administrators, like a backup file's download.

Key generation (see domain.signing.keys for the pipeline)::

    list_key_generations / get_key_generation   what the co-signer must do next (``action``)
    submit_round1    commitments + proof of knowledge + X25519 transport key (checked here)
    submit_round2    one Box-encrypted share per other participant (opaque to the service)
    register_part    POST /co-signer/part: the config with its passphrase-encrypted share
    commit_part      POST /co-signer/part/{id}/commit: the co-signer stored its share; may go ready
    complain         the co-signer caught another participant cheating: the DKG fails naming it

Signing (see domain.signing.sessions)::

    list_signing_requests / get_signing_request
    submit_commitment   round 1 (off-curve or malformed points: 400 INVALID_COMMITMENT)
    submit_share        round 2 (scalar >= L: 400 INVALID_SCALAR; a share that does not verify:
                        400 INVALID_SIGNATURE_SHARE; nothing is stored in either case)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Any

from core import clock
from core.channels import MessageChannels, broker_channels
from core.clock import rfc3339
from core.unit_of_work import nudge_after_commit
from domain import audit, notifications
from domain.auth import Principal
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.permissions import Permission, permissions_of
from domain.signing import keys, presignatures, sessions, stock
from models.auth import Device
from models.cosigner import CosignerDesignation, CosignerPart
from models.keys import DkgPackage, KeySet
from models.sessions import SigningCommitment, SigningSession, SigningShare
from models.users import User, WorkspaceMember
from threshold import frost, scheme
from threshold.cosigner_part import ConfigError, parse_config
from threshold.encoding import hex_or_none
from threshold.transport import transport_key_is_usable

ME = scheme.COSIGNER_PARTICIPANT
#: Upper bound on one Box-encrypted round-2 package (a Round2Package JSON is ~200 bytes).
MAX_ROUND2_CIPHERTEXT = 4096
LIST_LIMIT = 100


def _device_id(principal: Principal) -> uuid.UUID | None:
    return principal.device.id if principal.device is not None else None


def holds_seat(principal: Principal, key_set: KeySet) -> bool:
    """Whether ``principal`` is the co-signer of ``key_set`` (same user and same device)."""
    return (key_set.cosigner_user_id == principal.user.id
            and key_set.cosigner_device_id == _device_id(principal))


def _designated(principal: Principal, designation: CosignerDesignation | None) -> bool:
    return (designation is not None and designation.user_id == principal.user.id
            and designation.device_id == _device_id(principal))


def _may_see(principal: Principal, key_set: KeySet, designation: CosignerDesignation | None) -> bool:
    # An unclaimed key set is visible (and claimable) only to the designated co-signer, while round 1 is open.
    if key_set.cosigner_user_id is None:
        return key_set.status == "round1" and _designated(principal, designation)
    return holds_seat(principal, key_set)


async def _designation_of(workspace_id: uuid.UUID) -> CosignerDesignation | None:
    return await CosignerDesignation.get_or_none(workspace_id=workspace_id)


def _not_found() -> NotFound:
    return NotFound("key generation not found", code="KEY_GENERATION_NOT_FOUND")


async def _key_set_for(principal: Principal, workspace_id: uuid.UUID, key_set_id: uuid.UUID, *,
                       lock: bool = False) -> KeySet:
    principal.require(workspace_id, Permission.SIGN_TRANSACTION)
    query = KeySet.filter(id=key_set_id, workspace_id=workspace_id)
    key_set = await (query.select_for_update(no_key=True) if lock else query).first()
    if key_set is None or not _may_see(principal, key_set, await _designation_of(workspace_id)):
        raise _not_found()
    return key_set


# --------------------------------------------------------------------------------------------
# Key generation
# --------------------------------------------------------------------------------------------


@dataclass
class KeyGeneration:
    """What the co-signer sees of one key set's DKG."""

    key_set: KeySet
    round1: list[DkgPackage] = field(default_factory=list)
    round2_for_me: list[DkgPackage] = field(default_factory=list)
    submitted_round1: bool = False
    submitted_round2: bool = False
    part: CosignerPart | None = None

    @property
    def action(self) -> str | None:
        """The co-signer's next step: round1, round2, finalize (register + commit its part) or None."""
        status = self.key_set.status
        if status == "round1" and not self.submitted_round1:
            return "round1"
        if status == "round2" and not self.submitted_round2:
            return "round2"
        if status == "finalize" and (self.part is None or self.part.status != "committed"):
            return "finalize"
        return None


async def _view(key_set: KeySet) -> KeyGeneration:
    packages = await DkgPackage.filter(key_set_id=key_set.id).order_by("round", "sender", "recipient")
    view = KeyGeneration(key_set=key_set)
    view.submitted_round1 = any(p.round == 1 and p.sender == ME for p in packages)
    view.submitted_round2 = any(p.round == 2 and p.sender == ME for p in packages)
    # Broadcasts are shown only once everyone has committed (no one adapts to the others).
    if key_set.status != "round1":
        view.round1 = [p for p in packages if p.round == 1]
    if key_set.status in ("finalize", "ready"):
        view.round2_for_me = [p for p in packages if p.round == 2 and p.recipient == ME]
    view.part = await CosignerPart.get_or_none(key_set_id=key_set.id)
    return view


async def list_key_generations(*, principal: Principal, workspace_id: uuid.UUID) -> list[KeyGeneration]:
    """Key sets whose DKG waits for (or may be joined by) this co-signer, oldest first."""
    principal.require(workspace_id, Permission.SIGN_TRANSACTION)
    candidates = await KeySet.filter(workspace_id=workspace_id, status__in=list(keys.IN_PROGRESS)) \
        .order_by("created_at").limit(LIST_LIMIT * 4)
    designation = await _designation_of(workspace_id)
    views = [await _view(k) for k in candidates if _may_see(principal, k, designation)]
    return [v for v in views if v.action is not None][:LIST_LIMIT]


async def get_key_generation(
    *, principal: Principal, workspace_id: uuid.UUID, key_set_id: uuid.UUID
) -> KeyGeneration:
    return await _view(await _key_set_for(principal, workspace_id, key_set_id))


def _invalid_package(reason: str, **details: Any) -> ValidationFailed:
    return ValidationFailed(f"invalid round 1 package: {reason}", code="INVALID_DKG_PACKAGE",
                            details={"participant": ME, "reason": reason, **details})


async def submit_round1(
    *, principal: Principal, workspace_id: uuid.UUID, key_set_id: uuid.UUID, package: Any, transport_public_key: Any,
) -> KeyGeneration:
    """Take the co-signer seat and broadcast its round-1 package (checked before anything is stored)."""
    key_set = await _key_set_for(principal, workspace_id, key_set_id, lock=True)
    existing = await DkgPackage.get_or_none(key_set_id=key_set.id, round=1, sender=ME)
    payload = {"package": package, "transport_public_key": transport_public_key}
    if existing is not None:
        if existing.payload == payload:
            return await _view(key_set)  # the same request again: already done
        raise Conflict("a different round 1 package was already submitted", code="DKG_PACKAGE_ALREADY_SUBMITTED")
    if key_set.status != "round1":
        raise Conflict(f"key generation is in {key_set.status}, not round1", code="KEY_GENERATION_WRONG_ROUND",
                       details={"status": key_set.status})
    if not isinstance(package, dict):
        raise _invalid_package("package must be an object")
    try:
        dkg = keys.suite(key_set).dkg
        parsed = dkg.Round1Package.from_dict(package)
    except frost.FrostError as exc:
        raise _invalid_package(str(exc)) from None
    if parsed.sender != ME:
        raise _invalid_package(f"sender must be {ME}")
    if len(parsed.commitments) != key_set.min_signers:
        raise _invalid_package(f"expected {key_set.min_signers} commitments, got {len(parsed.commitments)}")
    if not dkg.verify_proof_of_knowledge(ME, bytes(key_set.context), parsed.commitments[0], parsed.proof_r,
                                         parsed.proof_mu):
        raise ValidationFailed("the proof of knowledge does not verify", code="INVALID_PROOF_OF_KNOWLEDGE",
                               details={"participant": ME})
    transport = hex_or_none(transport_public_key, size=32)
    if transport is None or not transport_key_is_usable(transport):
        raise ValidationFailed("transport_public_key must be a usable X25519 public key (64 hex characters)",
                               code="INVALID_TRANSPORT_KEY", details={"field": "transport_public_key"})
    key_set.cosigner_user = principal.user
    key_set.cosigner_device = principal.device
    await key_set.save(update_fields=["cosigner_user_id", "cosigner_device_id"])
    await DkgPackage.create(key_set_id=key_set.id, round=1, sender=ME, recipient=0,
                            payload={"package": parsed.to_dict(), "transport_public_key": transport.hex()})
    await keys.step_done(key_set, keys.COLLECT_ROUND1)
    await audit.record(action="key_set.cosigner_joined", object_type="key_set", object_id=key_set.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"device_id": str(principal.device.id) if principal.device else None})
    return await _view(key_set)


async def submit_round2(
    *, principal: Principal, workspace_id: uuid.UUID, key_set_id: uuid.UUID, packages: Any,
) -> KeyGeneration:
    """Store the co-signer's encrypted round-2 packages, one per other participant."""
    key_set = await _key_set_for(principal, workspace_id, key_set_id, lock=True)
    if not holds_seat(principal, key_set):
        raise _not_found()
    recipients = [p for p in keys.all_participants(key_set) if p != ME]
    if not isinstance(packages, list) or not all(isinstance(p, dict) for p in packages):
        raise ValidationFailed("packages must be a list of {recipient, ciphertext}", code="INVALID_DKG_PACKAGE",
                               details={"field": "packages"})
    by_recipient: dict[int, str] = {}
    for item in packages:
        recipient, ciphertext = item.get("recipient"), item.get("ciphertext")
        if not isinstance(recipient, int) or isinstance(recipient, bool) or recipient not in recipients \
                or recipient in by_recipient:
            raise ValidationFailed(f"each package needs a distinct recipient among {recipients}",
                                   code="INVALID_DKG_PACKAGE", details={"field": "packages.recipient"})
        try:
            raw = base64.b64decode(ciphertext, validate=True) if isinstance(ciphertext, str) else b""
        except (binascii.Error, ValueError):
            raw = b""
        if not 40 <= len(raw) <= MAX_ROUND2_CIPHERTEXT:
            raise ValidationFailed("ciphertext must be a base64 NaCl Box", code="INVALID_DKG_PACKAGE",
                                   details={"field": "packages.ciphertext", "recipient": recipient})
        by_recipient[recipient] = ciphertext
    if set(by_recipient) != set(recipients):
        raise ValidationFailed(f"one package is needed for each of {recipients}", code="INVALID_DKG_PACKAGE",
                               details={"field": "packages"})
    existing = {p.recipient: p.payload.get("ciphertext")
                for p in await DkgPackage.filter(key_set_id=key_set.id, round=2, sender=ME)}
    if existing:
        if existing == by_recipient:
            return await _view(key_set)
        raise Conflict("different round 2 packages were already submitted", code="DKG_PACKAGE_ALREADY_SUBMITTED")
    if key_set.status != "round2":
        raise Conflict(f"key generation is in {key_set.status}, not round2", code="KEY_GENERATION_WRONG_ROUND",
                       details={"status": key_set.status})
    for recipient, ciphertext in sorted(by_recipient.items()):
        await DkgPackage.create(key_set_id=key_set.id, round=2, sender=ME, recipient=recipient,
                                payload={"ciphertext": ciphertext})
    await keys.step_done(key_set, keys.COLLECT_ROUND2)
    return await _view(key_set)


async def complain(
    *, principal: Principal, workspace_id: uuid.UUID, key_set_id: uuid.UUID, participant: Any, reason: Any,
) -> KeySet:
    """The co-signer caught ``participant`` cheating (its own checks failed): the DKG fails naming it."""
    key_set = await _key_set_for(principal, workspace_id, key_set_id, lock=True)
    if not holds_seat(principal, key_set):
        raise _not_found()
    if not isinstance(participant, int) or isinstance(participant, bool) or participant == ME \
            or participant not in keys.all_participants(key_set):
        raise ValidationFailed("participant must be another participant of the key set", code="VALIDATION_ERROR",
                               details={"field": "participant"})
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        raise ValidationFailed("reason must be 1 to 500 characters", code="VALIDATION_ERROR",
                               details={"field": "reason"})
    if key_set.status not in keys.IN_PROGRESS:
        raise Conflict(f"key generation is {key_set.status}", code="KEY_GENERATION_WRONG_ROUND",
                       details={"status": key_set.status})
    await keys.fail(key_set, participant=participant, reason=f"reported by the co-signer: {reason.strip()}")
    return key_set


# --------------------------------------------------------------------------------------------
# Co-signer parts (POST /co-signer/part, GET /co-signer/part/{id}, POST .../commit)
# --------------------------------------------------------------------------------------------


def _part_not_found() -> NotFound:
    return NotFound("co-signer part not found", code="COSIGNER_PART_NOT_FOUND")


def _mismatch(reason: str) -> ValidationFailed:
    return ValidationFailed(f"the co-signer part does not match the key generation: {reason}",
                            code="COSIGNER_PART_MISMATCH", details={"reason": reason})


async def register_part(
    *, principal: Principal, workspace_id: uuid.UUID, intent_id: uuid.UUID, config: Any
) -> CosignerPart:
    """Save the co-signer's encrypted secret part for the key set ``intent_id`` (in finalize).

    The public half must be exactly what the round-1 broadcasts define for participant 3;
    the encrypted key package stays opaque. Repeating the same request returns the same part.
    """
    principal.require(workspace_id, Permission.SIGN_TRANSACTION)
    key_set = await KeySet.filter(id=intent_id, workspace_id=workspace_id).select_for_update(no_key=True).first()
    if key_set is None or not holds_seat(principal, key_set):
        raise NotFound("no key generation with this intent_id is waiting for you", code="INTENT_NOT_FOUND")
    existing = await CosignerPart.get_or_none(key_set_id=key_set.id)
    if existing is not None:
        if existing.config == config:
            return existing
        raise Conflict("a different part was already registered for this intent", code="COSIGNER_PART_EXISTS",
                       details={"part_id": str(existing.id), "status": existing.status})
    if key_set.status != "finalize":
        raise Conflict(f"key generation is in {key_set.status}, not finalize", code="KEY_GENERATION_WRONG_ROUND",
                       details={"status": key_set.status})
    try:
        parsed = parse_config(config, scheme=key_set.scheme)
    except ConfigError as exc:
        raise ValidationFailed(f"invalid config: {exc}", code="INVALID_COSIGNER_CONFIG",
                               details={"field": "config", "reason": str(exc)}) from None
    if parsed.key_set_id != key_set.id:
        raise _mismatch("config.key_set_id is not the intent_id")
    if (parsed.participant, parsed.min_signers, parsed.max_signers) != (ME, key_set.min_signers, key_set.max_signers):
        raise _mismatch("participant or threshold differ")
    expected = await keys.expected_public_key_package(key_set)
    if parsed.group_public_key != expected.group_public_key:
        raise _mismatch("group_public_key differs from the one the round 1 broadcasts define")
    if parsed.verifying_share != expected.verifying_shares[ME]:
        raise _mismatch("verifying_share differs from the one the round 1 broadcasts define")
    part = await CosignerPart.create(workspace_id=workspace_id, key_set_id=key_set.id, participant=ME,
                                     user=principal.user, device=principal.device, config=config)
    await audit.record(action="cosigner_part.registered", object_type="cosigner_part", object_id=part.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"key_set_id": str(key_set.id)})
    return part


def _owns_part(principal: Principal, part: CosignerPart) -> bool:
    return part.user_id == principal.user.id and part.device_id == _device_id(principal)


async def get_part(*, principal: Principal, workspace_id: uuid.UUID, part_id: uuid.UUID) -> CosignerPart:
    """A part, for the co-signer that registered it (or the owner, who manages backups).

    The config holds key material (the key package, under the client's passphrase): every read
    is audited (``cosigner_part.read``) and announced to the owner and the administrators."""
    access = principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    part = await CosignerPart.get_or_none(id=part_id, workspace_id=workspace_id)
    if part is None:
        raise _part_not_found()
    if part.user_id != principal.user.id and Permission.MANAGE_BACKUP not in access.permissions:
        raise _part_not_found()
    details = {"key_set_id": str(part.key_set_id), "actor_type": principal.user.user_type,
               "device_id": str(principal.device.id) if principal.device else None,
               "config_sha256": hashlib.sha256(part.config.encode()).hexdigest(), "at": rfc3339(clock.now())}
    await audit.record(action="cosigner_part.read", object_type="cosigner_part", object_id=part.id,
                       actor_id=principal.user.id, actor_type="device" if principal.device else "user",
                       workspace_id=workspace_id, details=details)
    await notifications.announce_to_admins(
        workspace_id=workspace_id, action="cosigner_part.read", subject="A co-signer part was read",
        body=(f"{_who(principal)} read the co-signer part {part.id} of key set {details['key_set_id']} (its key "
              f"package, encrypted under the co-signer's passphrase), at {details['at']}. If this was not "
              "expected, review who holds the OWNER role and the co-signer's credentials.\n"),
        details={"part_id": str(part.id), **details})
    return part


def _who(principal: Principal) -> str:
    user = principal.user
    who = user.email or (f"API user {user.api_user_name}" if user.api_user_name else str(user.id))
    return f"{who} (device {principal.device.id})" if principal.device else who


# --------------------------------------------------------------------------------------------
# The designation: who may take the co-signer seat
# --------------------------------------------------------------------------------------------


async def designation(*, principal: Principal, workspace_id: uuid.UUID) -> CosignerDesignation:
    """The workspace's designated co-signer (404 COSIGNER_NOT_DESIGNATED when none)."""
    principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    found = await _designation_of(workspace_id)
    if found is None:
        raise NotFound("the owner has not designated a co-signer", code="COSIGNER_NOT_DESIGNATED")
    return found


async def _designee(workspace_id: uuid.UUID, user_id: uuid.UUID | None,
                    device_id: uuid.UUID | None) -> tuple[User, Device | None]:
    """An API user, or an active paired device, of the workspace whose role may sign."""
    if (user_id is None) == (device_id is None):
        raise ValidationFailed("name either user_id (an API user) or device_id (a paired device)",
                               code="VALIDATION_ERROR", details={"field": "user_id", "reason": "exactly one of two"})
    device = None
    if device_id is not None:
        device = await Device.get_or_none(id=device_id, workspace_id=workspace_id, status="active")
        if device is None:
            raise NotFound("no active paired device with this id in the workspace", code="DEVICE_NOT_FOUND")
        user_id = device.user_id
    user = await User.get_or_none(id=user_id, status="active")
    member = await WorkspaceMember.get_or_none(workspace_id=workspace_id, user_id=user_id)
    if user is None or member is None:
        raise NotFound("user not found", code="USER_NOT_FOUND")
    if device is None and user.user_type != "api_user":
        raise ValidationFailed("a person co-signs from a paired device: name its device_id",
                               code="COSIGNER_NOT_ELIGIBLE", details={"field": "user_id", "reason": "a person"})
    if Permission.SIGN_TRANSACTION not in permissions_of(member.role):
        raise ValidationFailed(f"the role {member.role} cannot sign (SIGN_TRANSACTION)", code="COSIGNER_NOT_ELIGIBLE",
                               details={"field": "device_id" if device else "user_id", "role": member.role})
    return user, device


async def designate(*, principal: Principal | None, workspace_id: uuid.UUID, user_id: uuid.UUID | None = None,
                    device_id: uuid.UUID | None = None) -> CosignerDesignation:
    """The owner (MANAGE_SIGNING_POLICY) designates the co-signer of the workspace's key sets: an API
    user, or a paired device. ``principal`` None is the operator (``custody bootstrap``). Key sets
    already seated keep their co-signer. Audited and announced; designating the same one again
    changes and records nothing."""
    if principal is not None:
        principal.require(workspace_id, Permission.MANAGE_SIGNING_POLICY)
    user, device = await _designee(workspace_id, user_id, device_id)
    current = await CosignerDesignation.filter(workspace_id=workspace_id).select_for_update().first()
    if current is not None and current.user_id == user.id and current.device_id == (device.id if device else None):
        return current
    previous = ({"user_id": str(current.user_id), "device_id": str(current.device_id) if current.device_id else None}
                if current is not None else None)
    if current is None:
        current = CosignerDesignation(workspace_id=workspace_id)
    current.user, current.device = user, device
    current.designated_by = principal.user if principal is not None else None
    await current.save()
    details = {"user_id": str(user.id), "device_id": str(device.id) if device else None,
               "user_type": user.user_type, "previous": previous,
               "designated_by": str(principal.user.id) if principal else "operator"}
    await audit.record(action="cosigner.designated", object_type="cosigner_designation", object_id=current.id,
                       actor_id=principal.user.id if principal else None,
                       actor_type="device" if principal and principal.device else "user",
                       workspace_id=workspace_id, details=details)
    name = user.email or user.api_user_name or str(user.id)
    what = f"the device {device.name!r} ({device.fingerprint}) of {name}" if device else f"the API user {name}"
    await notifications.announce_to_admins(
        workspace_id=workspace_id, action="cosigner.designated", subject="The co-signer was designated",
        body=(f"{'The operator' if principal is None else _who(principal)} designated {what} as the co-signer of "
              "this workspace: it alone takes the co-signer seat of new vault keys. If this was not expected, "
              "review who holds the OWNER role.\n"),
        details=details)
    return current


async def commit_part(*, principal: Principal, workspace_id: uuid.UUID, part_id: uuid.UUID) -> CosignerPart:
    """The co-signer confirms it holds its share durably; the key set may become ready."""
    principal.require(workspace_id, Permission.SIGN_TRANSACTION)
    part = await CosignerPart.filter(id=part_id, workspace_id=workspace_id).select_for_update().first()
    if part is None or not _owns_part(principal, part):
        raise _part_not_found()
    if part.status == "committed":
        return part
    key_set = await KeySet.get(id=part.key_set_id)
    if key_set.status != "finalize":
        raise Conflict(f"key generation is {key_set.status}; the part cannot be committed",
                       code="KEY_GENERATION_WRONG_ROUND", details={"status": key_set.status})
    part.status = "committed"
    part.committed_at = clock.now()
    await part.save(update_fields=["status", "committed_at"])
    await keys.step_done(key_set, keys.COLLECT_RESULTS)
    await audit.record(action="cosigner_part.committed", object_type="cosigner_part", object_id=part.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"key_set_id": str(key_set.id)})
    return part


# --------------------------------------------------------------------------------------------
# Signing
# --------------------------------------------------------------------------------------------


@dataclass
class SigningRequest:
    """What the co-signer sees of one signing session it takes part in."""

    session: SigningSession
    key_set: KeySet
    commitments: list[SigningCommitment] = field(default_factory=list)
    submitted_commitment: bool = False
    submitted_share: bool = False
    #: Threshold ECDSA: the ``R`` of the presignature the session took (round 2).
    presignature_r: bytes | None = None
    #: Threshold ECDSA, round 1: the co-signer's part of a presignature is in, its signer's is on its way.
    partner_pending: bool = False

    @property
    def action(self) -> str | None:
        if self.session.status == "round1" and presignatures.is_ecdsa(self.key_set):
            # No presignature of the pair in stock: the co-signer makes one with its signer
            # (unless the one it just made only waits for the signer's part).
            return None if self.partner_pending else "presign"
        if self.session.status == "round1" and not self.submitted_commitment:
            return "commit"
        if self.session.status == "round2" and not self.submitted_share:
            return "sign"
        return None


def _request_not_found() -> NotFound:
    return NotFound("signing request not found", code="SIGNING_REQUEST_NOT_FOUND")


async def _request_view(session: SigningSession, key_set: KeySet) -> SigningRequest:
    commitments = await SigningCommitment.filter(session_id=session.id).order_by("participant")
    view = SigningRequest(session=session, key_set=key_set)
    view.submitted_commitment = any(c.participant == ME for c in commitments)
    view.submitted_share = await SigningShare.exists(session_id=session.id, participant=ME)
    if session.status != "round1":
        view.commitments = list(commitments)
    if presignatures.is_ecdsa(key_set) and session.status == "round1":
        view.partner_pending = await presignatures.cosigner_part_pending(
            key_set.id, presignatures.pair_of(session.participants))
    if presignatures.is_ecdsa(key_set) and session.status != "round1":
        taken = await stock.taken(session_id=session.id, kind=presignatures.kind_of(session.participants))
        view.presignature_r = taken[0].public if taken else None
    return view


async def _session_for(principal: Principal, workspace_id: uuid.UUID, session_id: uuid.UUID, *,
                       lock: bool = False) -> tuple[SigningSession, KeySet]:
    principal.require(workspace_id, Permission.SIGN_TRANSACTION)
    query = SigningSession.filter(id=session_id, workspace_id=workspace_id)
    session = await (query.select_for_update(no_key=True) if lock else query).first()
    if session is None or ME not in session.participants:
        raise _request_not_found()
    key_set = await KeySet.get(id=session.key_set_id)
    if not holds_seat(principal, key_set):
        raise _request_not_found()
    return session, key_set


async def list_signing_requests(*, principal: Principal, workspace_id: uuid.UUID) -> list[SigningRequest]:
    """Open sessions that wait for this co-signer's commitment or share, oldest first."""
    principal.require(workspace_id, Permission.SIGN_TRANSACTION)
    device_id = _device_id(principal)
    seat_query = KeySet.filter(workspace_id=workspace_id, cosigner_user_id=principal.user.id)
    seat_query = seat_query.filter(cosigner_device_id=device_id) if device_id else \
        seat_query.filter(cosigner_device_id__isnull=True)
    key_sets = {k.id: k for k in await seat_query}
    if not key_sets:
        return []
    sessions = await SigningSession.filter(workspace_id=workspace_id, key_set_id__in=list(key_sets),
                                           status__in=["round1", "round2"]).order_by("created_at") \
        .limit(LIST_LIMIT * 4)
    views = [await _request_view(s, key_sets[s.key_set_id]) for s in sessions if ME in s.participants]
    return [v for v in views if v.action is not None][:LIST_LIMIT]


async def get_signing_request(
    *, principal: Principal, workspace_id: uuid.UUID, session_id: uuid.UUID
) -> SigningRequest:
    session, key_set = await _session_for(principal, workspace_id, session_id)
    return await _request_view(session, key_set)


async def submit_commitment(
    *, principal: Principal, workspace_id: uuid.UUID, session_id: uuid.UUID, hiding: bytes, binding: bytes,
) -> SigningRequest:
    """Round 1 of the co-signer: its commitments, validated as prime-order group elements."""
    session, key_set = await _session_for(principal, workspace_id, session_id, lock=True)
    existing = await SigningCommitment.get_or_none(session_id=session.id, participant=ME)
    if existing is not None:
        if bytes(existing.hiding) == hiding and bytes(existing.binding) == binding:
            return await _request_view(session, key_set)
        raise Conflict("a different commitment was already submitted", code="COMMITMENT_ALREADY_SUBMITTED")
    if session.status != "round1":
        raise Conflict(f"signing session is {session.status}, not round1", code="SIGNING_REQUEST_WRONG_ROUND",
                       details={"status": session.status})
    try:
        commitments = keys.suite(key_set).SigningCommitments(ME, hiding, binding)
    except frost.FrostError as exc:
        raise ValidationFailed(f"invalid commitment: {exc}", code="INVALID_COMMITMENT",
                               details={"participant": ME, "reason": str(exc)}) from None
    await SigningCommitment.create(session_id=session.id, participant=ME, hiding=commitments.hiding,
                                   binding=commitments.binding)
    await sessions.request_collection_if_complete(session, sessions.COLLECT_COMMITMENTS)
    return await _request_view(session, key_set)


async def submit_share(
    *, principal: Principal, workspace_id: uuid.UUID, session_id: uuid.UUID, share: bytes,
) -> SigningRequest:
    """Round 2 of the co-signer: its signature share, range-checked and verified before it is kept."""
    session, key_set = await _session_for(principal, workspace_id, session_id, lock=True)
    existing = await SigningShare.get_or_none(session_id=session.id, participant=ME)
    if existing is not None:
        if bytes(existing.share) == share:
            return await _request_view(session, key_set)
        raise Conflict("a different signature share was already submitted", code="SHARE_ALREADY_SUBMITTED")
    if session.status != "round2":
        raise Conflict(f"signing session is {session.status}, not round2", code="SIGNING_REQUEST_WRONG_ROUND",
                       details={"status": session.status})
    if presignatures.is_ecdsa(key_set):
        return await _submit_ecdsa_share(session, key_set, share)
    try:
        signature_share = keys.suite(key_set).SignatureShare(ME, share)
    except frost.FrostError as exc:
        raise ValidationFailed(f"invalid signature share: {exc}", code="INVALID_SCALAR",
                               details={"participant": ME, "field": "share"}) from None
    public = keys.public_key_package(key_set)
    engine = sessions.session_engine(session, key_set)  # Taproot: the session's output key
    if not engine.verify_signature_share(signature_share, public.verifying_shares[ME],
                                         await sessions.commitment_list(session, key_set), public.group_public_key,
                                         bytes(session.message)):
        raise ValidationFailed("the signature share does not verify", code="INVALID_SIGNATURE_SHARE",
                               details={"participant": ME})
    await SigningShare.create(session_id=session.id, participant=ME, share=signature_share.share)
    await sessions.request_collection_if_complete(session, sessions.AGGREGATE)
    return await _request_view(session, key_set)


async def _submit_ecdsa_share(session: SigningSession, key_set: KeySet, share: bytes) -> SigningRequest:
    """The co-signer's share of a threshold ECDSA session (the session row locked, round 2): ``s_i``,
    32 bytes big-endian below the group order. Its presignature's stock item is used in this
    transaction (a second share is refused); the combined signature is checked under the group
    key when the last share is in (a wrong share fails the session naming the co-signer)."""
    from threshold.secp256k1 import N

    if not 0 < int.from_bytes(share, "big") < N:
        raise ValidationFailed("invalid signature share: not a scalar below the secp256k1 order", code="INVALID_SCALAR",
                               details={"participant": ME, "field": "share"})
    try:
        await stock.use(session_id=session.id, holder=stock.holder_of(ME),
                        kind=presignatures.kind_of(session.participants), share_key=None)
    except stock.StockItemUsed as exc:
        raise Conflict("the co-signer's presignature of this session was already used",
                       code="SHARE_ALREADY_SUBMITTED", details=exc.details) from None
    await SigningShare.create(session_id=session.id, participant=ME, share=share)
    await sessions.request_collection_if_complete(session, sessions.AGGREGATE)
    return await _request_view(session, key_set)


# --------------------------------------------------------------------------------------------
# Threshold ECDSA presignatures with the co-signer (domain.signing.presignatures, rule 5)
# --------------------------------------------------------------------------------------------

#: The phases of one run: two triples, then the presignature (service_signer.make_presignature).
RUN_PHASES = ("t0", "t1", "presign")
#: Largest protocol message the relay carries (a triple run's messages are tens of KB).
MAX_RUN_MESSAGE = 1 << 20
#: Longest a relay read waits for the signer's next message.
MAX_RUN_WAIT_SECONDS = 10.0


def _channels() -> MessageChannels:
    return broker_channels(ttl_seconds=presignatures.COSIGNER_RUN_TTL_SECONDS)


def _run_not_found() -> NotFound:
    return NotFound("presignature run not found", code="PRESIGNATURE_RUN_NOT_FOUND")


async def _ecdsa_key_set(principal: Principal, workspace_id: uuid.UUID, key_set_id: uuid.UUID) -> KeySet:
    key_set = await _key_set_for(principal, workspace_id, key_set_id)
    if not holds_seat(principal, key_set) or not presignatures.is_ecdsa(key_set):
        raise _not_found()
    if key_set.status != "ready":
        raise keys.KeySetNotReady("the key set is not ready", details={"status": key_set.status})
    return key_set


async def start_presignature_run(*, principal: Principal, workspace_id: uuid.UUID, key_set_id: uuid.UUID,
                                 signer: int, transport_public_key: bytes) -> dict[str, Any]:
    """The co-signer starts making one presignature of its ECDSA key set with service ``signer``:
    the run is bound to this co-signer's seat (only it can send or read the run's messages) and
    the signer is woken after commit. At most :data:`presignatures.MAX_COSIGNER_STOCK` in stock.
    ``transport_public_key``: the co-signer's X25519 key of this run; every message is a Box
    between it and the signer's run key (:func:`receive_run_messages` gives that one)."""
    if signer not in scheme.SERVICE_PARTICIPANTS:
        raise ValidationFailed("signer must be 1 or 2", code="INVALID_PARTICIPANTS", details={"field": "signer"})
    if len(transport_public_key) != 32 or not transport_key_is_usable(transport_public_key):
        raise ValidationFailed("transport_public_key must be a usable X25519 public key (64 hex characters)",
                               code="INVALID_TRANSPORT_KEY", details={"field": "transport_public_key"})
    key_set = await _ecdsa_key_set(principal, workspace_id, key_set_id)
    pair = presignatures.pair_of([signer, ME])
    if await presignatures.available(key_set.id, pair) >= presignatures.MAX_COSIGNER_STOCK:
        raise Conflict(f"the key set already has {presignatures.MAX_COSIGNER_STOCK} presignatures with signer {signer}",
                       code="PRESIGNATURE_STOCK_FULL", details={"signer": signer})
    run = str(uuid.uuid4())
    _channels().describe(run, {"workspace_id": str(workspace_id), "key_set_id": str(key_set.id), "signer": signer,
                               "user_id": str(principal.user.id), "device_id": str(_device_id(principal)),
                               "transport_public_key": bytes(transport_public_key).hex()})
    nudge_after_commit(keys.signer_actor(signer, presignatures.COSIGNER_RUN_STEP), str(key_set.id), run)
    return {"run_id": run, "key_set_id": key_set.id, "signer": signer, "participants": list(pair),
            "phases": list(RUN_PHASES)}


def _run_of(principal: Principal, workspace_id: uuid.UUID, run: uuid.UUID, phase: str | None = None) -> dict[str, Any]:
    principal.require(workspace_id, Permission.SIGN_TRANSACTION)
    about = _channels().description(str(run))
    if about is None or about["workspace_id"] != str(workspace_id) or about["user_id"] != str(principal.user.id) \
            or about["device_id"] != str(_device_id(principal)):
        raise _run_not_found()
    if phase is not None and phase not in RUN_PHASES:
        raise ValidationFailed(f"phase must be one of {', '.join(RUN_PHASES)}", code="VALIDATION_ERROR",
                               details={"field": "phase"})
    return about


async def send_run_message(*, principal: Principal, workspace_id: uuid.UUID, run_id: uuid.UUID, phase: str,
                           data: bytes) -> None:
    """Relay one protocol message of the co-signer to the run's signer (in order)."""
    about = _run_of(principal, workspace_id, run_id, phase)
    if not data or len(data) > MAX_RUN_MESSAGE:
        raise ValidationFailed(f"a message is 1 to {MAX_RUN_MESSAGE} bytes", code="VALIDATION_ERROR",
                               details={"field": "data"})
    _channels().send(f"{run_id}:{phase}", int(about["signer"]), data)


async def receive_run_messages(*, principal: Principal, workspace_id: uuid.UUID, run_id: uuid.UUID, phase: str,
                               wait: float) -> tuple[list[bytes], bytes | None]:
    """The signer's messages (Boxes) of the run's ``phase`` for the co-signer, in order (waiting
    up to ``wait`` seconds for the first; empty when none came), and the signer's run key (None
    until the signer started)."""
    _run_of(principal, workspace_id, run_id, phase)
    channels = _channels()
    name = f"{run_id}:{phase}"
    messages = channels.drain(name, ME)
    if not messages and wait > 0:
        from core.channels import ChannelTimeout

        try:
            messages = [await channels.receive(name, ME, timeout=min(float(wait), MAX_RUN_WAIT_SECONDS))]
        except ChannelTimeout:
            messages = []
        else:
            messages += channels.drain(name, ME)
    # Read once, after the messages: the signer publishes its run key before its first message,
    # and may have started during the wait.
    signer = channels.description(f"{run_id}:signer")
    return messages, bytes.fromhex(signer["transport_public_key"]) if signer else None


async def register_presignature(*, principal: Principal, workspace_id: uuid.UUID, run_id: uuid.UUID,
                                big_r: bytes) -> bool:
    """The co-signer stored its part of the run's presignature (``R`` = ``big_r``) on its disk:
    record it so that a session can take it with the signer's part (presignatures rule 5)."""
    about = _run_of(principal, workspace_id, run_id)
    if len(big_r) != 33 or big_r[0] not in (2, 3):
        raise ValidationFailed("big_r is a 33-byte SEC1 point", code="INVALID_COMMITMENT", details={"field": "big_r"})
    key_set = await _ecdsa_key_set(principal, workspace_id, uuid.UUID(about["key_set_id"]))
    return await presignatures.register_cosigner_part(key_set, presignatures.pair_of([int(about["signer"]), ME]),
                                                      big_r)
