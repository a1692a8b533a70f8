from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CompanyApplicationSubmit")


@_attrs_define
class CompanyApplicationSubmit:
    """
    Attributes:
        company_name (str): 1 to 200 characters.
        country (str): 1 to 100 characters.
        email (str):
        first_name (str):
        job_title (str):
        last_name (str):
    """

    company_name: str
    country: str
    email: str
    first_name: str
    job_title: str
    last_name: str

    def to_dict(self) -> dict[str, Any]:
        company_name = self.company_name

        country = self.country

        email = self.email

        first_name = self.first_name

        job_title = self.job_title

        last_name = self.last_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "company_name": company_name,
                "country": country,
                "email": email,
                "first_name": first_name,
                "job_title": job_title,
                "last_name": last_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        company_name = d.pop("company_name")

        country = d.pop("country")

        email = d.pop("email")

        first_name = d.pop("first_name")

        job_title = d.pop("job_title")

        last_name = d.pop("last_name")

        company_application_submit = cls(
            company_name=company_name,
            country=country,
            email=email,
            first_name=first_name,
            job_title=job_title,
            last_name=last_name,
        )

        return company_application_submit
