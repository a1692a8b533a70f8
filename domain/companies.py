"""Companies: the clients. Platform staff see all; a workspace member sees their own."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from core.outbox import add_command
from domain import audit
from domain.auth import Principal
from domain.errors import NotFound
from domain.permissions import Permission
from models.companies import Company, CompanyApplication
from models.workspaces import Workspace

#: The actor that takes a submitted application into review (see actors/companies.py).
REVIEW_APPLICATION = "companies.review_application"


@dataclass(frozen=True)
class CompanyPage:
    companies: list[Company]
    offset: int
    total: int


async def _visible_company_ids(principal: Principal) -> list[uuid.UUID] | None:
    """None means every company (platform staff)."""
    if Permission.VIEW_COMPANIES in principal.platform_permissions:
        return None
    ids = await Workspace.filter(id__in=list(principal.accesses)).values_list("company_id", flat=True)
    return list(set(ids))  # type: ignore[arg-type]  # flat values_list


async def list_companies(*, principal: Principal, limit: int, offset: int) -> CompanyPage:
    query = Company.all()
    visible = await _visible_company_ids(principal)
    if visible is not None:
        query = query.filter(id__in=visible)
    total = await query.count()
    companies = await query.order_by("created_at", "id").offset(offset).limit(limit)
    return CompanyPage(companies=companies, offset=offset, total=total)


async def get_company(*, principal: Principal, company_id: uuid.UUID) -> Company:
    visible = await _visible_company_ids(principal)
    company = await Company.get_or_none(id=company_id)
    if company is None or (visible is not None and company.id not in visible):
        raise NotFound("company not found", code="COMPANY_NOT_FOUND")
    return company


async def create_company(*, principal: Principal | None, name: str, email: str) -> Company:
    """Create a company. ``principal`` None is the operator CLI (bootstrap)."""
    if principal is not None:
        principal.require_platform(Permission.MANAGE_COMPANIES)
    company = await Company.create(name=name, email=email)
    await audit.record(action="company.created", object_type="company", object_id=company.id,
                       actor_id=principal.user.id if principal else None, company_id=company.id,
                       details={"name": name})
    return company


async def submit_application(
    *, principal: Principal, company_name: str, country: str, email: str, first_name: str, job_title: str,
    last_name: str,
) -> CompanyApplication:
    """Record an onboarding application and queue it for review (outbox, same transaction)."""
    application = await CompanyApplication.create(
        company_name=company_name, country=country, email=email, first_name=first_name,
        job_title=job_title, last_name=last_name, submitted_by=principal.user,
    )
    await audit.record(action="company_application.submitted", object_type="company_application",
                       object_id=application.id, actor_id=principal.user.id)
    await add_command(actor_name=REVIEW_APPLICATION, payload={"application_id": str(application.id)})
    return application


async def take_application_into_review(*, application_id: uuid.UUID) -> bool:
    """Move a submitted application to ``in_review``; a second call changes nothing."""
    application = await CompanyApplication.filter(id=application_id).select_for_update().first()
    if application is None or application.status != "submitted":
        return False
    application.status = "in_review"
    await application.save(update_fields=["status"])
    await audit.record(action="company_application.in_review", object_type="company_application",
                       object_id=application.id, actor_id=None)
    return True
