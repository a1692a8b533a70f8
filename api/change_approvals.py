"""Change approvals and approval settings: the admin paths under /api/v2/admin (bearer token;
the workspace is ``tenant_uuid`` in the path), and the WebSocket progress stream.

Rules and choices: docs/change-approvals.md. Votes are accepted only from a paired device's
token (403 CHANGE_VOTE_DEVICE_REQUIRED otherwise).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid

from sanic import Blueprint, Request
from sanic.server.websockets.impl import WebsocketImplProtocol

from api.context import principal
from api.contract import endpoint, websocket
from api.schemas.change_approvals import (
    ChangeApprovalCard,
    ChangeApprovalList,
    ChangeApprovalListItem,
    ChangeApprovalListQuery,
    ChangeApprovalRequest,
    GatedAction,
    GatedActionList,
    QuorumAction,
    QuorumActionList,
    QuorumActionUpdate,
    QuorumRule,
    QuorumRuleAnswer,
    QuorumSettings,
    ThresholdAnswer,
    ThresholdUpdate,
)
from core.settings import get_settings
from core.unit_of_work import unit_of_work
from domain import auth
from domain.change_approvals import registry, requests, rules, stream
from domain.errors import DomainError

bp = Blueprint("change_approvals", url_prefix="/api/v2/admin")

_TAG = "change approvals"
#: How often an open WebSocket checks its token and accesses again.
REAUTHENTICATE_SECONDS = 30.0
_WS = {404: ["WORKSPACE_NOT_FOUND"], 403: ["PERMISSION_DENIED"]}
_REQUEST = {**_WS, 404: ["WORKSPACE_NOT_FOUND", "CHANGE_REQUEST_NOT_FOUND"]}
_SETTINGS_CHANGE = {
    **_WS, 400: ["VALIDATION_ERROR"], 404: ["WORKSPACE_NOT_FOUND", "QUORUM_ACTION_NOT_FOUND", "GROUP_NOT_FOUND"],
    403: ["PERMISSION_DENIED", "QUORUM_APPROVAL_REQUIRED", "QUORUM_CHANGE_REQUESTS_DISABLED"],
    409: ["QUORUM_NO_ELIGIBLE_APPROVERS", "QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED",
          "QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE"],
    503: ["CHANGE_APPROVAL_UNAVAILABLE"]}




async def _list(request: Request, tenant_uuid: uuid.UUID | None, query: ChangeApprovalListQuery
                ) -> ChangeApprovalList:
    caller = await principal(request)
    async with unit_of_work():
        rows, total = await requests.list_requests(principal=caller, workspace_id=tenant_uuid, scope=query.scope,
                                                   limit=query.limit, offset=query.offset)
    names = {}
    for key in {r.action for r, _ in rows}:
        entry = registry.get(key)
        names[key] = entry.display_name if entry else key
    return ChangeApprovalList(
        items=[ChangeApprovalListItem(request_uuid=r.id, tenant_uuid=ws.id, tenant_name=ws.name, action=r.action,
                                      action_display_name=names[r.action], operation=r.operation, status=r.status,
                                      initiated_by_me=r.initiator_id == caller.user.id,
                                      created_at=r.created_at, expires_at=r.expires_at) for r, ws in rows],
        total=total, limit=query.limit, offset=query.offset)


@bp.get("/tenants/<tenant_uuid:uuid>/change-approvals")
@endpoint(summary="Change approval requests of one workspace, newest first", tag=_TAG,
          description="Scope PENDING_MY_VOTE (default), INITIATED_BY_ME, or ALL (VIEW_CHANGE_APPROVALS). A device "
                      "sees PENDING_MY_VOTE and INITIATED_BY_ME of the user who paired it.",
          query=ChangeApprovalListQuery, responses={200: ChangeApprovalList}, errors=_WS)
async def list_change_approvals(request: Request, tenant_uuid: uuid.UUID,
                                query: ChangeApprovalListQuery) -> ChangeApprovalList:
    return await _list(request, tenant_uuid, query)


@bp.get("/change-approvals")
@endpoint(summary="Change approval requests of every workspace of the token, one shared page", tag=_TAG,
          description="Scope ALL covers only the workspaces where the caller has VIEW_CHANGE_APPROVALS (none: 403).",
          query=ChangeApprovalListQuery, responses={200: ChangeApprovalList}, errors={403: ["PERMISSION_DENIED"]})
async def list_all_change_approvals(request: Request, query: ChangeApprovalListQuery) -> ChangeApprovalList:
    return await _list(request, None, query)


@bp.get("/tenants/<tenant_uuid:uuid>/change-approvals/<request_uuid:uuid>")
@endpoint(summary="A request's card (participant or VIEW_CHANGE_APPROVALS; from a device, participant only)",
          tag=_TAG, responses={200: ChangeApprovalCard}, errors=_REQUEST)
async def get_change_approval(request: Request, tenant_uuid: uuid.UUID, request_uuid: uuid.UUID
                              ) -> ChangeApprovalCard:
    caller = await principal(request)
    async with unit_of_work():
        card = await requests.get_card(principal=caller, workspace_id=tenant_uuid, request_id=request_uuid)
    return ChangeApprovalCard(request=ChangeApprovalRequest.of(card))


_VOTE_ERRORS = {**_REQUEST, 403: ["PERMISSION_DENIED", "CHANGE_VOTE_DEVICE_REQUIRED", "CHANGE_VOTE_NOT_ALLOWED"],
                409: ["CHANGE_VOTE_CONFLICT", "CHANGE_REQUEST_ALREADY_FINALIZED"]}


async def _vote(request: Request, tenant_uuid: uuid.UUID, request_uuid: uuid.UUID, *,
                approve: bool) -> ChangeApprovalCard:
    caller = await principal(request)
    async with unit_of_work():
        card = await requests.vote(principal=caller, workspace_id=tenant_uuid, request_id=request_uuid,
                                   approve=approve)
    return ChangeApprovalCard(request=ChangeApprovalRequest.of(card))


@bp.post("/tenants/<tenant_uuid:uuid>/change-approvals/<request_uuid:uuid>/approve")
@endpoint(summary="Approve, from the paired device (an approver of the request)", tag=_TAG,
          responses={200: ChangeApprovalCard}, errors=_VOTE_ERRORS)
async def approve_change_approval(request: Request, tenant_uuid: uuid.UUID, request_uuid: uuid.UUID
                                  ) -> ChangeApprovalCard:
    return await _vote(request, tenant_uuid, request_uuid, approve=True)


@bp.post("/tenants/<tenant_uuid:uuid>/change-approvals/<request_uuid:uuid>/reject")
@endpoint(summary="Reject, from the paired device (an approver of the request)", tag=_TAG,
          responses={200: ChangeApprovalCard}, errors=_VOTE_ERRORS)
async def reject_change_approval(request: Request, tenant_uuid: uuid.UUID, request_uuid: uuid.UUID
                                 ) -> ChangeApprovalCard:
    return await _vote(request, tenant_uuid, request_uuid, approve=False)


@bp.post("/tenants/<tenant_uuid:uuid>/change-approvals/<request_uuid:uuid>/cancel")
@endpoint(summary="Cancel (the initiator); cancelling a cancelled request answers its card", tag=_TAG,
          responses={200: ChangeApprovalCard},
          errors={**_REQUEST, 403: ["PERMISSION_DENIED", "CHANGE_REQUEST_CANCEL_NOT_ALLOWED"],
                  409: ["CHANGE_REQUEST_ALREADY_FINALIZED"]})
async def cancel_change_approval(request: Request, tenant_uuid: uuid.UUID, request_uuid: uuid.UUID
                                 ) -> ChangeApprovalCard:
    caller = await principal(request)
    async with unit_of_work():
        card = await requests.cancel(principal=caller, workspace_id=tenant_uuid, request_id=request_uuid)
    return ChangeApprovalCard(request=ChangeApprovalRequest.of(card))


@bp.get("/tenants/<tenant_uuid:uuid>/quorum")
@endpoint(summary="Approval settings: rules with approver_sets and reachable, owner and administrator approvers, "
                  "groups with active_member_uuids (VIEW_QUORUM_SETTINGS)", tag=_TAG,
          responses={200: QuorumSettings}, errors=_WS)
async def get_quorum(request: Request, tenant_uuid: uuid.UUID) -> QuorumSettings:
    caller = await principal(request)
    return QuorumSettings.of(await rules.settings_view(principal=caller, workspace_id=tenant_uuid))


@bp.get("/tenants/<tenant_uuid:uuid>/quorum/actions")
@endpoint(summary="The gated actions: key, operations, fixed_mode (VIEW_QUORUM_SETTINGS)", tag=_TAG,
          responses={200: QuorumActionList}, errors=_WS)
async def list_quorum_actions(request: Request, tenant_uuid: uuid.UUID) -> QuorumActionList:
    caller = await principal(request)
    actions = await rules.list_actions(principal=caller, workspace_id=tenant_uuid)
    return QuorumActionList(actions=[QuorumAction(key=a.key, display_name=a.display_name,
                                                  operations=list(a.operations), fixed_mode=a.fixed_mode)
                                     for a in actions])


@bp.put("/tenants/<tenant_uuid:uuid>/quorum/actions/<action_key:str>")
@endpoint(summary="Set an action's rule (owner: MANAGE_QUORUM_SETTINGS; administrators propose while Manage "
                  "approvals is on)", tag=_TAG, body=QuorumActionUpdate, responses={200: QuorumRuleAnswer},
          errors=_SETTINGS_CHANGE)
async def put_quorum_action(request: Request, tenant_uuid: uuid.UUID, action_key: str,
                            body: QuorumActionUpdate) -> QuorumRuleAnswer:
    caller = await principal(request)
    async with unit_of_work():
        rule = await rules.put_action(principal=caller, workspace_id=tenant_uuid, action_key=action_key,
                                      enabled=body.enabled, mode=body.mode, group_id=body.group_uuid,
                                      owner_confirmation=body.owner_confirmation)
        view = await rules.settings_view(principal=None, workspace_id=tenant_uuid)
    return QuorumRuleAnswer(rule=QuorumRule.of(rule, view.users))


@bp.put("/tenants/<tenant_uuid:uuid>/quorum/threshold")
@endpoint(summary="Set the administrator threshold (same rights as the rules)", tag=_TAG, body=ThresholdUpdate,
          responses={200: ThresholdAnswer}, errors=_SETTINGS_CHANGE)
async def put_quorum_threshold(request: Request, tenant_uuid: uuid.UUID, body: ThresholdUpdate) -> ThresholdAnswer:
    caller = await principal(request)
    async with unit_of_work():
        threshold = await rules.put_threshold(principal=caller, workspace_id=tenant_uuid, threshold=body.threshold)
    return ThresholdAnswer(admin_threshold=threshold)


@bp.get("/tenants/<tenant_uuid:uuid>/quorum/gated-actions")
@endpoint(summary="Each action and whether it needs approval for the caller (any active role; not a device)",
          tag=_TAG, responses={200: GatedActionList}, errors=_WS)
async def list_gated_actions(request: Request, tenant_uuid: uuid.UUID) -> GatedActionList:
    caller = await principal(request)
    answer = await rules.gated_actions(principal=caller, workspace_id=tenant_uuid)
    return GatedActionList(actions=[GatedAction(key=a.key, display_name=a.display_name, requires_approval=needs)
                                    for a, needs in answer])


# --- WebSocket ---------------------------------------------------------------------------------------


WEBSOCKET_DESCRIPTION = """Open it as a WebSocket (`GET` with `Upgrade: websocket`); a plain HTTP request is
refused. Authenticate with `Authorization: Bearer <token>` or `?access_token=<token>` (browsers
cannot set headers on a WebSocket). The server only sends; every message is one JSON object:

- `{"type": "ready", "cursor": N, "user_uuid": "..."}`: first, once signed in. `N` is the cursor of
  the latest event (or the `after` given); events after it follow.
- `{"type": "event", "cursor": N, "event": "...", "tenant_uuid": "...", "request_uuid": "...",
  "data": {...}, "created_at": "..."}`: one per change approval event the caller may see (the
  initiator, the approvers, members with VIEW_CHANGE_APPROVALS), in order. `event` names what
  happened: `change_approval.voted` (`data.voter_uuid`, `data.vote`), or the request's new status
  (`change_approval.approved`, `.rejected`, `.cancelled`, `.expired`, `.executed`, ...); `data`
  summarizes the request (`request_uuid`, `tenant_uuid`, `action`, `operation`, `mode`,
  `status`, `initiator_uuid`, `expires_at`); docs/change-approvals.md "Events".
- `{"type": "error", "code": "INVALID_TOKEN" | "UNAUTHENTICATED", "error": "..."}`: the token is
  missing, invalid, expired or revoked (checked again every 30 seconds); the socket is then closed
  with code 4401.

`?after=N` resumes after cursor `N` (a reconnecting client passes the last cursor it saw)."""


@bp.websocket("/change-approvals/ws")
@websocket(summary="Follow change approval progress: a WebSocket of JSON messages (ready, event, error)",
           description=WEBSOCKET_DESCRIPTION, tag=_TAG,
           query=[("access_token", {"type": "string"}, "The access token, for clients that cannot send Authorization."),
                  ("after", {"type": "string", "pattern": "^[0-9]{1,18}$"}, "Resume after this event cursor.")])
async def change_approval_events(request: Request, ws: WebsocketImplProtocol) -> None:
    """Progress events of change approvals (docs/change-approvals.md "WebSocket"); the messages are
    described in :data:`WEBSOCKET_DESCRIPTION`, which the OpenAPI document carries."""
    token = request.args.get("access_token") or request.headers.get("authorization", "").partition(" ")[2].strip()
    try:
        caller = await auth.authenticate(token)
    except DomainError as exc:
        # Said in a message first: behind an ASGI server close() cannot carry the code.
        await ws.send(json.dumps({"type": "error", "code": exc.code, "error": exc.message}))
        await ws.close(code=4401, reason="invalid or expired access token")
        return
    after_arg = request.args.get("after")
    cursor = int(after_arg) if after_arg and after_arg.isdigit() else await stream.latest_cursor()
    await ws.send(json.dumps({"type": "ready", "cursor": cursor, "user_uuid": str(caller.user.id)}))
    poll = get_settings().change_approval_ws_poll_seconds
    checked = time.monotonic()
    while True:
        if time.monotonic() - checked >= REAUTHENTICATE_SECONDS:
            # The token may have expired or been revoked, the member removed or their role changed.
            try:
                caller = await auth.authenticate(token)
            except DomainError as exc:
                await ws.send(json.dumps({"type": "error", "code": exc.code, "error": exc.message}))
                await ws.close(code=4401, reason="access token no longer valid")
                return
            checked = time.monotonic()
        events, cursor = await stream.events_for(principal=caller, after=cursor)
        for event in events:
            await ws.send(json.dumps({"type": "event", **event}))
        await asyncio.sleep(poll)
