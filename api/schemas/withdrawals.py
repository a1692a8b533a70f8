"""POST /transaction: the withdrawal request, its amount format and its three headers."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from pydantic import Field, StringConstraints

from api.schemas.common import NO_CONTROL_CHARACTERS, RequestBody, refused_as
from domain.withdrawals.create import WithdrawalRequest
from domain.withdrawals.keys import ATTEMPT_HEADER, IDEMPOTENCY_HEADER, INTENT_HEADER, KEY_PATTERN

AMOUNT_RULE = ("an integer string of atomic units (the currency's smallest unit), e.g. \"1500000\" for 1.5 of a "
               "6-decimal token; no sign, decimal point, exponent, spaces or leading zeros, and not a JSON number")

#: An amount in atomic units, strictly: a JSON string of digits without leading zeros.
AtomicAmountIn = Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]{0,77}$"),
                           refused_as("INVALID_AMOUNT", reason=f"must be {AMOUNT_RULE}")]
#: A fee limit in atomic units of the fee asset (zero allowed by form, refused by the network rules).
FeeIn = Annotated[str, StringConstraints(pattern=r"^(0|[1-9][0-9]{0,77})$"),
                  refused_as("INVALID_AMOUNT", reason=f"must be {AMOUNT_RULE}")]
FeeRateIn = Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]{0,8}$"),
                      refused_as("INVALID_AMOUNT", reason="must be an integer string of sat/vB from 1 to 999999999")]
Address = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=NO_CONTROL_CHARACTERS)]


class TransactionCreate(RequestBody):
    """A withdrawal: ``amount`` of the source wallet's currency to ``target_address``."""

    amount: AtomicAmountIn = Field(description=f"Required. The amount, {AMOUNT_RULE}.")
    source_wallet_id: uuid.UUID = Field(description="Required. The wallet (of this workspace) to send from.")
    target_address: Address = Field(description="Required. The destination address on the currency's network.")
    fee: FeeIn | None = Field(None, description="The most the network fee may be, in atomic units of the fee asset "
                              "(gas networks: sets the gas price to fee // gas limit; UTXO: must cover the "
                              "estimate). Default: the network's estimate (UTXO: plus half again).")
    fee_rate_sat_per_vb: FeeRateIn | None = Field(None, description="UTXO networks only: the fee rate in sat/vB "
                                                  "(default: the network's).")
    target_wallet_id: uuid.UUID | None = Field(None, description="An internal transfer: the wallet of this "
                                               "workspace at target_address.")
    target_whitelisted_asset_id: uuid.UUID | None = Field(None, description="A whitelisted wallet at target_address.")

    def to_domain(self) -> WithdrawalRequest:
        return WithdrawalRequest(
            amount=int(self.amount), source_wallet_id=self.source_wallet_id, target_address=self.target_address,
            fee=None if self.fee is None else int(self.fee),
            fee_rate_sat_per_vb=None if self.fee_rate_sat_per_vb is None else int(self.fee_rate_sat_per_vb),
            target_wallet_id=self.target_wallet_id, target_whitelisted_asset_id=self.target_whitelisted_asset_id,
        )


_KEY_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 100, "pattern": KEY_PATTERN}

#: The three optional request headers, documented in the OpenAPI document (docs/withdrawals.md).
REQUEST_HEADERS = (
    (IDEMPOTENCY_HEADER, _KEY_SCHEMA, "Makes the request safe to repeat (scoped to the workspace): a repeat answers "
     "409 with the transaction it created; the same key with another request is 422 IDEMPOTENCY_KEY_REUSED."),
    (ATTEMPT_HEADER, _KEY_SCHEMA, "Names a payment across attempts: a retry of an equivalent attempt that ended "
     "unsuccessfully is linked to it (retry_of); at most one live attempt per key."),
    (INTENT_HEADER, _KEY_SCHEMA, "UTXO networks: declares a new payment on purpose, so the same values as a recent "
     "payment are not refused as a probable duplicate. Used once per workspace."),
)
