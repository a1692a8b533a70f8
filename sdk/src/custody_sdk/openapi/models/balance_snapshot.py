from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.currency_balance import CurrencyBalance
    from ..models.wallet_balance import WalletBalance


T = TypeVar("T", bound="BalanceSnapshot")


@_attrs_define
class BalanceSnapshot:
    """Balances per currency as of ``cursor``, a position of the workspace's change log.

    Attributes:
        currency_balances (list[CurrencyBalance]):
        cursor (int): Change-log position the snapshot includes; continue the log from it.
        min_cursor (int):
        snapshot_at (datetime.datetime):
        wallet_balances (list[WalletBalance] | None | Unset): Only with wallets=true: one page, in wallet creation
            order.
        next_wallets_after (None | Unset | UUID): Set when more wallets follow: pass it as wallets_after. Seed each
            wallet from its page and continue the change log from the first page's cursor.
    """

    currency_balances: list[CurrencyBalance]
    cursor: int
    min_cursor: int
    snapshot_at: datetime.datetime
    wallet_balances: list[WalletBalance] | None | Unset = UNSET
    next_wallets_after: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency_balances = []
        for currency_balances_item_data in self.currency_balances:
            currency_balances_item = currency_balances_item_data.to_dict()
            currency_balances.append(currency_balances_item)

        cursor = self.cursor

        min_cursor = self.min_cursor

        snapshot_at = self.snapshot_at.isoformat()

        wallet_balances: list[dict[str, Any]] | None | Unset
        if isinstance(self.wallet_balances, Unset):
            wallet_balances = UNSET
        elif isinstance(self.wallet_balances, list):
            wallet_balances = []
            for wallet_balances_type_0_item_data in self.wallet_balances:
                wallet_balances_type_0_item = wallet_balances_type_0_item_data.to_dict()
                wallet_balances.append(wallet_balances_type_0_item)

        else:
            wallet_balances = self.wallet_balances

        next_wallets_after: None | str | Unset
        if isinstance(self.next_wallets_after, Unset):
            next_wallets_after = UNSET
        elif isinstance(self.next_wallets_after, UUID):
            next_wallets_after = str(self.next_wallets_after)
        else:
            next_wallets_after = self.next_wallets_after

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency_balances": currency_balances,
                "cursor": cursor,
                "min_cursor": min_cursor,
                "snapshot_at": snapshot_at,
            }
        )
        if wallet_balances is not UNSET:
            field_dict["wallet_balances"] = wallet_balances
        if next_wallets_after is not UNSET:
            field_dict["next_wallets_after"] = next_wallets_after

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.currency_balance import CurrencyBalance  # noqa: PLC0415
        from ..models.wallet_balance import WalletBalance  # noqa: PLC0415

        d = dict(src_dict)
        currency_balances = []
        _currency_balances = d.pop("currency_balances")
        for currency_balances_item_data in _currency_balances:
            currency_balances_item = CurrencyBalance.from_dict(currency_balances_item_data)

            currency_balances.append(currency_balances_item)

        cursor = d.pop("cursor")

        min_cursor = d.pop("min_cursor")

        snapshot_at = datetime.datetime.fromisoformat(d.pop("snapshot_at"))

        def _parse_wallet_balances(data: object) -> list[WalletBalance] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                wallet_balances_type_0 = []
                _wallet_balances_type_0 = data
                for wallet_balances_type_0_item_data in _wallet_balances_type_0:
                    wallet_balances_type_0_item = WalletBalance.from_dict(wallet_balances_type_0_item_data)

                    wallet_balances_type_0.append(wallet_balances_type_0_item)

                return wallet_balances_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WalletBalance] | None | Unset, data)

        wallet_balances = _parse_wallet_balances(d.pop("wallet_balances", UNSET))

        def _parse_next_wallets_after(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_wallets_after_type_0 = UUID(data)

                return next_wallets_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        next_wallets_after = _parse_next_wallets_after(d.pop("next_wallets_after", UNSET))

        balance_snapshot = cls(
            currency_balances=currency_balances,
            cursor=cursor,
            min_cursor=min_cursor,
            snapshot_at=snapshot_at,
            wallet_balances=wallet_balances,
            next_wallets_after=next_wallets_after,
        )

        balance_snapshot.additional_properties = d
        return balance_snapshot

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
