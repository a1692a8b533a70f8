from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.balance_amounts import BalanceAmounts


T = TypeVar("T", bound="TransactionSide")


@_attrs_define
class TransactionSide:
    """One side (``from`` or ``to``) of a transaction.

    On a wallet of the workspace ``balance`` is that wallet's absolute balance after the
    operation (overwrite a local copy with it, never add; order by ``balance_version``). On an
    external address only ``address`` (and ``block_height``) are known.

        Attributes:
            address (None | str):
            balance (BalanceAmounts | None):
            balance_version (int | None): Per-address version of the balance (not a cursor).
            block_height (int | None):
            external (bool):
            vault_id (None | UUID):
            vault_name (None | str):
            whitelisted_wallet_name (None | str):
            workspace_id (None | UUID):
            workspace_name (None | str):
            wallet_id (None | Unset | UUID):
            currency_id (None | str | Unset):
    """

    address: None | str
    balance: BalanceAmounts | None
    balance_version: int | None
    block_height: int | None
    external: bool
    vault_id: None | UUID
    vault_name: None | str
    whitelisted_wallet_name: None | str
    workspace_id: None | UUID
    workspace_name: None | str
    wallet_id: None | Unset | UUID = UNSET
    currency_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.balance_amounts import BalanceAmounts  # noqa: PLC0415

        address: None | str
        address = self.address

        balance: dict[str, Any] | None
        if isinstance(self.balance, BalanceAmounts):
            balance = self.balance.to_dict()
        else:
            balance = self.balance

        balance_version: int | None
        balance_version = self.balance_version

        block_height: int | None
        block_height = self.block_height

        external = self.external

        vault_id: None | str
        if isinstance(self.vault_id, UUID):
            vault_id = str(self.vault_id)
        else:
            vault_id = self.vault_id

        vault_name: None | str
        vault_name = self.vault_name

        whitelisted_wallet_name: None | str
        whitelisted_wallet_name = self.whitelisted_wallet_name

        workspace_id: None | str
        if isinstance(self.workspace_id, UUID):
            workspace_id = str(self.workspace_id)
        else:
            workspace_id = self.workspace_id

        workspace_name: None | str
        workspace_name = self.workspace_name

        wallet_id: None | str | Unset
        if isinstance(self.wallet_id, Unset):
            wallet_id = UNSET
        elif isinstance(self.wallet_id, UUID):
            wallet_id = str(self.wallet_id)
        else:
            wallet_id = self.wallet_id

        currency_id: None | str | Unset
        if isinstance(self.currency_id, Unset):
            currency_id = UNSET
        else:
            currency_id = self.currency_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "address": address,
                "balance": balance,
                "balance_version": balance_version,
                "block_height": block_height,
                "external": external,
                "vault_id": vault_id,
                "vault_name": vault_name,
                "whitelisted_wallet_name": whitelisted_wallet_name,
                "workspace_id": workspace_id,
                "workspace_name": workspace_name,
            }
        )
        if wallet_id is not UNSET:
            field_dict["wallet_id"] = wallet_id
        if currency_id is not UNSET:
            field_dict["currency_id"] = currency_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balance_amounts import BalanceAmounts  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        address = _parse_address(d.pop("address"))

        def _parse_balance(data: object) -> BalanceAmounts | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                balance_type_1 = BalanceAmounts.from_dict(data)

                return balance_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BalanceAmounts | None, data)

        balance = _parse_balance(d.pop("balance"))

        def _parse_balance_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        balance_version = _parse_balance_version(d.pop("balance_version"))

        def _parse_block_height(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        block_height = _parse_block_height(d.pop("block_height"))

        external = d.pop("external")

        def _parse_vault_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                vault_id_type_0 = UUID(data)

                return vault_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        vault_id = _parse_vault_id(d.pop("vault_id"))

        def _parse_vault_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        vault_name = _parse_vault_name(d.pop("vault_name"))

        def _parse_whitelisted_wallet_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        whitelisted_wallet_name = _parse_whitelisted_wallet_name(d.pop("whitelisted_wallet_name"))

        def _parse_workspace_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                workspace_id_type_0 = UUID(data)

                return workspace_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        workspace_id = _parse_workspace_id(d.pop("workspace_id"))

        def _parse_workspace_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        workspace_name = _parse_workspace_name(d.pop("workspace_name"))

        def _parse_wallet_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                wallet_id_type_0 = UUID(data)

                return wallet_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        wallet_id = _parse_wallet_id(d.pop("wallet_id", UNSET))

        def _parse_currency_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        currency_id = _parse_currency_id(d.pop("currency_id", UNSET))

        transaction_side = cls(
            address=address,
            balance=balance,
            balance_version=balance_version,
            block_height=block_height,
            external=external,
            vault_id=vault_id,
            vault_name=vault_name,
            whitelisted_wallet_name=whitelisted_wallet_name,
            workspace_id=workspace_id,
            workspace_name=workspace_name,
            wallet_id=wallet_id,
            currency_id=currency_id,
        )

        transaction_side.additional_properties = d
        return transaction_side

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
