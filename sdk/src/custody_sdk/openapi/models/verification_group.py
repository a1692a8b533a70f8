from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.verification_group_schema import (
    VerificationGroupSchema,
    check_verification_group_schema,
)

T = TypeVar("T", bound="VerificationGroup")


@_attrs_define
class VerificationGroup:
    """
    Attributes:
        master_xpub (str):
        schema (VerificationGroupSchema):
        key_set_id (UUID):
        vault_id (UUID):
    """

    master_xpub: str
    schema: VerificationGroupSchema
    key_set_id: UUID
    vault_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        master_xpub = self.master_xpub

        schema: str = self.schema

        key_set_id = str(self.key_set_id)

        vault_id = str(self.vault_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "master_xpub": master_xpub,
                "schema": schema,
                "key_set_id": key_set_id,
                "vault_id": vault_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        master_xpub = d.pop("master_xpub")

        schema = check_verification_group_schema(d.pop("schema"))

        key_set_id = UUID(d.pop("key_set_id"))

        vault_id = UUID(d.pop("vault_id"))

        verification_group = cls(
            master_xpub=master_xpub,
            schema=schema,
            key_set_id=key_set_id,
            vault_id=vault_id,
        )

        verification_group.additional_properties = d
        return verification_group

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
