from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tag_operation_operation import (
    TagOperationOperation,
    check_tag_operation_operation,
)

T = TypeVar("T", bound="TagOperation")


@_attrs_define
class TagOperation:
    """
    Attributes:
        operation (TagOperationOperation):
        tag_id (UUID):
        tag_label (None | str): Null when the tag is not the workspace's.
        tag_protected (bool | None): Null when the tag is not the workspace's.
        vault_id (UUID):
        vault_name (None | str): Null when the vault is not the workspace's.
    """

    operation: TagOperationOperation
    tag_id: UUID
    tag_label: None | str
    tag_protected: bool | None
    vault_id: UUID
    vault_name: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        operation: str = self.operation

        tag_id = str(self.tag_id)

        tag_label: None | str
        tag_label = self.tag_label

        tag_protected: bool | None
        tag_protected = self.tag_protected

        vault_id = str(self.vault_id)

        vault_name: None | str
        vault_name = self.vault_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "operation": operation,
                "tag_id": tag_id,
                "tag_label": tag_label,
                "tag_protected": tag_protected,
                "vault_id": vault_id,
                "vault_name": vault_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        operation = check_tag_operation_operation(d.pop("operation"))

        tag_id = UUID(d.pop("tag_id"))

        def _parse_tag_label(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tag_label = _parse_tag_label(d.pop("tag_label"))

        def _parse_tag_protected(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        tag_protected = _parse_tag_protected(d.pop("tag_protected"))

        vault_id = UUID(d.pop("vault_id"))

        def _parse_vault_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        vault_name = _parse_vault_name(d.pop("vault_name"))

        tag_operation = cls(
            operation=operation,
            tag_id=tag_id,
            tag_label=tag_label,
            tag_protected=tag_protected,
            vault_id=vault_id,
            vault_name=vault_name,
        )

        tag_operation.additional_properties = d
        return tag_operation

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
