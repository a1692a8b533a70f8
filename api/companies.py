"""Companies: /api/v1/company (list, create, get, application) and their workspaces."""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api.context import iso, json_body, principal
from api.workspaces import serialize as serialize_workspace
from core.unit_of_work import unit_of_work
from domain import companies, workspaces
from domain import validation as v
from models.companies import Company

bp = Blueprint("companies", url_prefix="/api/v1/company")

DEFAULT_LIMIT = 15


def serialize(company: Company) -> dict:
    return {"id": str(company.id), "name": company.name, "email": company.email, "created_at": iso(company.created_at)}


@bp.get("")
@openapi.summary("Companies visible to the caller (platform staff: all)")
@openapi.secured("BearerAuth")
@openapi.parameter("limit", int, "query")
@openapi.parameter("offset", int, "query")
async def list_companies(request: Request) -> HTTPResponse:
    caller = await principal(request)
    limit, offset = v.page(request.args, default_limit=DEFAULT_LIMIT)
    page = await companies.list_companies(principal=caller, limit=limit, offset=offset)
    return json({"companies": [serialize(c) for c in page.companies], "offset": page.offset, "total": page.total})


@bp.post("")
@openapi.summary("Create a company (PLATFORM_ADMIN)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"name": str, "email": str}})
async def create_company(request: Request) -> HTTPResponse:
    caller = await principal(request)
    body = json_body(request)
    name, email = v.string(body, "name"), v.email(body)
    async with unit_of_work():
        company = await companies.create_company(principal=caller, name=name, email=email)  # type: ignore[arg-type]
    return json(serialize(company), status=201)


@bp.post("/application")
@openapi.summary("Apply to become a client; queued for review")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"company_name": str, "country": str, "email": str, "first_name": str,
                                    "job_title": str, "last_name": str}})
async def application(request: Request) -> HTTPResponse:
    caller = await principal(request)
    body = json_body(request)
    fields = {name: v.string(body, name) for name in ("company_name", "country", "first_name", "job_title", "last_name")}
    email = v.email(body)
    async with unit_of_work():
        record = await companies.submit_application(principal=caller, email=email, **fields)  # type: ignore[arg-type]
    return json({"id": str(record.id), "status": record.status, "created_at": iso(record.created_at)}, status=202)


@bp.get("/<company_id:uuid>")
@openapi.summary("One company")
@openapi.secured("BearerAuth")
async def get_company(request: Request, company_id: uuid.UUID) -> HTTPResponse:
    caller = await principal(request)
    return json(serialize(await companies.get_company(principal=caller, company_id=company_id)))


@bp.post("/<company_id:uuid>/workspaces")
@openapi.summary("Create a workspace of the company (PLATFORM_ADMIN)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"name": str, "network_type": str}})
async def create_workspace(request: Request, company_id: uuid.UUID) -> HTTPResponse:
    caller = await principal(request)
    body = json_body(request)
    name = v.string(body, "name")
    network_type = v.choice(body, "network_type", workspaces.NETWORK_TYPES)
    async with unit_of_work():
        workspace = await workspaces.create_workspace(principal=caller, company_id=company_id, name=name,  # type: ignore[arg-type]
                                                      network_type=network_type)  # type: ignore[arg-type]
    return json(serialize_workspace(workspace), status=201)
