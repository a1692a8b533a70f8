"""Transactions: GET /api/v1/transactions/changes (the change log) and GET /transactions/{id}.

Errors: limit outside 1..1000 → 400 VALIDATION_ERROR; a malformed cursor or one ahead of the
log → 400 INVALID_CURSOR; since_cursor below min_cursor → 410 CURSOR_EXPIRED (take a fresh
balance snapshot and continue from its cursor).
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api.context import workspace
from domain import transactions
from domain import validation as v

bp = Blueprint("transactions", url_prefix="/api/v1/transactions")


@bp.get("/changes")
@openapi.summary("Change log: transactions changed after since_cursor, in position order (limit ≤ 1000)")
@openapi.secured("BearerAuth")
@openapi.parameter("since_cursor", int, "query")
@openapi.parameter("limit", int, "query")
async def changes(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    since = transactions.parse_cursor(request.args.get("since_cursor"))
    limit = v.limit(request.args, default=transactions.DEFAULT_PAGE, maximum=transactions.MAX_PAGE)
    page = await transactions.changes(principal=caller, workspace_id=ws.id, since_cursor=since, limit=limit)
    return json({"items": [transactions.to_resource(tx) for tx in page.items], "next_cursor": page.next_cursor,
                 "has_more": page.has_more, "min_cursor": page.min_cursor})


@bp.get("/<transaction_id:uuid>")
@openapi.summary("One transaction in its current state")
@openapi.secured("BearerAuth")
async def get_transaction(request: Request, transaction_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    tx = await transactions.get_transaction(principal=caller, workspace_id=ws.id, transaction_id=transaction_id)
    return json(transactions.to_resource(tx))
