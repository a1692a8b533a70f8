"""Vaults: /api/v1/vault/accounts (create, list, read, rename, freeze, unfreeze).

A vault's key set is generated when the vault is created; ``key_set.status`` turns ``ready``
once the distributed key generation finished, and wallets can be opened from then on.
"""

from __future__ import annotations

import uuid
from typing import Any

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api.context import iso, json_body, workspace
from core.unit_of_work import unit_of_work
from domain import validation as v
from domain import vaults
from domain.signing import keys
from domain.vaults import VaultView

bp = Blueprint("vaults", url_prefix="/api/v1/vault/accounts")


def serialize(view: VaultView) -> dict[str, Any]:
    vault, key_set = view.vault, view.key_set
    return {
        "id": str(vault.id),
        "workspace_id": str(vault.workspace_id),  # type: ignore[attr-defined]
        "name": vault.name,
        "is_frozen": vault.is_frozen,
        "key_set": None if key_set is None else {
            "id": str(key_set.id),
            "status": key_set.status,
            "scheme": key_set.scheme,
            "group_public_key": keys.master_xpub(key_set.group_public_key) if key_set.group_public_key else None,
        },
        "created_at": iso(vault.created_at),
        "updated_at": iso(vault.updated_at),
    }


def _name(body: dict) -> str:
    name = v.string(body, "name", max_len=100)
    assert name is not None
    return name


@bp.post("")
@openapi.summary("Create a vault; its key set's generation starts at once (EDIT_WORKSPACE)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"name": str}})
async def create_vault(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    name = _name(json_body(request))
    async with unit_of_work():
        view = await vaults.create_vault(principal=caller, workspace_id=ws.id, name=name)
    return json(serialize(view), status=201)


@bp.get("")
@openapi.summary("Vaults of the workspace (limit default 100, max 1000; offset)")
@openapi.secured("BearerAuth")
async def list_vaults(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    limit, offset = v.page(request.args, default_limit=100, max_limit=1000)
    items, total = await vaults.list_vaults(principal=caller, workspace_id=ws.id, limit=limit, offset=offset)
    return json({"accounts": [serialize(i) for i in items], "offset": offset, "total": total})


@bp.get("/<vault_id:uuid>")
@openapi.summary("One vault with its key set status")
@openapi.secured("BearerAuth")
async def get_vault(request: Request, vault_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    return json(serialize(await vaults.view_vault(principal=caller, workspace_id=ws.id, vault_id=vault_id)))


@bp.patch("/<vault_id:uuid>")
@openapi.summary("Rename a vault (EDIT_WORKSPACE)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"name": str}})
async def rename_vault(request: Request, vault_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    name = _name(json_body(request))
    async with unit_of_work():
        view = await vaults.rename_vault(principal=caller, workspace_id=ws.id, vault_id=vault_id, name=name)
    return json(serialize(view))


@bp.post("/<vault_id:uuid>/freeze")
@openapi.summary("Freeze a vault: no signing, no new wallets; deposits are still credited (EDIT_WORKSPACE)")
@openapi.secured("BearerAuth")
async def freeze_vault(request: Request, vault_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await vaults.set_frozen(principal=caller, workspace_id=ws.id, vault_id=vault_id, frozen=True)
    return json(serialize(view))


@bp.post("/<vault_id:uuid>/unfreeze")
@openapi.summary("Unfreeze a vault (EDIT_WORKSPACE)")
@openapi.secured("BearerAuth")
async def unfreeze_vault(request: Request, vault_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await vaults.set_frozen(principal=caller, workspace_id=ws.id, vault_id=vault_id, frozen=False)
    return json(serialize(view))
