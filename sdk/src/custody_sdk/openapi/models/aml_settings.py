from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.aml_settings_address_exposures_item import (
        AmlSettingsAddressExposuresItem,
    )
    from ..models.aml_settings_blocked_addresses_item import (
        AmlSettingsBlockedAddressesItem,
    )
    from ..models.aml_settings_categories_item import AmlSettingsCategoriesItem
    from ..models.aml_settings_thresholds import AmlSettingsThresholds
    from ..models.aml_settings_trusted_addresses_item import (
        AmlSettingsTrustedAddressesItem,
    )


T = TypeVar("T", bound="AmlSettings")


@_attrs_define
class AmlSettings:
    """
    Attributes:
        workspace_id (UUID):
        enabled (bool):
        provider (str):
        blocked_addresses (list[AmlSettingsBlockedAddressesItem]):
        trusted_addresses (list[AmlSettingsTrustedAddressesItem]):
        address_exposures (list[AmlSettingsAddressExposuresItem]):
        categories (list[AmlSettingsCategoriesItem]):
        thresholds (AmlSettingsThresholds):
        updated_by (None | UUID):
        updated_at (datetime.datetime | None):
    """

    workspace_id: UUID
    enabled: bool
    provider: str
    blocked_addresses: list[AmlSettingsBlockedAddressesItem]
    trusted_addresses: list[AmlSettingsTrustedAddressesItem]
    address_exposures: list[AmlSettingsAddressExposuresItem]
    categories: list[AmlSettingsCategoriesItem]
    thresholds: AmlSettingsThresholds
    updated_by: None | UUID
    updated_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace_id = str(self.workspace_id)

        enabled = self.enabled

        provider = self.provider

        blocked_addresses = []
        for blocked_addresses_item_data in self.blocked_addresses:
            blocked_addresses_item = blocked_addresses_item_data.to_dict()
            blocked_addresses.append(blocked_addresses_item)

        trusted_addresses = []
        for trusted_addresses_item_data in self.trusted_addresses:
            trusted_addresses_item = trusted_addresses_item_data.to_dict()
            trusted_addresses.append(trusted_addresses_item)

        address_exposures = []
        for address_exposures_item_data in self.address_exposures:
            address_exposures_item = address_exposures_item_data.to_dict()
            address_exposures.append(address_exposures_item)

        categories = []
        for categories_item_data in self.categories:
            categories_item = categories_item_data.to_dict()
            categories.append(categories_item)

        thresholds = self.thresholds.to_dict()

        updated_by: None | str
        if isinstance(self.updated_by, UUID):
            updated_by = str(self.updated_by)
        else:
            updated_by = self.updated_by

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace_id": workspace_id,
                "enabled": enabled,
                "provider": provider,
                "blocked_addresses": blocked_addresses,
                "trusted_addresses": trusted_addresses,
                "address_exposures": address_exposures,
                "categories": categories,
                "thresholds": thresholds,
                "updated_by": updated_by,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.aml_settings_address_exposures_item import (
            AmlSettingsAddressExposuresItem,  # noqa: PLC0415
        )
        from ..models.aml_settings_blocked_addresses_item import (
            AmlSettingsBlockedAddressesItem,  # noqa: PLC0415
        )
        from ..models.aml_settings_categories_item import AmlSettingsCategoriesItem  # noqa: PLC0415
        from ..models.aml_settings_thresholds import AmlSettingsThresholds  # noqa: PLC0415
        from ..models.aml_settings_trusted_addresses_item import (
            AmlSettingsTrustedAddressesItem,  # noqa: PLC0415
        )

        d = dict(src_dict)
        workspace_id = UUID(d.pop("workspace_id"))

        enabled = d.pop("enabled")

        provider = d.pop("provider")

        blocked_addresses = []
        _blocked_addresses = d.pop("blocked_addresses")
        for blocked_addresses_item_data in _blocked_addresses:
            blocked_addresses_item = AmlSettingsBlockedAddressesItem.from_dict(blocked_addresses_item_data)

            blocked_addresses.append(blocked_addresses_item)

        trusted_addresses = []
        _trusted_addresses = d.pop("trusted_addresses")
        for trusted_addresses_item_data in _trusted_addresses:
            trusted_addresses_item = AmlSettingsTrustedAddressesItem.from_dict(trusted_addresses_item_data)

            trusted_addresses.append(trusted_addresses_item)

        address_exposures = []
        _address_exposures = d.pop("address_exposures")
        for address_exposures_item_data in _address_exposures:
            address_exposures_item = AmlSettingsAddressExposuresItem.from_dict(address_exposures_item_data)

            address_exposures.append(address_exposures_item)

        categories = []
        _categories = d.pop("categories")
        for categories_item_data in _categories:
            categories_item = AmlSettingsCategoriesItem.from_dict(categories_item_data)

            categories.append(categories_item)

        thresholds = AmlSettingsThresholds.from_dict(d.pop("thresholds"))

        def _parse_updated_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_by_type_0 = UUID(data)

                return updated_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        updated_by = _parse_updated_by(d.pop("updated_by"))

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        aml_settings = cls(
            workspace_id=workspace_id,
            enabled=enabled,
            provider=provider,
            blocked_addresses=blocked_addresses,
            trusted_addresses=trusted_addresses,
            address_exposures=address_exposures,
            categories=categories,
            thresholds=thresholds,
            updated_by=updated_by,
            updated_at=updated_at,
        )

        aml_settings.additional_properties = d
        return aml_settings

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
