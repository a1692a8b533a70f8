from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.workspace_create_network_type import (
    WorkspaceCreateNetworkType,
    check_workspace_create_network_type,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="WorkspaceCreate")


@_attrs_define
class WorkspaceCreate:
    """
    Attributes:
        name (str): Display name, 1 to 200 characters.
        network_type (WorkspaceCreateNetworkType): The workspace sees only currencies of this network type.
        owner_email (None | str | Unset): Invite this person as the workspace's first owner (they accept with the
            emailed token).
    """

    name: str
    network_type: WorkspaceCreateNetworkType
    owner_email: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        network_type: str = self.network_type

        owner_email: None | str | Unset
        if isinstance(self.owner_email, Unset):
            owner_email = UNSET
        else:
            owner_email = self.owner_email

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "network_type": network_type,
            }
        )
        if owner_email is not UNSET:
            field_dict["owner_email"] = owner_email

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        network_type = check_workspace_create_network_type(d.pop("network_type"))

        def _parse_owner_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_email = _parse_owner_email(d.pop("owner_email", UNSET))

        workspace_create = cls(
            name=name,
            network_type=network_type,
            owner_email=owner_email,
        )

        return workspace_create
