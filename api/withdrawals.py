"""Withdrawals: POST /api/v1/transaction, and cancel / freeze / unfreeze of one withdrawal.

The body and its amount format are in api/schemas/withdrawals.py; the rules of the three
headers, the statuses, the events and every error code in docs/withdrawals.md.
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import Reply, endpoint
from api.schemas.transactions import Transaction
from api.schemas.withdrawals import REQUEST_HEADERS, TransactionCreate
from core.unit_of_work import unit_of_work
from domain.withdrawals import create, lifecycle
from domain.withdrawals import keys as key_rules

bp = Blueprint("withdrawals", url_prefix="/api/v1")

_NOT_FOUND = {404: ["TRANSACTION_NOT_FOUND"]}


@bp.post("/transaction")
@endpoint(
    summary="Create a withdrawal (CREATE_TRANSACTION): reserved at once, then checked, signed, broadcast",
    description="Answers 201 with the transaction (status pending; amount and fee limit are already held). A "
                "repeat with the same X-Idempotency-Key answers 409 with the transaction it created. Amounts are "
                "integer strings of atomic units.",
    tag="transactions", body=TransactionCreate, responses={201: Transaction, 409: Transaction}, workspace=True,
    headers=REQUEST_HEADERS,
    errors={400: ["INVALID_AMOUNT", "INVALID_ADDRESS", "INVALID_IDEMPOTENCY_KEY", "INVALID_ATTEMPT_KEY",
                  "INVALID_UTXO_INTENT_KEY", "UTXO_INTENT_KEY_NOT_APPLICABLE", "AMOUNT_BELOW_DUST",
                  "TARGET_AMBIGUOUS", "TARGET_CURRENCY_MISMATCH", "TARGET_ADDRESS_MISMATCH",
                  "SAME_SOURCE_AND_TARGET", "FEE_TOO_LOW", "FEE_RATE_TOO_LOW", "FEE_RATE_NOT_APPLICABLE"],
            403: ["ONE_TIME_ADDRESS_NOT_ALLOWED"],
            404: ["WALLET_NOT_FOUND", "TARGET_WALLET_NOT_FOUND", "WHITELISTED_WALLET_NOT_FOUND"],
            409: ["VAULT_FROZEN", "INSUFFICIENT_BALANCE", "INSUFFICIENT_GAS", "TARGET_WALLET_NOT_FOUND",
                  "ATTEMPT_IN_PROGRESS", "ATTEMPT_ALREADY_FINISHED", "UTXO_INTENT_KEY_USED", "PROBABLE_DUPLICATE"],
            422: ["IDEMPOTENCY_KEY_REUSED", "ATTEMPT_NOT_EQUIVALENT"]},
)
async def create_transaction(request: Request, body: TransactionCreate) -> Reply:
    caller, ws = await workspace(request)
    keys = key_rules.parse_keys(idempotency_key=request.headers.get(key_rules.IDEMPOTENCY_HEADER),
                                attempt_key=request.headers.get(key_rules.ATTEMPT_HEADER),
                                utxo_intent_key=request.headers.get(key_rules.INTENT_HEADER))
    async with unit_of_work():
        created = await create.create_withdrawal(principal=caller, workspace=ws, request=body.to_domain(), keys=keys)
    return Reply(Transaction.of(created.transaction), 409 if created.replayed else 201)


@bp.post("/transactions/<transaction_id:uuid>/cancel")
@endpoint(summary="Cancel a withdrawal before signing (only its creator); what it held is released",
          tag="transactions", responses={200: Transaction}, workspace=True,
          errors={**_NOT_FOUND, 403: ["TRANSACTION_CANCEL_NOT_ALLOWED"], 409: ["TRANSACTION_NOT_CANCELLABLE"]})
async def cancel_transaction(request: Request, transaction_id: uuid.UUID) -> Transaction:
    caller, ws = await workspace(request)
    async with unit_of_work():
        tx = await lifecycle.cancel(principal=caller, workspace_id=ws.id, transaction_id=transaction_id)
    return Transaction.of(tx)


@bp.post("/transactions/<transaction_id:uuid>/freeze")
@endpoint(summary="Freeze a withdrawal before signing (APPROVE_TRANSACTION); what it held is released",
          tag="transactions", responses={200: Transaction}, workspace=True,
          errors={**_NOT_FOUND, 409: ["TRANSACTION_NOT_FREEZABLE"]})
async def freeze_transaction(request: Request, transaction_id: uuid.UUID) -> Transaction:
    caller, ws = await workspace(request)
    async with unit_of_work():
        tx = await lifecycle.freeze(principal=caller, workspace_id=ws.id, transaction_id=transaction_id)
    return Transaction.of(tx)


@bp.post("/transactions/<transaction_id:uuid>/unfreeze")
@endpoint(summary="Unfreeze a withdrawal (APPROVE_TRANSACTION): it returns to its previous status and holds again",
          tag="transactions", responses={200: Transaction}, workspace=True,
          errors={**_NOT_FOUND, 409: ["TRANSACTION_NOT_FROZEN", "VAULT_FROZEN", "INSUFFICIENT_BALANCE",
                                      "INSUFFICIENT_GAS"]})
async def unfreeze_transaction(request: Request, transaction_id: uuid.UUID) -> Transaction:
    caller, ws = await workspace(request)
    async with unit_of_work():
        tx = await lifecycle.unfreeze(principal=caller, workspace_id=ws.id, transaction_id=transaction_id)
    return Transaction.of(tx)
