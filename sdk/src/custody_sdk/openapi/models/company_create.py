from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CompanyCreate")


@_attrs_define
class CompanyCreate:
    """
    Attributes:
        name (str): 1 to 200 characters.
        email (str):
    """

    name: str
    email: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        email = self.email

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "email": email,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        email = d.pop("email")

        company_create = cls(
            name=name,
            email=email,
        )

        return company_create
