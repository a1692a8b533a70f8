"""Companies (legal entities that are clients) and their applications."""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class Company(TimestampedModel):
    name = fields.CharField(max_length=200)
    email = fields.CharField(max_length=320)

    class Meta:
        table = "companies"


class CompanyApplication(TimestampedModel):
    """A prospective client's request to be onboarded; processed by the intake actor."""

    company_name = fields.CharField(max_length=200)
    country = fields.CharField(max_length=100)
    email = fields.CharField(max_length=320)
    first_name = fields.CharField(max_length=100)
    last_name = fields.CharField(max_length=100)
    job_title = fields.CharField(max_length=100)
    #: submitted -> in_review (after the intake actor has run).
    status = fields.CharField(max_length=20, default="submitted")
    submitted_by = fields.ForeignKeyField(
        "models.User", related_name=False, null=True, on_delete=fields.SET_NULL
    )
    submitted_by_id: uuid.UUID | None

    class Meta:
        table = "company_applications"
