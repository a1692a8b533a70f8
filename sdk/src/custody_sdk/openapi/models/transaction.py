from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.transaction_destination_type import (
    TransactionDestinationType,
    check_transaction_destination_type,
)
from ..models.transaction_status import TransactionStatus, check_transaction_status
from ..models.transaction_type import TransactionType, check_transaction_type
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.aml_screening import AmlScreening
    from ..models.transaction_side import TransactionSide


T = TypeVar("T", bound="Transaction")


@_attrs_define
class Transaction:
    """A deposit or a withdrawal in its current state (docs/withdrawals.md).

    Attributes:
        id (UUID):
        type_ (TransactionType):
        status (TransactionStatus): See the status table in docs/withdrawals.md.
        workspace_id (UUID):
        vault_id (UUID):
        wallet_id (UUID):
        currency_id (str):
        symbol (str):
        descriptor (None | str):
        decimals (int):
        blockchain_name (str):
        network_id (str):
        amount (str): Atomic units (smallest unit of the currency).
        formatted_amount (str):
        amount_usdt (None | str): Value of the amount from the price table when recorded.
        fee (str): The actual network fee once known (0 before), in fee_asset_id.
        formatted_fee (str):
        fee_limit (str): The most the network fee may be (held until final).
        formatted_fee_limit (str):
        fee_asset_id (str):
        fee_rate (None | str): Gas price (gas networks) or sat/vB (UTXO networks).
        from_ (TransactionSide): One side (``from`` or ``to``) of a transaction.

            On a wallet of the workspace ``balance`` is that wallet's absolute balance after the
            operation (overwrite a local copy with it, never add; order by ``balance_version``). On an
            external address only ``address`` (and ``block_height``) are known.
        to (TransactionSide): One side (``from`` or ``to``) of a transaction.

            On a wallet of the workspace ``balance`` is that wallet's absolute balance after the
            operation (overwrite a local copy with it, never add; order by ``balance_version``). On an
            external address only ``address`` (and ``block_height``) are known.
        fee_payer (None | TransactionSide): The wallet paying the fee when it is not `from` (a token transfer's native
            coin wallet), with its absolute balance.
        destination_type (None | TransactionDestinationType):
        tx_hash (None | str):
        external_link (None | str): The transaction on the network's block explorer.
        block_height (int | None):
        block_time (None | str): RFC 3339 time of the block that holds the transaction.
        confirmations (int | None):
        required_confirmations (int | None):
        balance_version (int | None):
        seq (int | None): Change-log position of the transaction's last change.
        idempotency_key (None | str):
        attempt_key (None | str):
        attempt_number (int | None):
        retry_of (None | UUID): The failed attempt this one retries (X-Attempt-Key).
        utxo_intent_key (None | str):
        created_by (None | UUID):
        error_code (None | str):
        error_message (None | str):
        expires_at (None | str): While live: when a withdrawal not yet signing expires.
        created_at (str):
        updated_at (str):
        aml_screening (AmlScreening | None | Unset): The transfer's AML screening (docs/aml.md); null when the workspace
            does not screen.
        awaiting_gas (bool | Unset): A token withdrawal of a vault with autofuel on, accepted without the gas for its
            fee: it waits (in approved) for the gas station's refuel of its address (docs/gas-station.md). Default: False.
    """

    id: UUID
    type_: TransactionType
    status: TransactionStatus
    workspace_id: UUID
    vault_id: UUID
    wallet_id: UUID
    currency_id: str
    symbol: str
    descriptor: None | str
    decimals: int
    blockchain_name: str
    network_id: str
    amount: str
    formatted_amount: str
    amount_usdt: None | str
    fee: str
    formatted_fee: str
    fee_limit: str
    formatted_fee_limit: str
    fee_asset_id: str
    fee_rate: None | str
    from_: TransactionSide
    to: TransactionSide
    fee_payer: None | TransactionSide
    destination_type: None | TransactionDestinationType
    tx_hash: None | str
    external_link: None | str
    block_height: int | None
    block_time: None | str
    confirmations: int | None
    required_confirmations: int | None
    balance_version: int | None
    seq: int | None
    idempotency_key: None | str
    attempt_key: None | str
    attempt_number: int | None
    retry_of: None | UUID
    utxo_intent_key: None | str
    created_by: None | UUID
    error_code: None | str
    error_message: None | str
    expires_at: None | str
    created_at: str
    updated_at: str
    aml_screening: AmlScreening | None | Unset = UNSET
    awaiting_gas: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.aml_screening import AmlScreening  # noqa: PLC0415
        from ..models.transaction_side import TransactionSide  # noqa: PLC0415

        id = str(self.id)

        type_: str = self.type_

        status: str = self.status

        workspace_id = str(self.workspace_id)

        vault_id = str(self.vault_id)

        wallet_id = str(self.wallet_id)

        currency_id = self.currency_id

        symbol = self.symbol

        descriptor: None | str
        descriptor = self.descriptor

        decimals = self.decimals

        blockchain_name = self.blockchain_name

        network_id = self.network_id

        amount = self.amount

        formatted_amount = self.formatted_amount

        amount_usdt: None | str
        amount_usdt = self.amount_usdt

        fee = self.fee

        formatted_fee = self.formatted_fee

        fee_limit = self.fee_limit

        formatted_fee_limit = self.formatted_fee_limit

        fee_asset_id = self.fee_asset_id

        fee_rate: None | str
        fee_rate = self.fee_rate

        from_ = self.from_.to_dict()

        to = self.to.to_dict()

        fee_payer: dict[str, Any] | None
        if isinstance(self.fee_payer, TransactionSide):
            fee_payer = self.fee_payer.to_dict()
        else:
            fee_payer = self.fee_payer

        destination_type: None | str
        if isinstance(self.destination_type, str):
            destination_type = self.destination_type
        else:
            destination_type = self.destination_type

        tx_hash: None | str
        tx_hash = self.tx_hash

        external_link: None | str
        external_link = self.external_link

        block_height: int | None
        block_height = self.block_height

        block_time: None | str
        block_time = self.block_time

        confirmations: int | None
        confirmations = self.confirmations

        required_confirmations: int | None
        required_confirmations = self.required_confirmations

        balance_version: int | None
        balance_version = self.balance_version

        seq: int | None
        seq = self.seq

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        attempt_key: None | str
        attempt_key = self.attempt_key

        attempt_number: int | None
        attempt_number = self.attempt_number

        retry_of: None | str
        if isinstance(self.retry_of, UUID):
            retry_of = str(self.retry_of)
        else:
            retry_of = self.retry_of

        utxo_intent_key: None | str
        utxo_intent_key = self.utxo_intent_key

        created_by: None | str
        if isinstance(self.created_by, UUID):
            created_by = str(self.created_by)
        else:
            created_by = self.created_by

        error_code: None | str
        error_code = self.error_code

        error_message: None | str
        error_message = self.error_message

        expires_at: None | str
        expires_at = self.expires_at

        created_at = self.created_at

        updated_at = self.updated_at

        aml_screening: dict[str, Any] | None | Unset
        if isinstance(self.aml_screening, Unset):
            aml_screening = UNSET
        elif isinstance(self.aml_screening, AmlScreening):
            aml_screening = self.aml_screening.to_dict()
        else:
            aml_screening = self.aml_screening

        awaiting_gas = self.awaiting_gas

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
                "network_id": network_id,
                "amount": amount,
                "formatted_amount": formatted_amount,
                "amount_usdt": amount_usdt,
                "fee": fee,
                "formatted_fee": formatted_fee,
                "fee_limit": fee_limit,
                "formatted_fee_limit": formatted_fee_limit,
                "fee_asset_id": fee_asset_id,
                "fee_rate": fee_rate,
                "from": from_,
                "to": to,
                "fee_payer": fee_payer,
                "destination_type": destination_type,
                "tx_hash": tx_hash,
                "external_link": external_link,
                "block_height": block_height,
                "block_time": block_time,
                "confirmations": confirmations,
                "required_confirmations": required_confirmations,
                "balance_version": balance_version,
                "seq": seq,
                "idempotency_key": idempotency_key,
                "attempt_key": attempt_key,
                "attempt_number": attempt_number,
                "retry_of": retry_of,
                "utxo_intent_key": utxo_intent_key,
                "created_by": created_by,
                "error_code": error_code,
                "error_message": error_message,
                "expires_at": expires_at,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if aml_screening is not UNSET:
            field_dict["aml_screening"] = aml_screening
        if awaiting_gas is not UNSET:
            field_dict["awaiting_gas"] = awaiting_gas

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.aml_screening import AmlScreening  # noqa: PLC0415
        from ..models.transaction_side import TransactionSide  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        type_ = check_transaction_type(d.pop("type"))

        status = check_transaction_status(d.pop("status"))

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

        network_id = d.pop("network_id")

        amount = d.pop("amount")

        formatted_amount = d.pop("formatted_amount")

        def _parse_amount_usdt(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        amount_usdt = _parse_amount_usdt(d.pop("amount_usdt"))

        fee = d.pop("fee")

        formatted_fee = d.pop("formatted_fee")

        fee_limit = d.pop("fee_limit")

        formatted_fee_limit = d.pop("formatted_fee_limit")

        fee_asset_id = d.pop("fee_asset_id")

        def _parse_fee_rate(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        fee_rate = _parse_fee_rate(d.pop("fee_rate"))

        from_ = TransactionSide.from_dict(d.pop("from"))

        to = TransactionSide.from_dict(d.pop("to"))

        def _parse_fee_payer(data: object) -> None | TransactionSide:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fee_payer_type_1 = TransactionSide.from_dict(data)

                return fee_payer_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TransactionSide, data)

        fee_payer = _parse_fee_payer(d.pop("fee_payer"))

        def _parse_destination_type(data: object) -> None | TransactionDestinationType:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                destination_type_type_1 = check_transaction_destination_type(data)

                return destination_type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TransactionDestinationType, data)

        destination_type = _parse_destination_type(d.pop("destination_type"))

        def _parse_tx_hash(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tx_hash = _parse_tx_hash(d.pop("tx_hash"))

        def _parse_external_link(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_link = _parse_external_link(d.pop("external_link"))

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

        def _parse_confirmations(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        confirmations = _parse_confirmations(d.pop("confirmations"))

        def _parse_required_confirmations(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        required_confirmations = _parse_required_confirmations(d.pop("required_confirmations"))

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

        def _parse_attempt_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        attempt_key = _parse_attempt_key(d.pop("attempt_key"))

        def _parse_attempt_number(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        attempt_number = _parse_attempt_number(d.pop("attempt_number"))

        def _parse_retry_of(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                retry_of_type_0 = UUID(data)

                return retry_of_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        retry_of = _parse_retry_of(d.pop("retry_of"))

        def _parse_utxo_intent_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        utxo_intent_key = _parse_utxo_intent_key(d.pop("utxo_intent_key"))

        def _parse_created_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                created_by_type_0 = UUID(data)

                return created_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        created_by = _parse_created_by(d.pop("created_by"))

        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("error_code"))

        def _parse_error_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_message = _parse_error_message(d.pop("error_message"))

        def _parse_expires_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        def _parse_aml_screening(data: object) -> AmlScreening | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                aml_screening_type_1 = AmlScreening.from_dict(data)

                return aml_screening_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AmlScreening | None | Unset, data)

        aml_screening = _parse_aml_screening(d.pop("aml_screening", UNSET))

        awaiting_gas = d.pop("awaiting_gas", UNSET)

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
            network_id=network_id,
            amount=amount,
            formatted_amount=formatted_amount,
            amount_usdt=amount_usdt,
            fee=fee,
            formatted_fee=formatted_fee,
            fee_limit=fee_limit,
            formatted_fee_limit=formatted_fee_limit,
            fee_asset_id=fee_asset_id,
            fee_rate=fee_rate,
            from_=from_,
            to=to,
            fee_payer=fee_payer,
            destination_type=destination_type,
            tx_hash=tx_hash,
            external_link=external_link,
            block_height=block_height,
            block_time=block_time,
            confirmations=confirmations,
            required_confirmations=required_confirmations,
            balance_version=balance_version,
            seq=seq,
            idempotency_key=idempotency_key,
            attempt_key=attempt_key,
            attempt_number=attempt_number,
            retry_of=retry_of,
            utxo_intent_key=utxo_intent_key,
            created_by=created_by,
            error_code=error_code,
            error_message=error_message,
            expires_at=expires_at,
            created_at=created_at,
            updated_at=updated_at,
            aml_screening=aml_screening,
            awaiting_gas=awaiting_gas,
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
