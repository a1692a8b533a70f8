"""Transaction approvals: /api/v1/transactions/approvals and the votes on one withdrawal.

Wallet-side paths (bearer token and X-Workspace-Id). Votes are accepted only from the
approver's paired device (a device token: ``client_type`` device); anything else is 403
TRANSACTION_VOTE_DEVICE_REQUIRED. Rules: docs/policies.md.
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.transaction_approvals import (
    TransactionApproval,
    TransactionApprovalPage,
    TransactionApprovalQuery,
    VoteBody,
)
from core.unit_of_work import unit_of_work
from domain import transaction_approvals as approvals

bp = Blueprint("transaction_approvals", url_prefix="/api/v1")

_TAG = "transactions"
_VOTE_ERRORS = {403: ["TRANSACTION_VOTE_DEVICE_REQUIRED", "TRANSACTION_VOTE_NOT_ALLOWED",
                      "TRANSACTION_VOTE_BY_INITIATOR"],
                404: ["TRANSACTION_NOT_FOUND"], 409: ["TRANSACTION_VOTE_CONFLICT", "TRANSACTION_NOT_AWAITING_APPROVALS"]}


@bp.get("/transactions/approvals")
@endpoint(summary="Approval requests: those waiting for the caller's vote (default), or all (APPROVE_TRANSACTION)",
          tag=_TAG, query=TransactionApprovalQuery, responses={200: TransactionApprovalPage}, workspace=True)
async def list_transaction_approvals(request: Request, query: TransactionApprovalQuery) -> TransactionApprovalPage:
    caller, ws = await workspace(request)
    cards, total = await approvals.list_for_me(principal=caller, workspace_id=ws.id, scope=query.scope,
                                               limit=query.limit, offset=query.offset)
    return TransactionApprovalPage(items=[TransactionApproval.of(c, caller.user.id) for c in cards], total=total,
                                   limit=query.limit, offset=query.offset)


@bp.get("/transactions/<transaction_id:uuid>/approvals")
@endpoint(summary="The approval request of a withdrawal: requirements, votes, status (VIEW_WORKSPACE)", tag=_TAG,
          responses={200: TransactionApproval}, workspace=True, errors={404: ["TRANSACTION_NOT_FOUND"]})
async def get_transaction_approval(request: Request, transaction_id: uuid.UUID) -> TransactionApproval:
    caller, ws = await workspace(request)
    card = await approvals.card(principal=caller, workspace_id=ws.id, transaction_id=transaction_id)
    return TransactionApproval.of(card, caller.user.id)


async def _vote(request: Request, transaction_id: uuid.UUID, body: VoteBody, decision: str) -> TransactionApproval:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await approvals.vote(principal=caller, workspace_id=ws.id, transaction_id=transaction_id, decision=decision,
                             reason=body.reason)
    card = await approvals.card(principal=caller, workspace_id=ws.id, transaction_id=transaction_id)
    return TransactionApproval.of(card, caller.user.id)


@bp.post("/transactions/<transaction_id:uuid>/approve")
@endpoint(summary="Approve a withdrawal awaiting approvals, from the approver's paired device", tag=_TAG,
          body=VoteBody, body_required=False, responses={200: TransactionApproval}, workspace=True,
          errors=_VOTE_ERRORS)
async def approve_transaction(request: Request, transaction_id: uuid.UUID, body: VoteBody) -> TransactionApproval:
    return await _vote(request, transaction_id, body, approvals.APPROVE)


@bp.post("/transactions/<transaction_id:uuid>/decline")
@endpoint(summary="Decline a withdrawal awaiting approvals, from the approver's paired device: it ends declined",
          tag=_TAG, body=VoteBody, body_required=False, responses={200: TransactionApproval}, workspace=True,
          errors=_VOTE_ERRORS)
async def decline_transaction(request: Request, transaction_id: uuid.UUID, body: VoteBody) -> TransactionApproval:
    return await _vote(request, transaction_id, body, approvals.DECLINE)
