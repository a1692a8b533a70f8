from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.round_1_package_view import Round1PackageView


T = TypeVar("T", bound="Round1Broadcast")


@_attrs_define
class Round1Broadcast:
    """
    Attributes:
        sender (int):
        package (Round1PackageView):
        transport_public_key (str): The sender's X25519 transport key (hex).
    """

    sender: int
    package: Round1PackageView
    transport_public_key: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sender = self.sender

        package = self.package.to_dict()

        transport_public_key = self.transport_public_key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sender": sender,
                "package": package,
                "transport_public_key": transport_public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.round_1_package_view import Round1PackageView  # noqa: PLC0415

        d = dict(src_dict)
        sender = d.pop("sender")

        package = Round1PackageView.from_dict(d.pop("package"))

        transport_public_key = d.pop("transport_public_key")

        round_1_broadcast = cls(
            sender=sender,
            package=package,
            transport_public_key=transport_public_key,
        )

        round_1_broadcast.additional_properties = d
        return round_1_broadcast

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
