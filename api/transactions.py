"""Transactions: GET /api/v1/transactions/changes (the change log) and GET /transactions/{id}.

A malformed cursor or one ahead of the log is a 400 INVALID_CURSOR; a since_cursor below
min_cursor is a 410 CURSOR_EXPIRED (take a fresh balance snapshot and continue from its cursor).
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.transactions import ChangesPage, ChangesQuery, Transaction
from domain import transactions

bp = Blueprint("transactions", url_prefix="/api/v1/transactions")


@bp.get("/changes")
@endpoint(summary="Change log: transactions changed after since_cursor, in position order", tag="transactions",
          query=ChangesQuery, responses={200: ChangesPage}, workspace=True,
          errors={400: ["INVALID_CURSOR"], 410: ["CURSOR_EXPIRED"]})
async def changes(request: Request, query: ChangesQuery) -> ChangesPage:
    caller, ws = await workspace(request)
    since = transactions.parse_cursor(query.since_cursor)
    page = await transactions.changes(principal=caller, workspace_id=ws.id, since_cursor=since, limit=query.limit)
    return ChangesPage(items=[Transaction.of(tx) for tx in page.items], next_cursor=page.next_cursor,
                       has_more=page.has_more, min_cursor=page.min_cursor)


@bp.get("/<transaction_id:uuid>")
@endpoint(summary="One transaction in its current state", tag="transactions", responses={200: Transaction},
          workspace=True, errors={404: ["TRANSACTION_NOT_FOUND"]})
async def get_transaction(request: Request, transaction_id: uuid.UUID) -> Transaction:
    caller, ws = await workspace(request)
    tx = await transactions.get_transaction(principal=caller, workspace_id=ws.id, transaction_id=transaction_id)
    return Transaction.of(tx)
