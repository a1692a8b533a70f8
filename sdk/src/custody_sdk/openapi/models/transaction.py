from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.transaction_type import TransactionType, check_transaction_type

if TYPE_CHECKING:
    from ..models.transaction_side import TransactionSide


T = TypeVar("T", bound="Transaction")


@_attrs_define
class Transaction:
    """A deposit or a withdrawal in its current state.

    Attributes:
        id (UUID):
        type_ (TransactionType):
        status (str): See the transaction statuses in docs/wallets.md.
        workspace_id (UUID):
        vault_id (UUID):
        wallet_id (UUID):
        currency_id (str):
        symbol (str):
        descriptor (None | str):
        decimals (int):
        blockchain_name (str):
        amount (str): Atomic units (smallest unit of the currency).
        formatted_amount (str):
        fee (str):
        formatted_fee (str):
        fee_limit (str):
        fee_asset_id (str):
        from_ (TransactionSide): One side (``from`` or ``to``) of a transaction.

            On a wallet of the workspace ``balance`` is that wallet's absolute balance after the
            operation (overwrite a local copy with it, never add; order by ``balance_version``). On an
            external address only ``address`` (and ``block_height``) are known.
        to (TransactionSide): One side (``from`` or ``to``) of a transaction.

            On a wallet of the workspace ``balance`` is that wallet's absolute balance after the
            operation (overwrite a local copy with it, never add; order by ``balance_version``). On an
            external address only ``address`` (and ``block_height``) are known.
        tx_hash (None | str):
        block_height (int | None):
        block_time (None | str): RFC 3339 time of the block that holds the transaction.
        balance_version (int | None):
        seq (int | None): Change-log position of the transaction's last change.
        idempotency_key (None | str):
        error_code (None | str):
        created_at (str):
        updated_at (str):
    """

    id: UUID
    type_: TransactionType
    status: str
    workspace_id: UUID
    vault_id: UUID
    wallet_id: UUID
    currency_id: str
    symbol: str
    descriptor: None | str
    decimals: int
    blockchain_name: str
    amount: str
    formatted_amount: str
    fee: str
    formatted_fee: str
    fee_limit: str
    fee_asset_id: str
    from_: TransactionSide
    to: TransactionSide
    tx_hash: None | str
    block_height: int | None
    block_time: None | str
    balance_version: int | None
    seq: int | None
    idempotency_key: None | str
    error_code: None | str
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_: str = self.type_

        status = self.status

        workspace_id = str(self.workspace_id)

        vault_id = str(self.vault_id)

        wallet_id = str(self.wallet_id)

        currency_id = self.currency_id

        symbol = self.symbol

        descriptor: None | str
        descriptor = self.descriptor

        decimals = self.decimals

        blockchain_name = self.blockchain_name

        amount = self.amount

        formatted_amount = self.formatted_amount

        fee = self.fee

        formatted_fee = self.formatted_fee

        fee_limit = self.fee_limit

        fee_asset_id = self.fee_asset_id

        from_ = self.from_.to_dict()

        to = self.to.to_dict()

        tx_hash: None | str
        tx_hash = self.tx_hash

        block_height: int | None
        block_height = self.block_height

        block_time: None | str
        block_time = self.block_time

        balance_version: int | None
        balance_version = self.balance_version

        seq: int | None
        seq = self.seq

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        error_code: None | str
        error_code = self.error_code

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "status": status,
                "workspace_id": workspace_id,
                "vault_id": vault_id,
                "wallet_id": wallet_id,
                "currency_id": currency_id,
                "symbol": symbol,
                "descriptor": descriptor,
                "decimals": decimals,
                "blockchain_name": blockchain_name,
                "amount": amount,
                "formatted_amount": formatted_amount,
                "fee": fee,
                "formatted_fee": formatted_fee,
                "fee_limit": fee_limit,
                "fee_asset_id": fee_asset_id,
                "from": from_,
                "to": to,
                "tx_hash": tx_hash,
                "block_height": block_height,
                "block_time": block_time,
                "balance_version": balance_version,
                "seq": seq,
                "idempotency_key": idempotency_key,
                "error_code": error_code,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.transaction_side import TransactionSide  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        type_ = check_transaction_type(d.pop("type"))

        status = d.pop("status")

        workspace_id = UUID(d.pop("workspace_id"))

        vault_id = UUID(d.pop("vault_id"))

        wallet_id = UUID(d.pop("wallet_id"))

        currency_id = d.pop("currency_id")

        symbol = d.pop("symbol")

        def _parse_descriptor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        descriptor = _parse_descriptor(d.pop("descriptor"))

        decimals = d.pop("decimals")

        blockchain_name = d.pop("blockchain_name")

        amount = d.pop("amount")

        formatted_amount = d.pop("formatted_amount")

        fee = d.pop("fee")

        formatted_fee = d.pop("formatted_fee")

        fee_limit = d.pop("fee_limit")

        fee_asset_id = d.pop("fee_asset_id")

        from_ = TransactionSide.from_dict(d.pop("from"))

        to = TransactionSide.from_dict(d.pop("to"))

        def _parse_tx_hash(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tx_hash = _parse_tx_hash(d.pop("tx_hash"))

        def _parse_block_height(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        block_height = _parse_block_height(d.pop("block_height"))

        def _parse_block_time(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        block_time = _parse_block_time(d.pop("block_time"))

        def _parse_balance_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        balance_version = _parse_balance_version(d.pop("balance_version"))

        def _parse_seq(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seq = _parse_seq(d.pop("seq"))

        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key"))

        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("error_code"))

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        transaction = cls(
            id=id,
            type_=type_,
            status=status,
            workspace_id=workspace_id,
            vault_id=vault_id,
            wallet_id=wallet_id,
            currency_id=currency_id,
            symbol=symbol,
            descriptor=descriptor,
            decimals=decimals,
            blockchain_name=blockchain_name,
            amount=amount,
            formatted_amount=formatted_amount,
            fee=fee,
            formatted_fee=formatted_fee,
            fee_limit=fee_limit,
            fee_asset_id=fee_asset_id,
            from_=from_,
            to=to,
            tx_hash=tx_hash,
            block_height=block_height,
            block_time=block_time,
            balance_version=balance_version,
            seq=seq,
            idempotency_key=idempotency_key,
            error_code=error_code,
            created_at=created_at,
            updated_at=updated_at,
        )

        transaction.additional_properties = d
        return transaction

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
