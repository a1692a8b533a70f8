"""Company requests and responses (/api/v1/company)."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.common import Email, RequestBody, Resource, Timestamp, page_query, text
from models.companies import Company as CompanyRow
from models.companies import CompanyApplication as ApplicationRow

#: The spec's defaults: 15 from offset 0.
CompanyListQuery = page_query(default=15, maximum=1000, name="CompanyListQuery")

CompanyName = text(max_length=200)
#: Application fields stored in 100-character columns.
PersonText = text(max_length=100)


class CompanyCreate(RequestBody):
    name: CompanyName = Field(description="1 to 200 characters.")
    email: Email


class Company(Resource):
    id: uuid.UUID
    name: str
    email: str
    created_at: Timestamp

    @classmethod
    def of(cls, company: CompanyRow) -> "Company":
        return cls(id=company.id, name=company.name, email=company.email, created_at=company.created_at)


class CompanyList(Resource):
    companies: list[Company]
    offset: int = Field(ge=0)
    total: int = Field(ge=0)


class CompanyApplicationSubmit(RequestBody):
    company_name: CompanyName = Field(description="1 to 200 characters.")
    country: PersonText = Field(description="1 to 100 characters.")
    email: Email
    first_name: PersonText
    job_title: PersonText
    last_name: PersonText


class CompanyApplication(Resource):
    id: uuid.UUID
    status: Literal["submitted", "in_review"] = Field(description="submitted, then in_review once taken up.")
    created_at: Timestamp

    @classmethod
    def of(cls, application: ApplicationRow) -> "CompanyApplication":
        return cls(id=application.id, status=application.status,
                   created_at=application.created_at)
