from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CosignerDesignationUpdate")


@_attrs_define
class CosignerDesignationUpdate:
    """
    Attributes:
        user_id (None | Unset | UUID): An API user of the workspace that may sign: a headless co-signer (custody
            cosigner run).
        device_id (None | Unset | UUID): Or an active paired device, whose user may sign.
    """

    user_id: None | Unset | UUID = UNSET
    device_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        elif isinstance(self.user_id, UUID):
            user_id = str(self.user_id)
        else:
            user_id = self.user_id

        device_id: None | str | Unset
        if isinstance(self.device_id, Unset):
            device_id = UNSET
        elif isinstance(self.device_id, UUID):
            device_id = str(self.device_id)
        else:
            device_id = self.device_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if user_id is not UNSET:
            field_dict["user_id"] = user_id
        if device_id is not UNSET:
            field_dict["device_id"] = device_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_user_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                user_id_type_0 = UUID(data)

                return user_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        def _parse_device_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                device_id_type_0 = UUID(data)

                return device_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        device_id = _parse_device_id(d.pop("device_id", UNSET))

        cosigner_designation_update = cls(
            user_id=user_id,
            device_id=device_id,
        )

        return cosigner_designation_update
