from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rejected_tag_operation import RejectedTagOperation
    from ..models.tag_operation import TagOperation


T = TypeVar("T", bound="TagOperations")


@_attrs_define
class TagOperations:
    """
    Attributes:
        applied_operations (list[TagOperation]):
        rejected_operations (list[RejectedTagOperation]):
    """

    applied_operations: list[TagOperation]
    rejected_operations: list[RejectedTagOperation]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        applied_operations = []
        for applied_operations_item_data in self.applied_operations:
            applied_operations_item = applied_operations_item_data.to_dict()
            applied_operations.append(applied_operations_item)

        rejected_operations = []
        for rejected_operations_item_data in self.rejected_operations:
            rejected_operations_item = rejected_operations_item_data.to_dict()
            rejected_operations.append(rejected_operations_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applied_operations": applied_operations,
                "rejected_operations": rejected_operations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rejected_tag_operation import RejectedTagOperation  # noqa: PLC0415
        from ..models.tag_operation import TagOperation  # noqa: PLC0415

        d = dict(src_dict)
        applied_operations = []
        _applied_operations = d.pop("applied_operations")
        for applied_operations_item_data in _applied_operations:
            applied_operations_item = TagOperation.from_dict(applied_operations_item_data)

            applied_operations.append(applied_operations_item)

        rejected_operations = []
        _rejected_operations = d.pop("rejected_operations")
        for rejected_operations_item_data in _rejected_operations:
            rejected_operations_item = RejectedTagOperation.from_dict(rejected_operations_item_data)

            rejected_operations.append(rejected_operations_item)

        tag_operations = cls(
            applied_operations=applied_operations,
            rejected_operations=rejected_operations,
        )

        tag_operations.additional_properties = d
        return tag_operations

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
