"""AML screening: the workspace's screener settings (/api/v1/aml/settings), screening records
(/api/v1/aml/screenings) and the release of a deposit AML froze (/api/v1/transactions/{id}/release).

Settings change with EDIT_WORKSPACE and read with VIEW_WORKSPACE (like the whitelist settings);
records read with VIEW_WORKSPACE; a release needs APPROVE_TRANSACTION (like unfreeze). docs/aml.md.
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.aml import (
    AmlScreening,
    AmlScreeningPage,
    AmlScreeningQuery,
    AmlSettings,
    AmlSettingsUpdate,
    ReleaseRequest,
)
from api.schemas.transactions import Transaction
from core.unit_of_work import unit_of_work
from domain.aml import screening
from domain.aml import settings as aml_settings

bp = Blueprint("aml", url_prefix="/api/v1")


@bp.get("/aml/settings")
@endpoint(summary="The workspace's AML screening settings (screening is off until enabled)", tag="aml",
          responses={200: AmlSettings}, workspace=True)
async def get_aml_settings(request: Request) -> AmlSettings:
    caller, ws = await workspace(request)
    return AmlSettings.of(await aml_settings.get_settings(principal=caller, workspace_id=ws.id))


@bp.put("/aml/settings")
@endpoint(summary="Replace the workspace's AML screening settings (EDIT_WORKSPACE)", tag="aml",
          description="The built-in screener's address lists, risk categories and thresholds. Addresses are "
                      "validated and normalized for their network; an address is on at most one list. Applies to "
                      "transfers screened afterwards.",
          body=AmlSettingsUpdate, responses={200: AmlSettings}, workspace=True,
          errors={400: ["INVALID_ADDRESS", "NETWORK_NOT_FOUND", "AML_UNKNOWN_CATEGORY", "AML_PROVIDER_UNKNOWN"]})
async def put_aml_settings(request: Request, body: AmlSettingsUpdate) -> AmlSettings:
    caller, ws = await workspace(request)
    async with unit_of_work():
        current = await aml_settings.set_settings(principal=caller, workspace=ws, enabled=body.enabled,
                                                  provider=body.provider, config=body.config())
    return AmlSettings.of(current)


@bp.get("/aml/screenings")
@endpoint(summary="AML screenings of the workspace's transfers, newest first", tag="aml",
          query=AmlScreeningQuery, responses={200: AmlScreeningPage}, workspace=True)
async def list_aml_screenings(request: Request, query: AmlScreeningQuery) -> AmlScreeningPage:
    caller, ws = await workspace(request)
    items, total = await screening.list_screenings(
        principal=caller, workspace_id=ws.id, direction=query.direction, risk_level=query.risk_level,
        status=query.status, transaction_id=query.transaction_id, funds_frozen=query.funds_frozen,
        limit=query.limit, offset=query.offset)
    return AmlScreeningPage(items=[AmlScreening.of(i) for i in items], total=total, limit=query.limit,
                            offset=query.offset)


@bp.get("/aml/screenings/<screening_id:uuid>")
@endpoint(summary="One AML screening", tag="aml", responses={200: AmlScreening}, workspace=True,
          errors={404: ["AML_SCREENING_NOT_FOUND"]})
async def get_aml_screening(request: Request, screening_id: uuid.UUID) -> AmlScreening:
    caller, ws = await workspace(request)
    return AmlScreening.of(await screening.get_screening(principal=caller, workspace_id=ws.id,
                                                         screening_id=screening_id))


@bp.post("/transactions/<transaction_id:uuid>/release")
@endpoint(summary="Release a deposit frozen by AML screening (APPROVE_TRANSACTION): its amount becomes available",
          description="The deposit's amount moves from the wallet's frozen part to available; the deposit is "
                      "written again (new balance_version and change-log position, transaction.updated) and "
                      "aml.released is sent. A withdrawal frozen by AML is released with .../unfreeze.",
          tag="aml", body=ReleaseRequest, responses={200: Transaction}, workspace=True,
          errors={404: ["TRANSACTION_NOT_FOUND"], 409: ["TRANSACTION_NOT_FROZEN"]})
async def release_transaction(request: Request, transaction_id: uuid.UUID, body: ReleaseRequest) -> Transaction:
    caller, ws = await workspace(request)
    async with unit_of_work():
        tx = await screening.release_deposit(principal=caller, workspace_id=ws.id, transaction_id=transaction_id,
                                             reason=body.reason)
    return Transaction.of(tx)
