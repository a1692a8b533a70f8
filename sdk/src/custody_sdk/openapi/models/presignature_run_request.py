from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.presignature_run_request_signer import (
    PresignatureRunRequestSigner,
    check_presignature_run_request_signer,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PresignatureRunRequest")


@_attrs_define
class PresignatureRunRequest:
    """
    Attributes:
        key_set_id (UUID): The threshold ECDSA key set whose co-signer seat the caller holds.
        transport_public_key (str): The co-signer's X25519 key of this run (hex): every message both ways is a NaCl Box
            between it and the signer's run key; unusable: 400 INVALID_TRANSPORT_KEY.
        signer (PresignatureRunRequestSigner | Unset): The service signer the presignature is made with: the pair
            {signer, 3} signs with it. Default: 1.
    """

    key_set_id: UUID
    transport_public_key: str
    signer: PresignatureRunRequestSigner | Unset = 1

    def to_dict(self) -> dict[str, Any]:
        key_set_id = str(self.key_set_id)

        transport_public_key = self.transport_public_key

        signer: int | Unset = UNSET
        if not isinstance(self.signer, Unset):
            signer = self.signer

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key_set_id": key_set_id,
                "transport_public_key": transport_public_key,
            }
        )
        if signer is not UNSET:
            field_dict["signer"] = signer

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key_set_id = UUID(d.pop("key_set_id"))

        transport_public_key = d.pop("transport_public_key")

        _signer = d.pop("signer", UNSET)
        signer: PresignatureRunRequestSigner | Unset
        if isinstance(_signer, Unset):
            signer = UNSET
        else:
            signer = check_presignature_run_request_signer(_signer)

        presignature_run_request = cls(
            key_set_id=key_set_id,
            transport_public_key=transport_public_key,
            signer=signer,
        )

        return presignature_run_request
