from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.active_token_subject_type import (
    ActiveTokenSubjectType,
    check_active_token_subject_type,
)

if TYPE_CHECKING:
    from ..models.token_access import TokenAccess


T = TypeVar("T", bound="ActiveToken")


@_attrs_define
class ActiveToken:
    """
    Attributes:
        active (bool):
        issuer (str):
        audience (list[str]):
        jti (UUID): The token's id.
        subject (UUID): The device when the token is a device's, otherwise the user.
        subject_type (ActiveTokenSubjectType):
        subject_uuid (UUID): The user the token acts for.
        email (str): The user's email; empty for an API user.
        issued_at (str):
        expires_at (str):
        accesses (list[TokenAccess]):
    """

    active: bool
    issuer: str
    audience: list[str]
    jti: UUID
    subject: UUID
    subject_type: ActiveTokenSubjectType
    subject_uuid: UUID
    email: str
    issued_at: str
    expires_at: str
    accesses: list[TokenAccess]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        issuer = self.issuer

        audience = self.audience

        jti = str(self.jti)

        subject = str(self.subject)

        subject_type: str = self.subject_type

        subject_uuid = str(self.subject_uuid)

        email = self.email

        issued_at = self.issued_at

        expires_at = self.expires_at

        accesses = []
        for accesses_item_data in self.accesses:
            accesses_item = accesses_item_data.to_dict()
            accesses.append(accesses_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "issuer": issuer,
                "audience": audience,
                "jti": jti,
                "subject": subject,
                "subject_type": subject_type,
                "subject_uuid": subject_uuid,
                "email": email,
                "issued_at": issued_at,
                "expires_at": expires_at,
                "accesses": accesses,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.token_access import TokenAccess  # noqa: PLC0415

        d = dict(src_dict)
        active = d.pop("active")

        issuer = d.pop("issuer")

        audience = cast(list[str], d.pop("audience"))

        jti = UUID(d.pop("jti"))

        subject = UUID(d.pop("subject"))

        subject_type = check_active_token_subject_type(d.pop("subject_type"))

        subject_uuid = UUID(d.pop("subject_uuid"))

        email = d.pop("email")

        issued_at = d.pop("issued_at")

        expires_at = d.pop("expires_at")

        accesses = []
        _accesses = d.pop("accesses")
        for accesses_item_data in _accesses:
            accesses_item = TokenAccess.from_dict(accesses_item_data)

            accesses.append(accesses_item)

        active_token = cls(
            active=active,
            issuer=issuer,
            audience=audience,
            jti=jti,
            subject=subject,
            subject_type=subject_type,
            subject_uuid=subject_uuid,
            email=email,
            issued_at=issued_at,
            expires_at=expires_at,
            accesses=accesses,
        )

        active_token.additional_properties = d
        return active_token

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
