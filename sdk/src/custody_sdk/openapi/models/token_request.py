from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TokenRequest")


@_attrs_define
class TokenRequest:
    """A signed token request. ``data`` is kept byte for byte (it is what was signed); its inner
    fields are checked by the service, which answers 400 INVALID_TOKEN_REQUEST naming
    ``data.<field>``. A ``data`` or ``signature`` that is not a string (or is too long) is an
    INVALID_TOKEN_REQUEST too; only a missing or unknown field is a VALIDATION_ERROR.

        Attributes:
            data (str): The JSON payload, as a string: {client_type: device|user, client_id (UUID), timestamp (unix seconds,
                within 5 minutes of server time), nonce (8 to 128 characters, once per client)}.
            signature (str): Base64 Ed25519 signature of the exact UTF-8 bytes of data.
    """

    data: str
    signature: str

    def to_dict(self) -> dict[str, Any]:
        data = self.data

        signature = self.signature

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "signature": signature,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data = d.pop("data")

        signature = d.pop("signature")

        token_request = cls(
            data=data,
            signature=signature,
        )

        return token_request
