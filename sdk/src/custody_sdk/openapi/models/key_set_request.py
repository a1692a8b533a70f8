from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.key_set_request_scheme import (
    KeySetRequestScheme,
    check_key_set_request_scheme,
)

T = TypeVar("T", bound="KeySetRequest")


@_attrs_define
class KeySetRequest:
    """
    Attributes:
        scheme (KeySetRequestScheme): The threshold scheme of the key set to generate: FROST-secp256k1-SHA256-TR-v1 for
            Bitcoin networks, ECDSA-secp256k1-cait-sith-v1 (threshold ECDSA) for EVM networks, FROST-ED25519-SHA512-v1 for
            the others.
    """

    scheme: KeySetRequestScheme

    def to_dict(self) -> dict[str, Any]:
        scheme: str = self.scheme

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scheme": scheme,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        scheme = check_key_set_request_scheme(d.pop("scheme"))

        key_set_request = cls(
            scheme=scheme,
        )

        return key_set_request
