from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.workspace_create_network_type import (
    WorkspaceCreateNetworkType,
    check_workspace_create_network_type,
)

T = TypeVar("T", bound="WorkspaceCreate")


@_attrs_define
class WorkspaceCreate:
    """
    Attributes:
        name (str): Display name, 1 to 200 characters.
        network_type (WorkspaceCreateNetworkType): The workspace sees only currencies of this network type.
    """

    name: str
    network_type: WorkspaceCreateNetworkType

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        network_type: str = self.network_type

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "network_type": network_type,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        network_type = check_workspace_create_network_type(d.pop("network_type"))

        workspace_create = cls(
            name=name,
            network_type=network_type,
        )

        return workspace_create
