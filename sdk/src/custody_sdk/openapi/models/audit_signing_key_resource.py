from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AuditSigningKeyResource")


@_attrs_define
class AuditSigningKeyResource:
    """A key that signs heads. Pin one out of band; a later key is trusted through its
    ``endorsement``: the previous key's base64 signature of ``b"custody-audit-key:v1\\n"`` followed by
    the canonical JSON of ``{key_id, public_key, previous_key_id}``.

        Attributes:
            key_id (str): The first 16 bytes of SHA-256 of the public key, hex.
            public_key (str): Base64 of the 32-byte Ed25519 public key.
            created_at (str):
            retired_at (None | str): When the next key took over; null for the key in use.
            previous_key_id (None | str):
            endorsement (None | str):
    """

    key_id: str
    public_key: str
    created_at: str
    retired_at: None | str
    previous_key_id: None | str
    endorsement: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key_id = self.key_id

        public_key = self.public_key

        created_at = self.created_at

        retired_at: None | str
        retired_at = self.retired_at

        previous_key_id: None | str
        previous_key_id = self.previous_key_id

        endorsement: None | str
        endorsement = self.endorsement

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key_id": key_id,
                "public_key": public_key,
                "created_at": created_at,
                "retired_at": retired_at,
                "previous_key_id": previous_key_id,
                "endorsement": endorsement,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key_id = d.pop("key_id")

        public_key = d.pop("public_key")

        created_at = d.pop("created_at")

        def _parse_retired_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        retired_at = _parse_retired_at(d.pop("retired_at"))

        def _parse_previous_key_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_key_id = _parse_previous_key_id(d.pop("previous_key_id"))

        def _parse_endorsement(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        endorsement = _parse_endorsement(d.pop("endorsement"))

        audit_signing_key_resource = cls(
            key_id=key_id,
            public_key=public_key,
            created_at=created_at,
            retired_at=retired_at,
            previous_key_id=previous_key_id,
            endorsement=endorsement,
        )

        audit_signing_key_resource.additional_properties = d
        return audit_signing_key_resource

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
