from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeviceRegister")


@_attrs_define
class DeviceRegister:
    """
    Attributes:
        pairing_token (str): The token from pairing/initiate or an invitation's acceptance, or the owner's enrollment
            secret.
        public_key (str): The device's Ed25519 public key: 32 bytes in base64.
        name (None | str | Unset): Display name, 1 to 100 characters (default: device).
    """

    pairing_token: str
    public_key: str
    name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pairing_token = self.pairing_token

        public_key = self.public_key

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pairing_token": pairing_token,
                "public_key": public_key,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pairing_token = d.pop("pairing_token")

        public_key = d.pop("public_key")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        device_register = cls(
            pairing_token=pairing_token,
            public_key=public_key,
            name=name,
        )

        return device_register
