"""The gas station: /api/v1/gas_station... and /api/v1/vault/accounts/{vid}/autofuel/... (bearer
token and X-Workspace-Id).

Reads need VIEW_WORKSPACE, changes EDIT_WORKSPACE (spec). Rules and choices: docs/gas-station.md;
the services are domain.gas_station.configuration.
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.gas_station import AssetConfiguration, AssetConfigurationUpdate, Autofuel, GasStation, GasStationState
from core.unit_of_work import unit_of_work
from domain.gas_station import configuration

bp = Blueprint("gas_station", url_prefix="/api/v1")

_TAG = "gas station"
_VAULT_NOT_FOUND = {404: ["VAULT_NOT_FOUND"]}


@bp.post("/gas_station/vault/<vault_id:uuid>")
@endpoint(summary="Assign a vault as the workspace's gas station (EDIT_WORKSPACE); configurations are created "
                  "from the defaults for each base asset it holds", tag=_TAG, responses={200: GasStation},
          workspace=True, errors=_VAULT_NOT_FOUND)
async def assign_gas_station(request: Request, vault_id: uuid.UUID) -> GasStation:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await configuration.assign_station(principal=caller, workspace_id=ws.id, vault_id=vault_id)
    return GasStation.of(view)


async def _autofuel(request: Request, vault_id: uuid.UUID, *, enabled: bool) -> Autofuel:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await configuration.set_autofuel(principal=caller, workspace_id=ws.id, vault_id=vault_id,
                                                enabled=enabled)
    return Autofuel(vault_id=view.vault_id, autofuel=view.enabled)


@bp.post("/vault/accounts/<vault_id:uuid>/autofuel/activate")
@endpoint(summary="Turn a vault's autofuel on (EDIT_WORKSPACE); never on the station's own vault", tag=_TAG,
          responses={200: Autofuel}, workspace=True,
          errors={404: ["VAULT_NOT_FOUND", "GAS_STATION_NOT_FOUND"], 409: ["GAS_STATION_CANNOT_ASSIGN_SELF"]})
async def activate_autofuel(request: Request, vault_id: uuid.UUID) -> Autofuel:
    return await _autofuel(request, vault_id, enabled=True)


@bp.post("/vault/accounts/<vault_id:uuid>/autofuel/deactivate")
@endpoint(summary="Turn a vault's autofuel off (EDIT_WORKSPACE)", tag=_TAG, responses={200: Autofuel},
          workspace=True, errors=_VAULT_NOT_FOUND)
async def deactivate_autofuel(request: Request, vault_id: uuid.UUID) -> Autofuel:
    return await _autofuel(request, vault_id, enabled=False)


@bp.put("/gas_station/configuration/currency/<currency_id:str>")
@endpoint(summary="Change the station's configuration of one base asset (EDIT_WORKSPACE); omitted fields stay",
          tag=_TAG, body=AssetConfigurationUpdate, responses={200: AssetConfiguration}, workspace=True,
          errors={400: ["INVALID_AMOUNT", "GAS_STATION_INVALID_LIMITS", "GAS_STATION_NETWORK_MISMATCH",
                        "GAS_STATION_UNSUPPORTED_CURRENCY"],
                  404: ["CURRENCY_NOT_FOUND", "GAS_STATION_NOT_FOUND"]})
async def update_gas_station_asset(request: Request, currency_id: str,
                                   body: AssetConfigurationUpdate) -> AssetConfiguration:
    caller, ws = await workspace(request)
    async with unit_of_work():
        row = await configuration.update_asset(principal=caller, workspace_id=ws.id, currency_id=currency_id,
                                               change=body.as_domain())
    return AssetConfiguration.of(row)


@bp.get("/gas_station")
@endpoint(summary="The workspace's gas station (VIEW_WORKSPACE); configured false when none is assigned",
          tag=_TAG, responses={200: GasStationState}, workspace=True)
async def get_gas_station(request: Request) -> GasStationState:
    caller, ws = await workspace(request)
    view = await configuration.get_station(principal=caller, workspace_id=ws.id)
    if view is None:
        return GasStationState(configured=False)
    return GasStationState(configured=True, gas_station=GasStation.of(view))


@bp.get("/gas_station/<currency_id:str>")
@endpoint(summary="The station's configuration of one base asset (VIEW_WORKSPACE)", tag=_TAG,
          responses={200: AssetConfiguration}, workspace=True,
          errors={404: ["CURRENCY_NOT_FOUND", "GAS_STATION_NOT_FOUND"]})
async def get_gas_station_asset(request: Request, currency_id: str) -> AssetConfiguration:
    caller, ws = await workspace(request)
    row = await configuration.get_asset(principal=caller, workspace_id=ws.id, currency_id=currency_id)
    return AssetConfiguration.of(row)
