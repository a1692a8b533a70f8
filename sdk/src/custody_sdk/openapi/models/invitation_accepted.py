from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.invitation_accepted_role import (
    InvitationAcceptedRole,
    check_invitation_accepted_role,
)

if TYPE_CHECKING:
    from ..models.pairing_invitation import PairingInvitation
    from ..models.workspace import Workspace


T = TypeVar("T", bound="InvitationAccepted")


@_attrs_define
class InvitationAccepted:
    """The accepting person's membership, and a pairing token for a first device.

    Attributes:
        workspace (Workspace):
        user_id (UUID):
        role (InvitationAcceptedRole):
        pairing (None | PairingInvitation): Register a device with it (POST /api/v2/auth/devices/pairing/register); null
            for VIEWER; for the OWNER an owner enrollment secret (kind owner_enrollment).
    """

    workspace: Workspace
    user_id: UUID
    role: InvitationAcceptedRole
    pairing: None | PairingInvitation
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.pairing_invitation import PairingInvitation  # noqa: PLC0415

        workspace = self.workspace.to_dict()

        user_id = str(self.user_id)

        role: str = self.role

        pairing: dict[str, Any] | None
        if isinstance(self.pairing, PairingInvitation):
            pairing = self.pairing.to_dict()
        else:
            pairing = self.pairing

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace": workspace,
                "user_id": user_id,
                "role": role,
                "pairing": pairing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pairing_invitation import PairingInvitation  # noqa: PLC0415
        from ..models.workspace import Workspace  # noqa: PLC0415

        d = dict(src_dict)
        workspace = Workspace.from_dict(d.pop("workspace"))

        user_id = UUID(d.pop("user_id"))

        role = check_invitation_accepted_role(d.pop("role"))

        def _parse_pairing(data: object) -> None | PairingInvitation:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pairing_type_1 = PairingInvitation.from_dict(data)

                return pairing_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PairingInvitation, data)

        pairing = _parse_pairing(d.pop("pairing"))

        invitation_accepted = cls(
            workspace=workspace,
            user_id=user_id,
            role=role,
            pairing=pairing,
        )

        invitation_accepted.additional_properties = d
        return invitation_accepted

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
