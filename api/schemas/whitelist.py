"""Whitelisted external wallets and the one-time address setting."""

from __future__ import annotations

import uuid
from typing import Annotated

from pydantic import Field, StringConstraints

from api.schemas.common import NO_CONTROL_CHARACTERS, Name, QueryParams, RequestBody, Resource, Timestamp
from api.schemas.wallets import CurrencyId
from domain.currencies import registry
from models.whitelist import WhitelistedWallet as WhitelistedWalletRow
from models.whitelist import WhitelistSettings as WhitelistSettingsRow

Address = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200,
                                           pattern=NO_CONTROL_CHARACTERS)]


class WhitelistedWalletCreate(RequestBody):
    name: Name = Field(description="Display name, 1 to 100 characters (shown as the transaction's "
                       "to.whitelisted_wallet_name).")
    currency_id: str = CurrencyId
    address: Address = Field(description="An address of the currency's network (normalized on save).")


class WhitelistedWallet(Resource):
    """A registered counterparty address for one currency (target_whitelisted_asset_id)."""

    id: uuid.UUID
    workspace_id: uuid.UUID
    name: str
    currency_id: str
    network_id: str
    blockchain_name: str
    address: str
    created_by: uuid.UUID | None
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def of(cls, row: WhitelistedWalletRow) -> "WhitelistedWallet":
        network = registry().networks.get(row.network)
        return cls(id=row.id, workspace_id=row.workspace_id, name=row.name,
                   currency_id=row.currency_id, network_id=row.network,
                   blockchain_name=network.blockchain_name if network else row.network, address=row.address,
                   created_by=row.created_by, created_at=row.created_at, updated_at=row.updated_at)


class WhitelistedWalletPage(Resource):
    items: list[WhitelistedWallet] = Field(description="Newest first.")
    total: int
    limit: int
    offset: int


class WhitelistedWalletQuery(QueryParams):
    currency_id: str | None = Field(None, min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$",
                                    description="Only entries of this currency.")
    limit: int = Field(100, ge=1, le=1000, description="Page size, 1 to 1000.")
    offset: int = Field(0, ge=0, le=2**63 - 1)


class WhitelistSettingsUpdate(RequestBody):
    one_time_addresses_allowed: bool = Field(description="Whether withdrawals may go to an address that is "
                                             "neither internal nor whitelisted.")


class WhitelistSettings(Resource):
    workspace_id: uuid.UUID
    one_time_addresses_allowed: bool = Field(description="Off by default.")
    updated_by: uuid.UUID | None
    updated_at: Timestamp | None

    @classmethod
    def of(cls, row: WhitelistSettingsRow) -> "WhitelistSettings":
        saved = row._saved_in_db  # noqa: SLF001 - an unsaved row is the default (never set)
        return cls(workspace_id=row.workspace_id, one_time_addresses_allowed=row.one_time_addresses_allowed,
                   updated_by=row.updated_by if saved else None, updated_at=row.updated_at if saved else None)
