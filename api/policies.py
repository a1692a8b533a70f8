"""Policies: /api/v2/admin/tenants/{tenant_uuid}/policies (admin paths, like the spec's change approvals).

Reads need VIEW_WORKSPACE; publishing and rolling back need MANAGE_POLICIES (OWNER, ADMIN,
NON_SIGNING_ADMIN). ``policy_type`` is ``transfer`` or ``aml``. Rules, evaluation order,
windows and explain: docs/policies.md.
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import principal
from api.contract import Reply, endpoint, gated
from api.schemas.policies import (
    Explain,
    ExplainRequest,
    PolicyList,
    PolicyPublish,
    PolicyRollback,
    PolicyState,
    PolicyVersion,
    PolicyVersionPage,
    PolicyVersionQuery,
)
from core.unit_of_work import unit_of_work
from domain.errors import NotFound
from domain.policies import rules as R
from domain.policies import service

bp = Blueprint("policies", url_prefix="/api/v2/admin/tenants/<tenant_uuid:uuid>/policies")

_TAG = "policies"
_WS = {403: ["PERMISSION_DENIED"], 404: ["WORKSPACE_NOT_FOUND"]}
_TYPE = {403: ["PERMISSION_DENIED"], 404: ["WORKSPACE_NOT_FOUND", "POLICY_TYPE_NOT_FOUND"]}
_RULE_ERRORS = {400: ["INVALID_POLICY_RULE"]}


@bp.get("")
@endpoint(summary="Both policy types with their published versions (VIEW_WORKSPACE)", tag=_TAG,
          responses={200: PolicyList}, errors=_WS)
async def list_policies(request: Request, tenant_uuid: uuid.UUID) -> PolicyList:
    caller = await principal(request)
    states = []
    for policy_type in R.POLICY_TYPES:
        row = await service.get_policy(principal=caller, workspace_id=tenant_uuid, policy_type=policy_type)
        states.append(PolicyState(policy_type=policy_type, policy_type_name=R.POLICY_TYPE_NAMES[policy_type],
                                  published=PolicyVersion.of(row) if row else None))
    return PolicyList(policies=states)


@bp.get("/<policy_type:str>")
@endpoint(summary="A policy type and its published version (null before the first publish)", tag=_TAG,
          responses={200: PolicyState}, errors=_TYPE)
async def get_policy(request: Request, tenant_uuid: uuid.UUID, policy_type: str) -> PolicyState:
    caller = await principal(request)
    row = await service.get_policy(principal=caller, workspace_id=tenant_uuid, policy_type=policy_type)
    return PolicyState(policy_type=policy_type, policy_type_name=R.POLICY_TYPE_NAMES[policy_type],
                       published=PolicyVersion.of(row) if row else None)


@bp.put("/<policy_type:str>")
@endpoint(summary="Publish the ordered rules as the next version (MANAGE_POLICIES; Manage policies: update)",
          description="Answers 201 with the new version. Rules are validated as a whole (400 INVALID_POLICY_RULE "
                      "names the field); tags, vaults, wallets, whitelisted wallets and approvers must be the "
                      "workspace's.", tag=_TAG, body=PolicyPublish, responses={201: PolicyVersion},
          errors=gated({**_TYPE, **_RULE_ERRORS}))
async def publish_policy(request: Request, tenant_uuid: uuid.UUID, policy_type: str, body: PolicyPublish) -> Reply:
    caller = await principal(request)
    async with unit_of_work():
        row = await service.publish_policy(principal=caller, workspace_id=tenant_uuid, policy_type=policy_type,
                                           rules=body.rules, no_match_action=body.no_match_action)
    return Reply(PolicyVersion.of(row), 201)


@bp.get("/<policy_type:str>/versions")
@endpoint(summary="The history of published versions, newest first (VIEW_WORKSPACE)", tag=_TAG,
          query=PolicyVersionQuery, responses={200: PolicyVersionPage}, errors=_TYPE)
async def list_versions(request: Request, tenant_uuid: uuid.UUID, policy_type: str,
                        query: PolicyVersionQuery) -> PolicyVersionPage:
    caller = await principal(request)
    rows, total = await service.list_versions(principal=caller, workspace_id=tenant_uuid, policy_type=policy_type,
                                              limit=query.limit, offset=query.offset)
    return PolicyVersionPage(items=[PolicyVersion.of(r) for r in rows], total=total, limit=query.limit,
                             offset=query.offset)


def _version(raw: int) -> int:
    if not 1 <= raw <= 2**31 - 1:
        raise NotFound("no such version", code="POLICY_VERSION_NOT_FOUND", details={"version": str(raw)})
    return raw


@bp.get("/<policy_type:str>/versions/<version:int>")
@endpoint(summary="One published version (VIEW_WORKSPACE)", tag=_TAG, responses={200: PolicyVersion},
          errors={403: ["PERMISSION_DENIED"],
                  404: ["WORKSPACE_NOT_FOUND", "POLICY_TYPE_NOT_FOUND", "POLICY_VERSION_NOT_FOUND"]})
async def get_version(request: Request, tenant_uuid: uuid.UUID, policy_type: str, version: int) -> PolicyVersion:
    caller = await principal(request)
    return PolicyVersion.of(await service.get_version(principal=caller, workspace_id=tenant_uuid,
                                                      policy_type=policy_type, version=_version(version)))


@bp.post("/<policy_type:str>/rollback")
@endpoint(summary="Publish a copy of an earlier version as the next one (MANAGE_POLICIES; Manage policies: "
                  "rollback)", tag=_TAG, body=PolicyRollback, responses={201: PolicyVersion},
          errors=gated({403: ["PERMISSION_DENIED"],
                        404: ["WORKSPACE_NOT_FOUND", "POLICY_TYPE_NOT_FOUND", "POLICY_VERSION_NOT_FOUND"],
                        **_RULE_ERRORS}))
async def rollback_policy(request: Request, tenant_uuid: uuid.UUID, policy_type: str, body: PolicyRollback) -> Reply:
    caller = await principal(request)
    async with unit_of_work():
        row = await service.rollback_policy(principal=caller, workspace_id=tenant_uuid, policy_type=policy_type,
                                            version=body.version)
    return Reply(PolicyVersion.of(row), 201)


@bp.post("/<policy_type:str>/explain")
@endpoint(summary="Evaluate a hypothetical withdrawal against the published policy or a draft: every rule's "
                  "verdict and why, the matched rule, window usage (VIEW_WORKSPACE)",
          description="Nothing is created, locked or counted. Transfer policies only.", tag=_TAG,
          body=ExplainRequest, responses={200: Explain},
          errors={400: ["INVALID_AMOUNT", "INVALID_POLICY_RULE", "POLICY_TYPE_NOT_EXPLAINABLE",
                        "INVALID_ADDRESS", "TARGET_AMBIGUOUS", "TARGET_CURRENCY_MISMATCH", "TARGET_ADDRESS_MISMATCH",
                        "SAME_SOURCE_AND_TARGET"],
                  403: ["PERMISSION_DENIED"],
                  404: ["WORKSPACE_NOT_FOUND", "POLICY_TYPE_NOT_FOUND", "POLICY_NOT_PUBLISHED", "WALLET_NOT_FOUND",
                        "TARGET_WALLET_NOT_FOUND", "WHITELISTED_WALLET_NOT_FOUND"],
                  409: ["TARGET_WALLET_NOT_FOUND"]})
async def explain(request: Request, tenant_uuid: uuid.UUID, policy_type: str, body: ExplainRequest) -> Explain:
    caller = await principal(request)
    w = body.withdrawal
    hypothetical = service.Hypothetical(
        source_wallet_id=w.source_wallet_id, amount=int(w.amount), target_address=w.target_address,
        target_wallet_id=w.target_wallet_id, target_whitelisted_asset_id=w.target_whitelisted_asset_id,
        initiator_user_id=w.initiator_user_id)
    if policy_type not in R.POLICY_TYPES:
        raise service.PolicyTypeNotFound(f"unknown policy type {policy_type!r}: transfer or aml")
    return Explain.of(await service.explain(principal=caller, workspace_id=tenant_uuid, withdrawal=hypothetical,
                                            policy_type=policy_type, rules=body.rules,
                                            no_match_action=body.no_match_action))
