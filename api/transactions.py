"""Transactions: GET /api/v1/transactions (filtered list), GET /transactions/changes (the change
log) and GET /transactions/{id}. Creating a withdrawal and its actions are in api/withdrawals.py.

A malformed cursor or one ahead of the log is a 400 INVALID_CURSOR; a since_cursor below
min_cursor is a 410 CURSOR_EXPIRED (take a fresh balance snapshot and continue from its cursor).
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.transactions import ChangesPage, ChangesQuery, Transaction, TransactionListQuery, TransactionPage
from domain import transactions

bp = Blueprint("transactions", url_prefix="/api/v1/transactions")


@bp.get("")
@endpoint(summary="Transactions of the workspace, newest first, filtered and paged", tag="transactions",
          query=TransactionListQuery, responses={200: TransactionPage}, workspace=True,
          errors={404: ["WALLET_NOT_FOUND", "VAULT_NOT_FOUND"]})
async def list_transactions(request: Request, query: TransactionListQuery) -> TransactionPage:
    caller, ws = await workspace(request)
    filters = transactions.TransactionFilter(
        statuses=query.status, wallet_id=query.wallet_id, vault_id=query.vault_id, direction=query.direction,
        created_from=query.created_from, created_to=query.created_to)
    items, total = await transactions.list_transactions(principal=caller, workspace_id=ws.id, filters=filters,
                                                        limit=query.limit, offset=query.offset)
    return TransactionPage(items=[Transaction.of(tx) for tx in items], total=total, limit=query.limit,
                           offset=query.offset)


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
