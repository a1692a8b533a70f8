from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BackupStart")


@_attrs_define
class BackupStart:
    """
    Attributes:
        public_key (str): Base64 (standard or URL-safe) of a 32-byte Curve25519 public key.
    """

    public_key: str

    def to_dict(self) -> dict[str, Any]:
        public_key = self.public_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "public_key": public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        public_key = d.pop("public_key")

        backup_start = cls(
            public_key=public_key,
        )

        return backup_start
