"""The client co-signer's API: /api/v1/co-signer (parts, key generation, signing, policy).

The spec's co-signer part endpoints (POST /part, GET /part/{id}, POST /part/{id}/commit) plus
the endpoints a co-signer polls and posts its protocol messages to; all take a bearer token of
an API user or paired device with SIGN_TRANSACTION and X-Workspace-Id. Byte values inside
protocol packages are lowercase hex (points and scalars, as in threshold.frost / threshold.dkg),
messages and ciphertexts are base64. See docs/signing.md.
"""

from __future__ import annotations

import base64
import uuid
from typing import Any

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api.context import iso, json_body, workspace
from core.unit_of_work import unit_of_work
from domain import validation as v
from domain.errors import ValidationFailed
from domain.signing import cosigner, sessions
from models.cosigner import CosignerPart
from models.sessions import SigningPolicy
from threshold import scheme
from threshold.encoding import hex_or_none

bp = Blueprint("cosigner", url_prefix="/api/v1/co-signer")


def _hex(body: dict[str, Any], name: str, size: int, code: str) -> bytes:
    value = body.get(name)
    raw = hex_or_none(value, size=size)
    if raw is None:
        raise ValidationFailed(f"{name} must be {2 * size} hex characters ({size} bytes)", code=code,
                               details={"field": name, "reason": f"must be {size} bytes as hex"})
    return raw


def serialize_part(part: CosignerPart) -> dict[str, Any]:
    device_id = part.device_id or part.user_id  # type: ignore[attr-defined]
    return {
        "id": str(part.id),
        "config": part.config,
        # The paired device; for a headless co-signer (an API user) its API user id.
        "device_id": str(device_id),
        "workspace_id": str(part.workspace_id),  # type: ignore[attr-defined]
        "intent_id": str(part.key_set_id),  # type: ignore[attr-defined]
        "status": part.status,
        "created_at": iso(part.created_at),
        "committed_at": iso(part.committed_at),
    }


def serialize_key_generation(view: cosigner.KeyGeneration) -> dict[str, Any]:
    key_set = view.key_set
    return {
        "key_set_id": str(key_set.id),
        "vault_id": str(key_set.vault_id),  # type: ignore[attr-defined]
        "scheme": key_set.scheme,
        "status": key_set.status,
        "action": view.action,
        "participant": scheme.COSIGNER_PARTICIPANT,
        "min_signers": key_set.min_signers,
        "max_signers": key_set.max_signers,
        "context": bytes(key_set.context).hex(),
        "round1_packages": [
            {"sender": p.sender, "package": p.payload["package"],
             "transport_public_key": p.payload["transport_public_key"]} for p in view.round1
        ],
        "round2_packages": [{"sender": p.sender, "ciphertext": p.payload["ciphertext"]} for p in view.round2_for_me],
        "part": {"id": str(view.part.id), "status": view.part.status} if view.part else None,
        "group_public_key": bytes(key_set.group_public_key).hex() if key_set.group_public_key else None,
        "failed_participant": key_set.failed_participant,
        "failure_reason": key_set.failure_reason,
    }


def serialize_signing_request(view: cosigner.SigningRequest) -> dict[str, Any]:
    session, key_set = view.session, view.key_set
    return {
        "id": str(session.id),
        "vault_id": str(session.vault_id),  # type: ignore[attr-defined]
        "key_set_id": str(key_set.id),
        "status": session.status,
        "action": view.action,
        "purpose": session.purpose,
        "message": base64.b64encode(bytes(session.message)).decode(),
        "participants": session.participants,
        "group_public_key": bytes(key_set.group_public_key).hex() if key_set.group_public_key else None,
        "commitments": [{"participant": c.participant, "hiding": bytes(c.hiding).hex(),
                         "binding": bytes(c.binding).hex()} for c in view.commitments],
        "signature": bytes(session.signature).hex() if session.signature else None,
        "created_at": iso(session.created_at),
    }


def serialize_policy(policy: SigningPolicy) -> dict[str, Any]:
    return {"workspace_id": str(policy.workspace_id), "cosigner_required": policy.cosigner_required}  # type: ignore[attr-defined]


# --- co-signer parts (spec) ---------------------------------------------------------------------


@bp.post("/part")
@openapi.summary("Register the co-signer's encrypted secret part for a key generation (intent_id)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"config": str, "intent_id": str}})
async def register_part(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    intent_id = v.uuid_value(body.get("intent_id"), "intent_id")
    config = v.string(body, "config", max_len=16384)
    async with unit_of_work():
        part = await cosigner.register_part(principal=caller, workspace_id=ws.id, intent_id=intent_id, config=config)
    return json(serialize_part(part), status=201)


@bp.get("/part/<part_id:uuid>")
@openapi.summary("A co-signer part: config, device_id, workspace_id")
@openapi.secured("BearerAuth")
async def get_part(request: Request, part_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    return json(serialize_part(await cosigner.get_part(principal=caller, workspace_id=ws.id, part_id=part_id)))


@bp.post("/part/<part_id:uuid>/commit")
@openapi.summary("Commit the part: the co-signer holds its share durably; the key set may become ready")
@openapi.secured("BearerAuth")
async def commit_part(request: Request, part_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        part = await cosigner.commit_part(principal=caller, workspace_id=ws.id, part_id=part_id)
    return json(serialize_part(part))


# --- key generation -------------------------------------------------------------------------------


@bp.get("/key-generations")
@openapi.summary("Key generations waiting for this co-signer (see `action`)")
@openapi.secured("BearerAuth")
async def list_key_generations(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    views = await cosigner.list_key_generations(principal=caller, workspace_id=ws.id)
    return json({"items": [serialize_key_generation(view) for view in views]})


@bp.get("/key-generations/<key_set_id:uuid>")
@openapi.summary("One key generation as the co-signer sees it")
@openapi.secured("BearerAuth")
async def get_key_generation(request: Request, key_set_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    view = await cosigner.get_key_generation(principal=caller, workspace_id=ws.id, key_set_id=key_set_id)
    return json(serialize_key_generation(view))


@bp.post("/key-generations/<key_set_id:uuid>/round1")
@openapi.summary("DKG round 1: commitments, proof of knowledge, X25519 transport key (takes the co-signer seat)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"package": dict, "transport_public_key": str}})
async def submit_round1(request: Request, key_set_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    async with unit_of_work():
        view = await cosigner.submit_round1(principal=caller, workspace_id=ws.id, key_set_id=key_set_id,
                                            package=body.get("package"),
                                            transport_public_key=body.get("transport_public_key"))
    return json(serialize_key_generation(view))


@bp.post("/key-generations/<key_set_id:uuid>/round2")
@openapi.summary("DKG round 2: one Box-encrypted share per other participant")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"packages": list}})
async def submit_round2(request: Request, key_set_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    async with unit_of_work():
        view = await cosigner.submit_round2(principal=caller, workspace_id=ws.id, key_set_id=key_set_id,
                                            packages=body.get("packages"))
    return json(serialize_key_generation(view))


@bp.post("/key-generations/<key_set_id:uuid>/complaint")
@openapi.summary("Report a participant caught cheating; the key generation fails naming it")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"participant": int, "reason": str}})
async def complain(request: Request, key_set_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    async with unit_of_work():
        key_set = await cosigner.complain(principal=caller, workspace_id=ws.id, key_set_id=key_set_id,
                                          participant=body.get("participant"), reason=body.get("reason"))
    return json({"key_set_id": str(key_set.id), "status": key_set.status,
                 "failed_participant": key_set.failed_participant, "failure_reason": key_set.failure_reason})


# --- signing ----------------------------------------------------------------------------------------


@bp.get("/signing-requests")
@openapi.summary("Signing sessions waiting for this co-signer's commitment or share")
@openapi.secured("BearerAuth")
async def list_signing_requests(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    views = await cosigner.list_signing_requests(principal=caller, workspace_id=ws.id)
    return json({"items": [serialize_signing_request(view) for view in views]})


@bp.get("/signing-requests/<session_id:uuid>")
@openapi.summary("One signing session as the co-signer sees it")
@openapi.secured("BearerAuth")
async def get_signing_request(request: Request, session_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    view = await cosigner.get_signing_request(principal=caller, workspace_id=ws.id, session_id=session_id)
    return json(serialize_signing_request(view))


@bp.post("/signing-requests/<session_id:uuid>/commitment")
@openapi.summary("Signing round 1: the co-signer's hiding and binding commitments (hex)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"hiding": str, "binding": str}})
async def submit_commitment(request: Request, session_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    hiding = _hex(body, "hiding", 32, "INVALID_COMMITMENT")
    binding = _hex(body, "binding", 32, "INVALID_COMMITMENT")
    async with unit_of_work():
        view = await cosigner.submit_commitment(principal=caller, workspace_id=ws.id, session_id=session_id,
                                                hiding=hiding, binding=binding)
    return json(serialize_signing_request(view))


@bp.post("/signing-requests/<session_id:uuid>/share")
@openapi.summary("Signing round 2: the co-signer's signature share (hex scalar)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"share": str}})
async def submit_share(request: Request, session_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    share = _hex(json_body(request), "share", 32, "INVALID_SCALAR")
    async with unit_of_work():
        view = await cosigner.submit_share(principal=caller, workspace_id=ws.id, session_id=session_id, share=share)
    return json(serialize_signing_request(view))


# --- workspace signing policy --------------------------------------------------------------------


@bp.get("/policy")
@openapi.summary("Whether signing needs the co-signer's share in this workspace")
@openapi.secured("BearerAuth")
async def get_policy(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    return json(serialize_policy(await sessions.read_policy(principal=caller, workspace_id=ws.id)))


@bp.put("/policy")
@openapi.summary("Owner: require (or not) the co-signer's share for every signature")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"cosigner_required": bool}})
async def put_policy(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    value = json_body(request).get("cosigner_required")
    if not isinstance(value, bool):
        raise ValidationFailed("cosigner_required must be a boolean", code="VALIDATION_ERROR",
                               details={"field": "cosigner_required", "reason": "must be true or false"})
    async with unit_of_work():
        policy = await sessions.set_policy(principal=caller, workspace_id=ws.id, cosigner_required=value)
    return json(serialize_policy(policy))
