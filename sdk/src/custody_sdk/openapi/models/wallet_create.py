from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="WalletCreate")


@_attrs_define
class WalletCreate:
    """
    Attributes:
        currency_id (str): A currency id of GET /currencies.
        vault_id (UUID):
    """

    currency_id: str
    vault_id: UUID

    def to_dict(self) -> dict[str, Any]:
        currency_id = self.currency_id

        vault_id = str(self.vault_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "currency_id": currency_id,
                "vault_id": vault_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        currency_id = d.pop("currency_id")

        vault_id = UUID(d.pop("vault_id"))

        wallet_create = cls(
            currency_id=currency_id,
            vault_id=vault_id,
        )

        return wallet_create
