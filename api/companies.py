"""Companies: /api/v1/company (list, create, get, application) and their workspaces."""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import principal
from api.contract import endpoint
from api.schemas.companies import (
    Company,
    CompanyApplication,
    CompanyApplicationSubmit,
    CompanyCreate,
    CompanyList,
    CompanyListQuery,
)
from api.schemas.workspaces import Workspace, WorkspaceCreate
from core.unit_of_work import unit_of_work
from domain import companies, workspaces

bp = Blueprint("companies", url_prefix="/api/v1/company")

_NOT_FOUND = {404: ["COMPANY_NOT_FOUND"]}
_PLATFORM_ADMIN = {403: ["PERMISSION_DENIED"]}


@bp.get("")
@endpoint(summary="Companies visible to the caller (platform staff: all; members: their own)", tag="companies",
          query=CompanyListQuery, responses={200: CompanyList})
async def list_companies(request: Request, query: CompanyListQuery) -> CompanyList:
    caller = await principal(request)
    page = await companies.list_companies(principal=caller, limit=query.limit, offset=query.offset)  # type: ignore[attr-defined]  # a page_query class
    return CompanyList(companies=[Company.of(c) for c in page.companies], offset=page.offset, total=page.total)


@bp.post("")
@endpoint(summary="Create a company (PLATFORM_ADMIN)", tag="companies", body=CompanyCreate,
          responses={201: Company}, errors=_PLATFORM_ADMIN)
async def create_company(request: Request, body: CompanyCreate) -> Company:
    caller = await principal(request)
    async with unit_of_work():
        company = await companies.create_company(principal=caller, name=body.name, email=body.email)
    return Company.of(company)


@bp.post("/application")
@endpoint(summary="Apply to become a client; queued for review", tag="companies", body=CompanyApplicationSubmit,
          responses={202: CompanyApplication})
async def submit_application(request: Request, body: CompanyApplicationSubmit) -> CompanyApplication:
    caller = await principal(request)
    async with unit_of_work():
        record = await companies.submit_application(
            principal=caller, company_name=body.company_name, country=body.country, email=body.email,
            first_name=body.first_name, job_title=body.job_title, last_name=body.last_name)
    return CompanyApplication.of(record)


@bp.get("/<company_id:uuid>")
@endpoint(summary="One company (one you cannot see answers 404, like a missing one)", tag="companies",
          responses={200: Company}, errors=_NOT_FOUND)
async def get_company(request: Request, company_id: uuid.UUID) -> Company:
    caller = await principal(request)
    return Company.of(await companies.get_company(principal=caller, company_id=company_id))


@bp.post("/<company_id:uuid>/workspaces")
@endpoint(summary="Create a workspace of the company (PLATFORM_ADMIN)", tag="companies", body=WorkspaceCreate,
          responses={201: Workspace}, errors={**_PLATFORM_ADMIN, **_NOT_FOUND})
async def create_workspace(request: Request, company_id: uuid.UUID, body: WorkspaceCreate) -> Workspace:
    caller = await principal(request)
    async with unit_of_work():
        workspace = await workspaces.create_workspace(principal=caller, company_id=company_id, name=body.name,
                                                      network_type=body.network_type, owner_email=body.owner_email)
    return Workspace.of(workspace)
