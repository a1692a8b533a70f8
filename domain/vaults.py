"""Vaults: groups of wallets that share one threshold key set.

Creating a vault starts the distributed key generation of its FROST(Ed25519) key set in the
same unit of work (domain.signing.keys); wallets can be opened once that key set is ready. Freezing a
vault stops outgoing activity (signing refuses a frozen vault, no new wallets are opened);
deposits to its addresses are still credited, since the chain does not ask.

Every query is scoped by workspace: a vault of another workspace answers exactly like a
missing one (404 VAULT_NOT_FOUND).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Sequence

from core.settings import get_settings
from domain import audit, tags
from domain.auth import Principal
from domain.currencies import registry
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.permissions import Permission
from domain.signing import keys
from models.keys import KeySet
from models.tags import Tag
from models.vaults import Vault
from models.workspaces import Workspace
from threshold.scheme import ECDSA_SCHEME, TAPROOT_SCHEME


@dataclass(frozen=True)
class VaultView:
    vault: Vault
    key_set: KeySet | None
    #: The tags the vault carries, in label order.
    tags: Sequence[Tag] = ()
    #: The newest key set of every scheme (FROST(Ed25519), the vault's ``key_set``, first).
    key_sets: Sequence[KeySet] = ()


def _newest_per_scheme(key_sets: Sequence[KeySet]) -> list[KeySet]:
    """The current key set of each scheme (the live one, else the newest), Ed25519 first
    (``key_sets`` oldest first)."""
    newest: dict[str, KeySet] = {}
    for key_set in key_sets:
        current = newest.get(key_set.scheme)
        if current is None or key_set.status != "failed" or current.status == "failed":
            newest[key_set.scheme] = key_set
    return sorted(newest.values(), key=lambda k: (k.scheme != keys.ED25519_SCHEME, k.scheme))


def _require(principal: Principal | None, workspace_id: uuid.UUID, permission: Permission) -> None:
    if principal is not None:
        principal.require(workspace_id, permission)


async def get_vault(*, workspace_id: uuid.UUID, vault_id: uuid.UUID, lock: bool = False) -> Vault:
    """The vault of this workspace (locked FOR NO KEY UPDATE when ``lock``); 404 otherwise."""
    query = Vault.filter(id=vault_id, workspace_id=workspace_id)
    if lock:
        query = query.select_for_update(no_key=True)
    vault = await query.first()
    if vault is None:
        raise NotFound("vault not found", code="VAULT_NOT_FOUND", details={"vault_id": str(vault_id)})
    return vault


async def _key_set(vault: Vault) -> KeySet | None:
    try:
        return await keys.get_key_set(vault_id=vault.id, workspace_id=vault.workspace_id)
    except NotFound:
        return None


async def _view(vault: Vault) -> VaultView:
    every = _newest_per_scheme(await KeySet.filter(vault_id=vault.id).order_by("created_at", "id"))
    return VaultView(vault, await _key_set(vault), (await tags.tags_by_vault([vault.id])).get(vault.id, ()), every)


async def create_vault(*, principal: Principal | None, workspace_id: uuid.UUID, name: str) -> VaultView:
    """Create a vault and request its key set's generation (one unit of work).

    409 VAULT_LIMIT_REACHED at MAX_VAULTS_PER_WORKSPACE vaults, 409 KEY_GENERATION_LIMIT_REACHED
    at MAX_KEY_GENERATIONS_IN_PROGRESS generations running; nothing is created then."""
    _require(principal, workspace_id, Permission.EDIT_WORKSPACE)
    actor_id = principal.user.id if principal else None
    # Serialize the workspace's vault creations so that the cap holds under concurrency.
    await Workspace.filter(id=workspace_id).select_for_update(no_key=True).first()
    limit = get_settings().max_vaults_per_workspace
    if await Vault.filter(workspace_id=workspace_id).count() >= limit:
        raise Conflict(f"the workspace has reached its limit of {limit} vaults", code="VAULT_LIMIT_REACHED",
                       details={"limit": limit})
    vault = await Vault.create(workspace_id=workspace_id, name=name)
    # One key set per scheme the workspace's networks sign with: FROST(Ed25519) (the vault's key
    # in the API) first, then e.g. the Taproot key of Bitcoin networks, all by the same DKG.
    workspace = await Workspace.get(id=workspace_id)
    networks = {c.network.id for c in registry().of_network_type(workspace.network_type)}
    key_sets = [await keys.request_key_generation(vault=vault, actor_id=actor_id, scheme=scheme)
                for scheme in keys.schemes_for(networks)]
    key_set = key_sets[0]
    await audit.record(action="vault.created", object_type="vault", object_id=vault.id, actor_id=actor_id,
                       workspace_id=workspace_id, details={"name": name, "key_set_id": str(key_set.id),
                                                           "key_set_ids": {k.scheme: str(k.id) for k in key_sets}})
    return VaultView(vault, key_set, (), key_sets)


async def view_vault(*, principal: Principal | None, workspace_id: uuid.UUID, vault_id: uuid.UUID) -> VaultView:
    _require(principal, workspace_id, Permission.VIEW_WORKSPACE)
    vault = await get_vault(workspace_id=workspace_id, vault_id=vault_id)
    return await _view(vault)


async def list_vaults(
    *, principal: Principal | None, workspace_id: uuid.UUID, limit: int, offset: int,
    tag_ids: Sequence[uuid.UUID] | None = None, tag_match_mode: str | None = None,
) -> tuple[list[VaultView], int]:
    """One page of the workspace's vaults, oldest first, each with its tags; with ``tag_ids``
    only those carrying any of them (``tag_match_mode`` ``any``, the default) or all of them."""
    _require(principal, workspace_id, Permission.VIEW_WORKSPACE)
    query = tags.vaults_tagged(Vault.filter(workspace_id=workspace_id), tag_ids=tag_ids, match_mode=tag_match_mode)
    total = await query.count()
    vaults = await query.order_by("created_at", "id").offset(offset).limit(limit)
    latest: dict[uuid.UUID, KeySet] = {}
    every: dict[uuid.UUID, list[KeySet]] = {}
    for key_set in await KeySet.filter(vault_id__in=[v.id for v in vaults]).order_by("created_at", "id"):
        every.setdefault(key_set.vault_id, []).append(key_set)
        if key_set.scheme == keys.ED25519_SCHEME:
            latest[key_set.vault_id] = key_set  # newest wins
    carried = await tags.tags_by_vault([v.id for v in vaults])
    return [VaultView(v, latest.get(v.id), carried.get(v.id, ()), _newest_per_scheme(every.get(v.id, [])))
            for v in vaults], total


async def rename_vault(*, principal: Principal | None, workspace_id: uuid.UUID, vault_id: uuid.UUID,
                       name: str) -> VaultView:
    _require(principal, workspace_id, Permission.EDIT_WORKSPACE)
    vault = await get_vault(workspace_id=workspace_id, vault_id=vault_id, lock=True)
    previous = vault.name
    if previous != name:
        vault.name = name
        await vault.save(update_fields=["name"])
        await audit.record(action="vault.renamed", object_type="vault", object_id=vault.id,
                           actor_id=principal.user.id if principal else None, workspace_id=workspace_id,
                           details={"from": previous, "to": name})
    return await _view(vault)


async def set_frozen(*, principal: Principal | None, workspace_id: uuid.UUID, vault_id: uuid.UUID,
                     frozen: bool) -> VaultView:
    """Freeze or unfreeze; repeating the current state changes nothing and records nothing."""
    _require(principal, workspace_id, Permission.EDIT_WORKSPACE)
    vault = await get_vault(workspace_id=workspace_id, vault_id=vault_id, lock=True)
    if vault.is_frozen != frozen:
        vault.is_frozen = frozen
        await vault.save(update_fields=["is_frozen"])
        await audit.record(action="vault.frozen" if frozen else "vault.unfrozen", object_type="vault",
                           object_id=vault.id, actor_id=principal.user.id if principal else None,
                           workspace_id=workspace_id)
    return await _view(vault)


#: The schemes a vault's key set can be requested for (the networks' key schemes).
REQUESTABLE_SCHEMES = (keys.ED25519_SCHEME, TAPROOT_SCHEME, ECDSA_SCHEME)


async def request_key_set(*, principal: Principal | None, workspace_id: uuid.UUID, vault_id: uuid.UUID,
                          scheme: str) -> VaultView:
    """Start the generation of the vault's key set of ``scheme`` (POST .../key-sets): for a vault
    created before its workspace's networks needed that scheme (a Taproot key set once Bitcoin
    is enabled), or again after a key generation failed. 409 KEY_SET_EXISTS while the vault has
    one of that scheme that is not failed; 409 VAULT_FROZEN for a frozen vault."""
    _require(principal, workspace_id, Permission.EDIT_WORKSPACE)
    if scheme not in REQUESTABLE_SCHEMES:
        raise ValidationFailed(f"scheme must be one of {', '.join(REQUESTABLE_SCHEMES)}", code="VALIDATION_ERROR",
                               details={"field": "scheme"})
    vault = await get_vault(workspace_id=workspace_id, vault_id=vault_id, lock=True)
    if vault.is_frozen:
        raise Conflict("the vault is frozen", code="VAULT_FROZEN", details={"vault_id": str(vault.id)})
    await keys.request_key_generation(vault=vault, actor_id=principal.user.id if principal else None, scheme=scheme)
    return await _view(vault)
