from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RunMessages")


@_attrs_define
class RunMessages:
    """
    Attributes:
        messages (list[str]): Base64 of the signer's messages (Boxes) for the co-signer, in order.
        signer_transport_public_key (None | str | Unset): Hex of the signer's X25519 key of this run (null until the
            signer started the run).
    """

    messages: list[str]
    signer_transport_public_key: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        messages = self.messages

        signer_transport_public_key: None | str | Unset
        if isinstance(self.signer_transport_public_key, Unset):
            signer_transport_public_key = UNSET
        else:
            signer_transport_public_key = self.signer_transport_public_key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "messages": messages,
            }
        )
        if signer_transport_public_key is not UNSET:
            field_dict["signer_transport_public_key"] = signer_transport_public_key

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        messages = cast(list[str], d.pop("messages"))

        def _parse_signer_transport_public_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        signer_transport_public_key = _parse_signer_transport_public_key(d.pop("signer_transport_public_key", UNSET))

        run_messages = cls(
            messages=messages,
            signer_transport_public_key=signer_transport_public_key,
        )

        run_messages.additional_properties = d
        return run_messages

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
