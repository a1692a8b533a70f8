from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.address_exposure import AddressExposure
    from ..models.blocked_address import BlockedAddress
    from ..models.risk_category import RiskCategory
    from ..models.thresholds import Thresholds
    from ..models.trusted_address import TrustedAddress


T = TypeVar("T", bound="AmlSettingsUpdate")


@_attrs_define
class AmlSettingsUpdate:
    """
    Attributes:
        enabled (bool): Whether transfers are screened.
        provider (str | Unset): The screener: builtin (rule-based, configured here). Default: 'builtin'.
        blocked_addresses (list[BlockedAddress] | Unset):
        trusted_addresses (list[TrustedAddress] | Unset):
        address_exposures (list[AddressExposure] | Unset):
        categories (list[RiskCategory] | None | Unset): Absent: the default categories.
        thresholds (None | Thresholds | Unset): Absent: medium 25, high 50, severe 80.
    """

    enabled: bool
    provider: str | Unset = "builtin"
    blocked_addresses: list[BlockedAddress] | Unset = UNSET
    trusted_addresses: list[TrustedAddress] | Unset = UNSET
    address_exposures: list[AddressExposure] | Unset = UNSET
    categories: list[RiskCategory] | None | Unset = UNSET
    thresholds: None | Thresholds | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.thresholds import Thresholds  # noqa: PLC0415

        enabled = self.enabled

        provider = self.provider

        blocked_addresses: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.blocked_addresses, Unset):
            blocked_addresses = []
            for blocked_addresses_item_data in self.blocked_addresses:
                blocked_addresses_item = blocked_addresses_item_data.to_dict()
                blocked_addresses.append(blocked_addresses_item)

        trusted_addresses: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.trusted_addresses, Unset):
            trusted_addresses = []
            for trusted_addresses_item_data in self.trusted_addresses:
                trusted_addresses_item = trusted_addresses_item_data.to_dict()
                trusted_addresses.append(trusted_addresses_item)

        address_exposures: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.address_exposures, Unset):
            address_exposures = []
            for address_exposures_item_data in self.address_exposures:
                address_exposures_item = address_exposures_item_data.to_dict()
                address_exposures.append(address_exposures_item)

        categories: list[dict[str, Any]] | None | Unset
        if isinstance(self.categories, Unset):
            categories = UNSET
        elif isinstance(self.categories, list):
            categories = []
            for categories_type_0_item_data in self.categories:
                categories_type_0_item = categories_type_0_item_data.to_dict()
                categories.append(categories_type_0_item)

        else:
            categories = self.categories

        thresholds: dict[str, Any] | None | Unset
        if isinstance(self.thresholds, Unset):
            thresholds = UNSET
        elif isinstance(self.thresholds, Thresholds):
            thresholds = self.thresholds.to_dict()
        else:
            thresholds = self.thresholds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enabled": enabled,
            }
        )
        if provider is not UNSET:
            field_dict["provider"] = provider
        if blocked_addresses is not UNSET:
            field_dict["blocked_addresses"] = blocked_addresses
        if trusted_addresses is not UNSET:
            field_dict["trusted_addresses"] = trusted_addresses
        if address_exposures is not UNSET:
            field_dict["address_exposures"] = address_exposures
        if categories is not UNSET:
            field_dict["categories"] = categories
        if thresholds is not UNSET:
            field_dict["thresholds"] = thresholds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address_exposure import AddressExposure  # noqa: PLC0415
        from ..models.blocked_address import BlockedAddress  # noqa: PLC0415
        from ..models.risk_category import RiskCategory  # noqa: PLC0415
        from ..models.thresholds import Thresholds  # noqa: PLC0415
        from ..models.trusted_address import TrustedAddress  # noqa: PLC0415

        d = dict(src_dict)
        enabled = d.pop("enabled")

        provider = d.pop("provider", UNSET)

        _blocked_addresses = d.pop("blocked_addresses", UNSET)
        blocked_addresses: list[BlockedAddress] | Unset = UNSET
        if _blocked_addresses is not UNSET:
            blocked_addresses = []
            for blocked_addresses_item_data in _blocked_addresses:
                blocked_addresses_item = BlockedAddress.from_dict(blocked_addresses_item_data)

                blocked_addresses.append(blocked_addresses_item)

        _trusted_addresses = d.pop("trusted_addresses", UNSET)
        trusted_addresses: list[TrustedAddress] | Unset = UNSET
        if _trusted_addresses is not UNSET:
            trusted_addresses = []
            for trusted_addresses_item_data in _trusted_addresses:
                trusted_addresses_item = TrustedAddress.from_dict(trusted_addresses_item_data)

                trusted_addresses.append(trusted_addresses_item)

        _address_exposures = d.pop("address_exposures", UNSET)
        address_exposures: list[AddressExposure] | Unset = UNSET
        if _address_exposures is not UNSET:
            address_exposures = []
            for address_exposures_item_data in _address_exposures:
                address_exposures_item = AddressExposure.from_dict(address_exposures_item_data)

                address_exposures.append(address_exposures_item)

        def _parse_categories(data: object) -> list[RiskCategory] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                categories_type_0 = []
                _categories_type_0 = data
                for categories_type_0_item_data in _categories_type_0:
                    categories_type_0_item = RiskCategory.from_dict(categories_type_0_item_data)

                    categories_type_0.append(categories_type_0_item)

                return categories_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[RiskCategory] | None | Unset, data)

        categories = _parse_categories(d.pop("categories", UNSET))

        def _parse_thresholds(data: object) -> None | Thresholds | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                thresholds_type_1 = Thresholds.from_dict(data)

                return thresholds_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Thresholds | Unset, data)

        thresholds = _parse_thresholds(d.pop("thresholds", UNSET))

        aml_settings_update = cls(
            enabled=enabled,
            provider=provider,
            blocked_addresses=blocked_addresses,
            trusted_addresses=trusted_addresses,
            address_exposures=address_exposures,
            categories=categories,
            thresholds=thresholds,
        )

        return aml_settings_update
