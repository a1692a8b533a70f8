from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AuditSignedHead")


@_attrs_define
class AuditSignedHead:
    """The chain's latest link, signed: ``signature`` is the base64 Ed25519 signature, by the key
    ``key_id``, of ``b"custody-audit-head:v1\\n"`` followed by the canonical JSON of the other fields.

        Attributes:
            workspace_id (UUID):
            seq (int): How many entries the chain holds.
            hash_ (str): Hex SHA-256.
            position (str): The position of the entry at seq.
            signed_at (str):
            key_id (str):
            signature (str):
    """

    workspace_id: UUID
    seq: int
    hash_: str
    position: str
    signed_at: str
    key_id: str
    signature: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace_id = str(self.workspace_id)

        seq = self.seq

        hash_ = self.hash_

        position = self.position

        signed_at = self.signed_at

        key_id = self.key_id

        signature = self.signature

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace_id": workspace_id,
                "seq": seq,
                "hash": hash_,
                "position": position,
                "signed_at": signed_at,
                "key_id": key_id,
                "signature": signature,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        workspace_id = UUID(d.pop("workspace_id"))

        seq = d.pop("seq")

        hash_ = d.pop("hash")

        position = d.pop("position")

        signed_at = d.pop("signed_at")

        key_id = d.pop("key_id")

        signature = d.pop("signature")

        audit_signed_head = cls(
            workspace_id=workspace_id,
            seq=seq,
            hash_=hash_,
            position=position,
            signed_at=signed_at,
            key_id=key_id,
            signature=signature,
        )

        audit_signed_head.additional_properties = d
        return audit_signed_head

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
