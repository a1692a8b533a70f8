from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.api_user_create_role import ApiUserCreateRole, check_api_user_create_role

T = TypeVar("T", bound="ApiUserCreate")


@_attrs_define
class ApiUserCreate:
    """
    Attributes:
        name (str): Display name of the API user, 1 to 100 characters.
        role (ApiUserCreateRole): A role whose permissions are a subset of the caller's; never OWNER, which passes only
            by an ownership transfer (403 ROLE_NOT_GRANTABLE otherwise).
        public_key (str): The API user's Ed25519 public key: 32 bytes in base64.
    """

    name: str
    role: ApiUserCreateRole
    public_key: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        role: str = self.role

        public_key = self.public_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "role": role,
                "public_key": public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        role = check_api_user_create_role(d.pop("role"))

        public_key = d.pop("public_key")

        api_user_create = cls(
            name=name,
            role=role,
            public_key=public_key,
        )

        return api_user_create
