"""The client co-signer's API: /api/v1/co-signer (parts, key generation, signing, policy).

The spec's co-signer part endpoints (POST /part, GET /part/{id}, POST /part/{id}/commit) plus
the endpoints a co-signer polls and posts its protocol messages to; all take a bearer token of
an API user or paired device with SIGN_TRANSACTION and X-Workspace-Id. Only the co-signer the
owner designated (PUT /designation) takes the seat of a new key set. Byte values inside
protocol packages are lowercase hex (points and scalars, as in threshold.frost / threshold.dkg),
messages and ciphertexts are base64. See docs/signing.md.

Only the co-signer holding a key set's seat sees it and its signing sessions: everyone else gets
the 404 of a missing object.
"""

from __future__ import annotations

import base64
import binascii
import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.cosigner import (
    CommitmentSubmission,
    CosignerDesignation,
    CosignerDesignationUpdate,
    CosignerPart,
    CosignerPartRegistration,
    DkgComplaint,
    KeyGeneration,
    KeyGenerationFailure,
    KeyGenerationList,
    PresignatureRegistered,
    PresignatureRegistration,
    PresignatureRun,
    PresignatureRunRequest,
    Round1Submission,
    Round2Submission,
    RunMessages,
    RunMessagesQuery,
    RunMessageSubmission,
    ShareSubmission,
    SigningPolicy,
    SigningPolicyUpdate,
    SigningRequest,
    SigningRequestList,
)
from core.unit_of_work import unit_of_work
from domain.errors import ValidationFailed
from domain.signing import cosigner, sessions

bp = Blueprint("cosigner", url_prefix="/api/v1/co-signer")

_TAG = "co-signer"
_NO_KEY_GENERATION = {404: ["KEY_GENERATION_NOT_FOUND"]}
_NO_SIGNING_REQUEST = {404: ["SIGNING_REQUEST_NOT_FOUND"]}
_NO_PART = {404: ["COSIGNER_PART_NOT_FOUND"]}


# --- co-signer parts (spec) ---------------------------------------------------------------------


@bp.post("/part")
@endpoint(summary="Register the co-signer's encrypted secret part for a key generation (intent_id)", tag=_TAG,
          description="Repeating the same config returns the same part (201).",
          body=CosignerPartRegistration, responses={201: CosignerPart}, workspace=True,
          errors={400: ["INVALID_COSIGNER_CONFIG", "COSIGNER_PART_MISMATCH"], 404: ["INTENT_NOT_FOUND"],
                  409: ["COSIGNER_PART_EXISTS", "KEY_GENERATION_WRONG_ROUND"]})
async def register_part(request: Request, body: CosignerPartRegistration) -> CosignerPart:
    caller, ws = await workspace(request)
    async with unit_of_work():
        part = await cosigner.register_part(principal=caller, workspace_id=ws.id, intent_id=body.intent_id,
                                            config=body.config)
    return CosignerPart.of(part)


@bp.get("/part/<part_id:uuid>")
@endpoint(summary="A co-signer part: config, device_id, workspace_id", tag=_TAG,
          description="For the co-signer that registered it, or a member who manages backups (VIEW_WORKSPACE). "
                      "The config holds key material: every read is audited (cosigner_part.read) and announced "
                      "to the owner and the administrators.",
          responses={200: CosignerPart}, workspace=True, errors=_NO_PART)
async def get_part(request: Request, part_id: uuid.UUID) -> CosignerPart:
    caller, ws = await workspace(request)
    async with unit_of_work():  # the read is audited and announced in the same transaction
        part = await cosigner.get_part(principal=caller, workspace_id=ws.id, part_id=part_id)
    return CosignerPart.of(part)


@bp.post("/part/<part_id:uuid>/commit")
@endpoint(summary="Commit the part: the co-signer holds its share durably; the key set may become ready",
          tag=_TAG, responses={200: CosignerPart}, workspace=True,
          errors={**_NO_PART, 409: ["KEY_GENERATION_WRONG_ROUND"]})
async def commit_part(request: Request, part_id: uuid.UUID) -> CosignerPart:
    caller, ws = await workspace(request)
    async with unit_of_work():
        part = await cosigner.commit_part(principal=caller, workspace_id=ws.id, part_id=part_id)
    return CosignerPart.of(part)


# --- key generation -------------------------------------------------------------------------------


@bp.get("/key-generations")
@endpoint(summary="Key generations waiting for this co-signer (see `action`)", tag=_TAG,
          responses={200: KeyGenerationList}, workspace=True)
async def list_key_generations(request: Request) -> KeyGenerationList:
    caller, ws = await workspace(request)
    views = await cosigner.list_key_generations(principal=caller, workspace_id=ws.id)
    return KeyGenerationList(items=[KeyGeneration.of(view) for view in views])


@bp.get("/key-generations/<key_set_id:uuid>")
@endpoint(summary="One key generation as the co-signer sees it", tag=_TAG, responses={200: KeyGeneration},
          workspace=True, errors=_NO_KEY_GENERATION)
async def get_key_generation(request: Request, key_set_id: uuid.UUID) -> KeyGeneration:
    caller, ws = await workspace(request)
    view = await cosigner.get_key_generation(principal=caller, workspace_id=ws.id, key_set_id=key_set_id)
    return KeyGeneration.of(view)


@bp.post("/key-generations/<key_set_id:uuid>/round1")
@endpoint(summary="DKG round 1: commitments, proof of knowledge, X25519 transport key (takes the co-signer seat)",
          tag=_TAG, description="Repeating the same package returns the key generation unchanged.",
          body=Round1Submission, responses={200: KeyGeneration}, workspace=True,
          errors={400: ["INVALID_DKG_PACKAGE", "INVALID_PROOF_OF_KNOWLEDGE", "INVALID_TRANSPORT_KEY"],
                  **_NO_KEY_GENERATION, 409: ["DKG_PACKAGE_ALREADY_SUBMITTED", "KEY_GENERATION_WRONG_ROUND"]})
async def submit_round1(request: Request, key_set_id: uuid.UUID, body: Round1Submission) -> KeyGeneration:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await cosigner.submit_round1(principal=caller, workspace_id=ws.id, key_set_id=key_set_id,
                                            package=body.package.model_dump(),
                                            transport_public_key=body.transport_public_key)
    return KeyGeneration.of(view)


@bp.post("/key-generations/<key_set_id:uuid>/round2")
@endpoint(summary="DKG round 2: one Box-encrypted share per other participant", tag=_TAG,
          description="Repeating the same packages returns the key generation unchanged.",
          body=Round2Submission, responses={200: KeyGeneration}, workspace=True,
          errors={400: ["INVALID_DKG_PACKAGE"], **_NO_KEY_GENERATION,
                  409: ["DKG_PACKAGE_ALREADY_SUBMITTED", "KEY_GENERATION_WRONG_ROUND"]})
async def submit_round2(request: Request, key_set_id: uuid.UUID, body: Round2Submission) -> KeyGeneration:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await cosigner.submit_round2(principal=caller, workspace_id=ws.id, key_set_id=key_set_id,
                                            packages=[package.model_dump() for package in body.packages])
    return KeyGeneration.of(view)


@bp.post("/key-generations/<key_set_id:uuid>/complaint")
@endpoint(summary="Report a participant caught cheating; the key generation fails naming it", tag=_TAG,
          body=DkgComplaint, responses={200: KeyGenerationFailure}, workspace=True,
          errors={**_NO_KEY_GENERATION, 409: ["KEY_GENERATION_WRONG_ROUND"]})
async def complain(request: Request, key_set_id: uuid.UUID, body: DkgComplaint) -> KeyGenerationFailure:
    caller, ws = await workspace(request)
    async with unit_of_work():
        key_set = await cosigner.complain(principal=caller, workspace_id=ws.id, key_set_id=key_set_id,
                                          participant=body.participant, reason=body.reason)
    return KeyGenerationFailure.of(key_set)


# --- signing ----------------------------------------------------------------------------------------


@bp.get("/signing-requests")
@endpoint(summary="Signing sessions waiting for this co-signer's commitment or share", tag=_TAG,
          responses={200: SigningRequestList}, workspace=True)
async def list_signing_requests(request: Request) -> SigningRequestList:
    caller, ws = await workspace(request)
    views = await cosigner.list_signing_requests(principal=caller, workspace_id=ws.id)
    return SigningRequestList(items=[SigningRequest.of(view) for view in views])


@bp.get("/signing-requests/<session_id:uuid>")
@endpoint(summary="One signing session as the co-signer sees it", tag=_TAG, responses={200: SigningRequest},
          workspace=True, errors=_NO_SIGNING_REQUEST)
async def get_signing_request(request: Request, session_id: uuid.UUID) -> SigningRequest:
    caller, ws = await workspace(request)
    view = await cosigner.get_signing_request(principal=caller, workspace_id=ws.id, session_id=session_id)
    return SigningRequest.of(view)


@bp.post("/signing-requests/<session_id:uuid>/commitment")
@endpoint(summary="Signing round 1: the co-signer's hiding and binding commitments (hex)", tag=_TAG,
          description="Repeating the same commitments returns the signing request unchanged.",
          body=CommitmentSubmission, responses={200: SigningRequest}, workspace=True,
          errors={400: ["INVALID_COMMITMENT"], **_NO_SIGNING_REQUEST,
                  409: ["COMMITMENT_ALREADY_SUBMITTED", "SIGNING_REQUEST_WRONG_ROUND"]})
async def submit_commitment(request: Request, session_id: uuid.UUID, body: CommitmentSubmission) -> SigningRequest:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await cosigner.submit_commitment(principal=caller, workspace_id=ws.id, session_id=session_id,
                                                hiding=body.hiding, binding=body.binding)
    return SigningRequest.of(view)


@bp.post("/signing-requests/<session_id:uuid>/share")
@endpoint(summary="Signing round 2: the co-signer's signature share (hex scalar)", tag=_TAG,
          description="Repeating the same share returns the signing request unchanged.",
          body=ShareSubmission, responses={200: SigningRequest}, workspace=True,
          errors={400: ["INVALID_SCALAR", "INVALID_SIGNATURE_SHARE"], **_NO_SIGNING_REQUEST,
                  # KEY_SET_NOT_READY: the session's key set has no public package (never for a
                  # session the service opened, which needs a ready key).
                  409: ["SHARE_ALREADY_SUBMITTED", "SIGNING_REQUEST_WRONG_ROUND", "KEY_SET_NOT_READY"]})
async def submit_share(request: Request, session_id: uuid.UUID, body: ShareSubmission) -> SigningRequest:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await cosigner.submit_share(principal=caller, workspace_id=ws.id, session_id=session_id,
                                           share=body.share)
    return SigningRequest.of(view)


# --- threshold ECDSA presignatures with the co-signer -----------------------------------------------

_NO_RUN = {404: ["PRESIGNATURE_RUN_NOT_FOUND"]}


@bp.post("/presignature-runs")
@endpoint(summary="Threshold ECDSA: start making one presignature with a service signer", tag=_TAG,
          description="The co-signer holding the key set's seat starts a run (two triples, then the "
                      "presignature) with service signer 1 or 2; the service relays the protocol messages "
                      "(POST/GET .../messages) to that signer, which stores its part. The co-signer keeps its own "
                      "part and registers it (POST .../presignature). See docs/signing.md.",
          body=PresignatureRunRequest, responses={201: PresignatureRun}, workspace=True,
          errors={400: ["INVALID_TRANSPORT_KEY", "INVALID_PARTICIPANTS"], **_NO_KEY_GENERATION,
                  409: ["KEY_SET_NOT_READY", "PRESIGNATURE_STOCK_FULL"]})
async def start_presignature_run(request: Request, body: PresignatureRunRequest) -> PresignatureRun:
    caller, ws = await workspace(request)
    async with unit_of_work():
        run = await cosigner.start_presignature_run(principal=caller, workspace_id=ws.id,
                                                    key_set_id=body.key_set_id, signer=body.signer,
                                                    transport_public_key=bytes.fromhex(body.transport_public_key))
    return PresignatureRun(**run)


@bp.post("/presignature-runs/<run_id:uuid>/messages")
@endpoint(summary="Threshold ECDSA: one protocol message of the co-signer for the run's signer", tag=_TAG,
          body=RunMessageSubmission, responses={200: RunMessages}, workspace=True, errors=_NO_RUN)
async def send_run_message(request: Request, run_id: uuid.UUID, body: RunMessageSubmission) -> RunMessages:
    caller, ws = await workspace(request)
    try:
        data = base64.b64decode(body.data, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationFailed("data must be base64", code="VALIDATION_ERROR", details={"field": "data"}) from None
    await cosigner.send_run_message(principal=caller, workspace_id=ws.id, run_id=run_id, phase=body.phase, data=data)
    return RunMessages(messages=[])


@bp.get("/presignature-runs/<run_id:uuid>/messages")
@endpoint(summary="Threshold ECDSA: the run's signer's messages for the co-signer (waits up to `wait` s)",
          tag=_TAG, query=RunMessagesQuery, responses={200: RunMessages}, workspace=True, errors=_NO_RUN)
async def receive_run_messages(request: Request, run_id: uuid.UUID, query: RunMessagesQuery) -> RunMessages:
    caller, ws = await workspace(request)
    messages, signer_key = await cosigner.receive_run_messages(principal=caller, workspace_id=ws.id, run_id=run_id,
                                                               phase=query.phase, wait=query.wait)
    return RunMessages(messages=[base64.b64encode(m).decode() for m in messages],
                       signer_transport_public_key=signer_key.hex() if signer_key else None)


@bp.post("/presignature-runs/<run_id:uuid>/presignature")
@endpoint(summary="Threshold ECDSA: the co-signer stored its part of the run's presignature", tag=_TAG,
          body=PresignatureRegistration, responses={200: PresignatureRegistered}, workspace=True,
          errors={400: ["INVALID_COMMITMENT"], **_NO_RUN, 409: ["KEY_SET_NOT_READY"]})
async def register_presignature(request: Request, run_id: uuid.UUID,
                                body: PresignatureRegistration) -> PresignatureRegistered:
    caller, ws = await workspace(request)
    async with unit_of_work():
        registered = await cosigner.register_presignature(principal=caller, workspace_id=ws.id, run_id=run_id,
                                                          big_r=body.big_r)
    return PresignatureRegistered(run_id=run_id, registered=registered)


# --- workspace signing policy --------------------------------------------------------------------


@bp.get("/policy")
@endpoint(summary="Whether signing needs the co-signer's share in this workspace (VIEW_WORKSPACE)", tag=_TAG,
          responses={200: SigningPolicy}, workspace=True)
async def get_policy(request: Request) -> SigningPolicy:
    caller, ws = await workspace(request)
    return SigningPolicy.of(await sessions.read_policy(principal=caller, workspace_id=ws.id))


@bp.put("/policy")
@endpoint(summary="Owner: require (or not) the co-signer's share for every signature (MANAGE_SIGNING_POLICY)",
          tag=_TAG, body=SigningPolicyUpdate, responses={200: SigningPolicy}, workspace=True)
async def put_policy(request: Request, body: SigningPolicyUpdate) -> SigningPolicy:
    caller, ws = await workspace(request)
    async with unit_of_work():
        policy = await sessions.set_policy(principal=caller, workspace_id=ws.id,
                                           cosigner_required=body.cosigner_required)
    return SigningPolicy.of(policy)


# --- the designated co-signer ----------------------------------------------------------------------


@bp.get("/designation")
@endpoint(summary="Who may take the co-signer seat of the workspace's key sets (VIEW_WORKSPACE)", tag=_TAG,
          responses={200: CosignerDesignation}, workspace=True, errors={404: ["COSIGNER_NOT_DESIGNATED"]})
async def get_designation(request: Request) -> CosignerDesignation:
    caller, ws = await workspace(request)
    return CosignerDesignation.of(await cosigner.designation(principal=caller, workspace_id=ws.id))


@bp.put("/designation")
@endpoint(summary="Owner: designate the co-signer, an API user or a paired device (MANAGE_SIGNING_POLICY)",
          description="Only the designated co-signer takes the seat of new key sets; seated key sets keep their "
                      "co-signer. The designee's role must hold SIGN_TRANSACTION; a person is designated by their "
                      "paired device. Audited (cosigner.designated) and announced to the owner and the "
                      "administrators.",
          tag=_TAG, body=CosignerDesignationUpdate, responses={200: CosignerDesignation}, workspace=True,
          errors={400: ["COSIGNER_NOT_ELIGIBLE"], 404: ["USER_NOT_FOUND", "DEVICE_NOT_FOUND"]})
async def put_designation(request: Request, body: CosignerDesignationUpdate) -> CosignerDesignation:
    caller, ws = await workspace(request)
    async with unit_of_work():
        row = await cosigner.designate(principal=caller, workspace_id=ws.id, user_id=body.user_id,
                                       device_id=body.device_id)
    return CosignerDesignation.of(row)
