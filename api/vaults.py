"""Vaults: /api/v1/vault/accounts (create, list, read, rename, freeze, unfreeze) and /api/v1/vault.

A vault's key sets are generated when the vault is created (``key_sets``: FROST(Ed25519), plus a
Taproot one when the workspace's networks include Bitcoin); ``status`` turns ``ready`` once the
distributed key generation finished, and wallets of that key's networks can be opened from then
on. POST .../key-sets generates one for a vault that lacks it, or again after a failure.
Every answer carries the vault's tags. GET /api/v1/vault is the spec's path of the list, with
the tag filter; GET /api/v1/vault/accounts is the same list (same query, same answer).
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.vaults import KeySetRequest, Vault, VaultCreate, VaultList, VaultListQuery, VaultRename
from core.unit_of_work import unit_of_work
from domain import vaults

bp = Blueprint("vaults", url_prefix="/api/v1/vault/accounts")
#: GET /api/v1/vault (the spec's path of the vault list).
listing = Blueprint("vault_list", url_prefix="/api/v1/vault")

_NOT_FOUND = {404: ["VAULT_NOT_FOUND"]}


@bp.post("")
@endpoint(summary="Create a vault; its key set's generation starts at once (EDIT_WORKSPACE)", tag="vaults",
          body=VaultCreate, responses={201: Vault}, workspace=True,
          errors={409: ["VAULT_LIMIT_REACHED", "KEY_GENERATION_LIMIT_REACHED"]})
async def create_vault(request: Request, body: VaultCreate) -> Vault:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await vaults.create_vault(principal=caller, workspace_id=ws.id, name=body.name)
    return Vault.of(view)


async def _vault_list(request: Request, query: VaultListQuery) -> VaultList:
    caller, ws = await workspace(request)
    items, total = await vaults.list_vaults(principal=caller, workspace_id=ws.id, limit=query.limit,
                                            offset=query.offset, tag_ids=query.tag_ids,
                                            tag_match_mode=query.tag_match_mode)
    return VaultList(accounts=[Vault.of(i) for i in items], offset=query.offset, total=total)


@bp.get("")
@endpoint(summary="Vaults of the workspace, oldest first, with their tags (VIEW_WORKSPACE); same as GET /vault",
          tag="vaults", query=VaultListQuery, responses={200: VaultList}, workspace=True)
async def list_vaults(request: Request, query: VaultListQuery) -> VaultList:
    return await _vault_list(request, query)


@listing.get("")
@endpoint(summary="Vaults (accounts) of the workspace with their tags, filtered by tags (VIEW_WORKSPACE)",
          tag="vaults", query=VaultListQuery, responses={200: VaultList}, workspace=True)
async def list_accounts(request: Request, query: VaultListQuery) -> VaultList:
    return await _vault_list(request, query)


@bp.get("/<vault_id:uuid>")
@endpoint(summary="One vault with its key set status", tag="vaults", responses={200: Vault}, workspace=True,
          errors=_NOT_FOUND)
async def get_vault(request: Request, vault_id: uuid.UUID) -> Vault:
    caller, ws = await workspace(request)
    return Vault.of(await vaults.view_vault(principal=caller, workspace_id=ws.id, vault_id=vault_id))


@bp.post("/<vault_id:uuid>/key-sets")
@endpoint(summary="Generate the vault's key set of another scheme, or again after a failure (EDIT_WORKSPACE)",
          tag="vaults", body=KeySetRequest, responses={201: Vault}, workspace=True,
          errors={**_NOT_FOUND, 409: ["KEY_SET_EXISTS", "KEY_GENERATION_LIMIT_REACHED", "VAULT_FROZEN"]})
async def request_key_set(request: Request, vault_id: uuid.UUID, body: KeySetRequest) -> Vault:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await vaults.request_key_set(principal=caller, workspace_id=ws.id, vault_id=vault_id,
                                            scheme=body.scheme)
    return Vault.of(view)


@bp.patch("/<vault_id:uuid>")
@endpoint(summary="Rename a vault (EDIT_WORKSPACE)", tag="vaults", body=VaultRename, responses={200: Vault},
          workspace=True, errors=_NOT_FOUND)
async def rename_vault(request: Request, vault_id: uuid.UUID, body: VaultRename) -> Vault:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await vaults.rename_vault(principal=caller, workspace_id=ws.id, vault_id=vault_id, name=body.name)
    return Vault.of(view)


@bp.post("/<vault_id:uuid>/freeze")
@endpoint(summary="Freeze a vault: no signing, no new wallets; deposits are still credited (EDIT_WORKSPACE)",
          tag="vaults", responses={200: Vault}, workspace=True, errors=_NOT_FOUND)
async def freeze_vault(request: Request, vault_id: uuid.UUID) -> Vault:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await vaults.set_frozen(principal=caller, workspace_id=ws.id, vault_id=vault_id, frozen=True)
    return Vault.of(view)


@bp.post("/<vault_id:uuid>/unfreeze")
@endpoint(summary="Unfreeze a vault (EDIT_WORKSPACE)", tag="vaults", responses={200: Vault}, workspace=True,
          errors=_NOT_FOUND)
async def unfreeze_vault(request: Request, vault_id: uuid.UUID) -> Vault:
    caller, ws = await workspace(request)
    async with unit_of_work():
        view = await vaults.set_frozen(principal=caller, workspace_id=ws.id, vault_id=vault_id, frozen=False)
    return Vault.of(view)
