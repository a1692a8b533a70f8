"""The client co-signer's requests and responses (/api/v1/co-signer; docs/signing.md).

Points and scalars travel as hex of 32 bytes (lowercase when the service writes them; either
case is read), messages and ciphertexts as base64. The schema checks the shape of each protocol
message; the service checks what only it can (points on the curve and of prime order, scalars
below L, proofs, the co-signer seat), with the same error code for either.
"""

from __future__ import annotations

import base64
import re
import uuid
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StringConstraints, WithJsonSchema

from api.schemas.common import QueryParams, RequestBody, Resource, Timestamp, refused_as, text
from domain.signing import cosigner, keys, sessions
from models.cosigner import CosignerDesignation as CosignerDesignationRow
from models.cosigner import CosignerPart as CosignerPartRow
from models.keys import KeySet
from models.sessions import SigningPolicy as SigningPolicyRow
from threshold import scheme

_HEX32 = r"^[0-9a-fA-F]{64}$"
#: Hex of 32 bytes: an encoded point (commitment, key) or a little-endian scalar.
Hex32 = Annotated[str, StringConstraints(pattern=_HEX32)]
_HEX_POINT = r"^[0-9a-fA-F]{64}([0-9a-fA-F]{2})?$"
#: Hex of an encoded point: 32 bytes (Ed25519 key sets) or 33 bytes (SEC1, secp256k1 key sets).
HexPoint = Annotated[str, StringConstraints(pattern=_HEX_POINT)]
#: Largest co-signer part config taken (a config is about 1 KB).
MAX_CONFIG_LENGTH = 16384
#: Base64 of one round-2 NaCl Box: 40 to 4096 bytes.
_BOX_MIN_TEXT = 4 * ((40 + 2) // 3)
_BOX_MAX_TEXT = 4 * ((cosigner.MAX_ROUND2_CIPHERTEXT + 2) // 3)

Participant = Annotated[int, Field(ge=1, le=scheme.MAX_SIGNERS)]
ServiceParticipant = Literal[scheme.SERVICE_PARTICIPANTS]
KeySetStatus = Literal[keys.STATUSES]
SessionStatus = Literal[sessions.STATUSES]
PartStatus = Literal["registered", "committed"]
CosignerParticipant = Literal[scheme.COSIGNER_PARTICIPANT]
ComplaintReason = text(max_length=500)


def _hex32_bytes(value: Any) -> bytes:
    if not isinstance(value, str):
        raise ValueError("must be a hex string")
    if not re.fullmatch(_HEX32, value):
        raise ValueError("must be 32 bytes as hex (64 characters)")
    return bytes.fromhex(value)


def _hex_point_bytes(value: Any) -> bytes:
    if not isinstance(value, str):
        raise ValueError("must be a hex string")
    if not re.fullmatch(_HEX_POINT, value):
        raise ValueError("must be a 32-byte (Ed25519) or 33-byte (secp256k1) point as hex")
    return bytes.fromhex(value)


#: A point as hex (32 or 33 bytes), handed to the service as bytes.
HexPointBytes = Annotated[bytes, BeforeValidator(_hex_point_bytes),
                          WithJsonSchema({"type": "string", "pattern": _HEX_POINT, "minLength": 64, "maxLength": 66})]

#: 32 bytes as hex, handed to the service as bytes.
Hex32Bytes = Annotated[bytes, BeforeValidator(_hex32_bytes),
                       WithJsonSchema({"type": "string", "pattern": _HEX32, "minLength": 64, "maxLength": 64})]


# --- requests ----------------------------------------------------------------------------------------


class CosignerPartRegistration(RequestBody):
    config: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_CONFIG_LENGTH)] = \
        Field(description="The co-signer part config: a JSON object serialized as a string (docs/signing.md). "
                          "Malformed: 400 INVALID_COSIGNER_CONFIG; not what the round-1 broadcasts define: "
                          "400 COSIGNER_PART_MISMATCH.")
    intent_id: uuid.UUID = Field(description="The key set id of the key generation.")


class Round1Package(RequestBody):
    """The co-signer's round-1 broadcast (threshold.dkg.Round1Package)."""

    sender: CosignerParticipant = Field(description="The co-signer's participant identifier.")
    commitments: list[HexPoint] = Field(min_length=scheme.MIN_SIGNERS, max_length=scheme.MAX_SIGNERS,
                                     description="The coefficient commitments (as many as the threshold).")
    proof_r: HexPoint = Field(description="R of the proof of knowledge (a point).")
    proof_mu: Hex32 = Field(description="mu of the proof of knowledge (a scalar).")


class Round1Submission(RequestBody):
    package: Annotated[Round1Package, refused_as("INVALID_DKG_PACKAGE")] = Field(
        description="Malformed, off-curve or small-order commitments, a scalar >= L or another sender: "
                    "400 INVALID_DKG_PACKAGE; a proof that does not verify: 400 INVALID_PROOF_OF_KNOWLEDGE.")
    transport_public_key: Annotated[Hex32, refused_as("INVALID_TRANSPORT_KEY")] = Field(
        description="The co-signer's X25519 key for the round-2 Boxes (hex); unusable: 400 INVALID_TRANSPORT_KEY.")


class Round2Package(RequestBody):
    recipient: ServiceParticipant = Field(description="The participant the share is for.")
    ciphertext: Annotated[str, StringConstraints(min_length=_BOX_MIN_TEXT, max_length=_BOX_MAX_TEXT,
                                                 pattern=r"^[A-Za-z0-9+/]*={0,2}$")] = Field(
        description="Base64 of the NaCl Box (nonce included) to the recipient's transport key.")


class Round2Submission(RequestBody):
    packages: Annotated[list[Round2Package], Field(min_length=len(scheme.SERVICE_PARTICIPANTS),
                                                   max_length=len(scheme.SERVICE_PARTICIPANTS)),
                        refused_as("INVALID_DKG_PACKAGE")] = Field(
        description="One package for each other participant; otherwise 400 INVALID_DKG_PACKAGE.")


class DkgComplaint(RequestBody):
    participant: Participant = Field(description="The participant caught cheating (not the co-signer itself).")
    reason: ComplaintReason = Field(description="What the co-signer's checks found, 1 to 500 characters.")


class CommitmentSubmission(RequestBody):
    hiding: Annotated[HexPointBytes, refused_as("INVALID_COMMITMENT")] = Field(
        description="The hiding nonce commitment (a point); malformed, off-curve or small-order: "
                    "400 INVALID_COMMITMENT.")
    binding: Annotated[HexPointBytes, refused_as("INVALID_COMMITMENT")] = Field(
        description="The binding nonce commitment (a point); same rules.")


class ShareSubmission(RequestBody):
    share: Annotated[Hex32Bytes, refused_as("INVALID_SCALAR")] = Field(
        description="The signature share (a little-endian scalar below L; otherwise 400 INVALID_SCALAR). "
                    "A share that does not verify is 400 INVALID_SIGNATURE_SHARE.")


class PresignatureRunRequest(RequestBody):
    key_set_id: uuid.UUID = Field(description="The threshold ECDSA key set whose co-signer seat the caller holds.")
    signer: Literal[1, 2] = Field(1, description="The service signer the presignature is made with: the pair "
                                                 "{signer, 3} signs with it.")
    transport_public_key: Annotated[Hex32, refused_as("INVALID_TRANSPORT_KEY")] = Field(
        description="The co-signer's X25519 key of this run (hex): every message both ways is a NaCl Box between "
                    "it and the signer's run key; unusable: 400 INVALID_TRANSPORT_KEY.")


class PresignatureRun(Resource):
    run_id: uuid.UUID
    key_set_id: uuid.UUID
    signer: int
    participants: list[int]
    phases: list[str] = Field(description="The run's phases in order: two triples (t0, t1), then presign.")


class RunMessageSubmission(RequestBody):
    phase: Literal["t0", "t1", "presign"]
    data: str = Field(max_length=1_500_000, description="Base64 of one protocol message for the signer.")


class RunMessagesQuery(QueryParams):
    phase: Literal["t0", "t1", "presign"]
    wait: float = Field(5.0, ge=0, le=10, description="Seconds to wait for the first message.")


class RunMessages(Resource):
    messages: list[str] = Field(description="Base64 of the signer's messages (Boxes) for the co-signer, in order.")
    signer_transport_public_key: str | None = Field(
        None, description="Hex of the signer's X25519 key of this run (null until the signer started the run).")


class PresignatureRegistration(RequestBody):
    big_r: Annotated[HexPointBytes, refused_as("INVALID_COMMITMENT")] = Field(
        description="Hex (33 bytes, SEC1) of the R of the presignature the co-signer stored.")


class PresignatureRegistered(Resource):
    run_id: uuid.UUID
    registered: bool = Field(description="False when this R was registered before.")


class CosignerDesignationUpdate(RequestBody):
    user_id: uuid.UUID | None = Field(None, description="An API user of the workspace that may sign: a headless "
                                                        "co-signer (custody cosigner run).")
    device_id: uuid.UUID | None = Field(None, description="Or an active paired device, whose user may sign.")


class SigningPolicyUpdate(RequestBody):
    cosigner_required: bool = Field(description="Whether every signature needs the co-signer's share.")


# --- responses ---------------------------------------------------------------------------------------


class CosignerPart(Resource):
    id: uuid.UUID
    config: str = Field(description="The config as registered (its key package encrypted under the co-signer's "
                                    "passphrase).")
    device_id: uuid.UUID = Field(description="The paired device; for a headless co-signer, its API user id.")
    workspace_id: uuid.UUID
    intent_id: uuid.UUID = Field(description="The key set id.")
    status: PartStatus
    created_at: Timestamp
    committed_at: Timestamp | None

    @classmethod
    def of(cls, part: CosignerPartRow) -> "CosignerPart":
        return cls(id=part.id, config=part.config,
                   device_id=part.device_id or part.user_id,
                   workspace_id=part.workspace_id,
                   intent_id=part.key_set_id,
                   status=part.status, created_at=part.created_at, committed_at=part.committed_at)


class Round1PackageView(Resource):
    sender: Participant
    commitments: list[str]
    proof_r: str
    proof_mu: str


class Round1Broadcast(Resource):
    sender: Participant
    package: Round1PackageView
    transport_public_key: str = Field(description="The sender's X25519 transport key (hex).")


class Round2Delivery(Resource):
    sender: Participant
    ciphertext: str = Field(description="Base64 NaCl Box from the sender to the co-signer's transport key.")


class CosignerPartSummary(Resource):
    id: uuid.UUID
    status: PartStatus


class KeyGeneration(Resource):
    """One key set's distributed key generation as the co-signer sees it."""

    key_set_id: uuid.UUID
    vault_id: uuid.UUID
    scheme: str
    status: KeySetStatus
    action: Literal["round1", "round2", "finalize"] | None = Field(
        description="The co-signer's next step; finalize = register and commit its part.")
    participant: CosignerParticipant
    min_signers: int
    max_signers: int
    context: str = Field(description="Hex; the proof of knowledge is bound to it.")
    round1_packages: list[Round1Broadcast] = Field(description="Every round-1 broadcast, once all are in.")
    round2_packages: list[Round2Delivery] = Field(description="The packages addressed to the co-signer, in finalize.")
    part: CosignerPartSummary | None
    group_public_key: str | None = Field(description="Hex, once the key is generated.")
    failed_participant: int | None
    failure_reason: str | None

    @classmethod
    def of(cls, view: cosigner.KeyGeneration) -> "KeyGeneration":
        key_set = view.key_set
        return cls(
            key_set_id=key_set.id, vault_id=key_set.vault_id,
            scheme=key_set.scheme, status=key_set.status, action=view.action,
            participant=scheme.COSIGNER_PARTICIPANT, min_signers=key_set.min_signers,
            max_signers=key_set.max_signers, context=bytes(key_set.context).hex(),
            round1_packages=[Round1Broadcast(sender=p.sender, package=Round1PackageView(**p.payload["package"]),
                                             transport_public_key=p.payload["transport_public_key"])
                             for p in view.round1],
            round2_packages=[Round2Delivery(sender=p.sender, ciphertext=p.payload["ciphertext"])
                             for p in view.round2_for_me],
            part=CosignerPartSummary(id=view.part.id, status=view.part.status) if view.part else None,
            group_public_key=bytes(key_set.group_public_key).hex() if key_set.group_public_key else None,
            failed_participant=key_set.failed_participant, failure_reason=key_set.failure_reason,
        )


class KeyGenerationList(Resource):
    items: list[KeyGeneration] = Field(description=f"Oldest first, at most {cosigner.LIST_LIMIT}.")


class KeyGenerationFailure(Resource):
    """The key generation after a complaint: failed, naming the participant."""

    key_set_id: uuid.UUID
    status: KeySetStatus
    failed_participant: int | None
    failure_reason: str | None

    @classmethod
    def of(cls, key_set: KeySet) -> "KeyGenerationFailure":
        return cls(key_set_id=key_set.id, status=key_set.status, failed_participant=key_set.failed_participant,
                   failure_reason=key_set.failure_reason)


class SigningCommitmentView(Resource):
    participant: Participant
    hiding: str = Field(description="Hex of the hiding commitment.")
    binding: str = Field(description="Hex of the binding commitment.")


class SigningRequest(Resource):
    """One signing session the co-signer takes part in."""

    id: uuid.UUID
    vault_id: uuid.UUID
    key_set_id: uuid.UUID
    status: SessionStatus
    action: Literal["commit", "sign", "presign"] | None = Field(
        description="The co-signer's next step (presign: a threshold ECDSA session waits for a presignature of "
                    "its pair; the co-signer makes one with its service signer, POST /presignature-runs).")
    purpose: str
    message: str = Field(description="Base64 of the message to sign.")
    scheme: str = Field(description="The key set's threshold scheme (what the co-signer signs with).")
    merkle_root: str | None = Field(
        description="Taproot schemes: hex of the script tree root whose output key is signed for (empty: "
                    "the key-path-only output of a Bitcoin address); null: the key set's own key.")
    participants: list[Participant]
    group_public_key: str | None = Field(description="Hex of the group public key.")
    commitments: list[SigningCommitmentView] = Field(description="Every participant's commitments, from round 2.")
    signature: str | None = Field(description="Hex of the signature, once complete.")
    presignature_r: str | None = Field(
        None, description="Threshold ECDSA, from round 2: hex (SEC1, 33 bytes) of the R of the presignature the "
                          "session took; the co-signer signs with its own part of that presignature, once.")
    created_at: Timestamp

    @classmethod
    def of(cls, view: cosigner.SigningRequest) -> "SigningRequest":
        session, key_set = view.session, view.key_set
        return cls(
            id=session.id, vault_id=session.vault_id,
            key_set_id=key_set.id, status=session.status, action=view.action, purpose=session.purpose,
            message=base64.b64encode(bytes(session.message)).decode(), participants=list(session.participants),
            scheme=key_set.scheme,
            merkle_root=None if session.merkle_root is None else bytes(session.merkle_root).hex(),
            group_public_key=bytes(key_set.group_public_key).hex() if key_set.group_public_key else None,
            commitments=[SigningCommitmentView(participant=c.participant, hiding=bytes(c.hiding).hex(),
                                               binding=bytes(c.binding).hex()) for c in view.commitments],
            signature=bytes(session.signature).hex() if session.signature else None,
            presignature_r=view.presignature_r.hex() if view.presignature_r else None,
            created_at=session.created_at,
        )


class SigningRequestList(Resource):
    items: list[SigningRequest] = Field(description=f"Oldest first, at most {cosigner.LIST_LIMIT}.")


class SigningPolicy(Resource):
    workspace_id: uuid.UUID
    cosigner_required: bool

    @classmethod
    def of(cls, policy: SigningPolicyRow) -> "SigningPolicy":
        return cls(workspace_id=policy.workspace_id,
                   cosigner_required=policy.cosigner_required)


class CosignerDesignation(Resource):
    workspace_id: uuid.UUID
    user_id: uuid.UUID = Field(description="The API user, or the person whose device it is.")
    device_id: uuid.UUID | None = Field(description="The paired device; null for an API user (a headless co-signer).")
    designated_by: uuid.UUID | None = Field(description="The owner who designated it; null: the operator "
                                                        "(custody bootstrap).")
    designated_at: Timestamp

    @classmethod
    def of(cls, row: CosignerDesignationRow) -> "CosignerDesignation":
        return cls(workspace_id=row.workspace_id, user_id=row.user_id, device_id=row.device_id,
                   designated_by=row.designated_by_id, designated_at=row.updated_at)
