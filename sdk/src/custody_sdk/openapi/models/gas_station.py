from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.asset_configuration import AssetConfiguration


T = TypeVar("T", bound="GasStation")


@_attrs_define
class GasStation:
    """
    Attributes:
        id (UUID):
        vault_id (UUID): The vault designated as the source of gas.
        workspace_id (UUID):
        assets (list[AssetConfiguration]):
    """

    id: UUID
    vault_id: UUID
    workspace_id: UUID
    assets: list[AssetConfiguration]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        vault_id = str(self.vault_id)

        workspace_id = str(self.workspace_id)

        assets = []
        for assets_item_data in self.assets:
            assets_item = assets_item_data.to_dict()
            assets.append(assets_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "vault_id": vault_id,
                "workspace_id": workspace_id,
                "assets": assets,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.asset_configuration import AssetConfiguration  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        vault_id = UUID(d.pop("vault_id"))

        workspace_id = UUID(d.pop("workspace_id"))

        assets = []
        _assets = d.pop("assets")
        for assets_item_data in _assets:
            assets_item = AssetConfiguration.from_dict(assets_item_data)

            assets.append(assets_item)

        gas_station = cls(
            id=id,
            vault_id=vault_id,
            workspace_id=workspace_id,
            assets=assets,
        )

        gas_station.additional_properties = d
        return gas_station

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
