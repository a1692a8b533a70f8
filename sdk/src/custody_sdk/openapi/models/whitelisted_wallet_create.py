from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WhitelistedWalletCreate")


@_attrs_define
class WhitelistedWalletCreate:
    """
    Attributes:
        name (str): Display name, 1 to 100 characters (shown as the transaction's to.whitelisted_wallet_name).
        currency_id (str): A currency id of GET /currencies.
        address (str): An address of the currency's network (normalized on save).
    """

    name: str
    currency_id: str
    address: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        currency_id = self.currency_id

        address = self.address

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "currency_id": currency_id,
                "address": address,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        currency_id = d.pop("currency_id")

        address = d.pop("address")

        whitelisted_wallet_create = cls(
            name=name,
            currency_id=currency_id,
            address=address,
        )

        return whitelisted_wallet_create
