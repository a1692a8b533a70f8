"""Every gated action, registered with the engine (loaded by ``registry.ensure_loaded``).

Each registration names the action's key and operations, builds the display snapshot captured
at creation (spec "Display fields by action and operation"), and applies an approved payload by
calling the same service the direct path calls, while ``registry.applying`` is set (the gate
lets it through; the services are strict where the state table says FAILED: a user already in
the role or group, an address already whitelisted, no tag pair valid any more).

**Policies** (update, rollback) apply through the policy service (``domain.policies.service``:
``validate_change`` refuses a request whose policy was published again meanwhile, ``apply_change``
publishes); the payload is what that service passed to ``gate``.
"""

from __future__ import annotations

import base64
import uuid
from typing import Any, Mapping

from domain import groups, tags, users, whitelist
from domain.auth import Principal
from domain.change_approvals import rules
from domain.change_approvals.registry import (
    ADD_WHITELIST_ADDRESS,
    MANAGE_APPROVALS,
    MANAGE_GROUPS,
    MANAGE_POLICIES,
    MANAGE_TAGS,
    MANAGE_USERS,
    ONE_TIME_ADDRESS_TRANSFERS,
    OWNER_ONLY,
    Apply,
    GatedAction,
    Validate,
    register,
)
from domain.currencies import currency_for_workspace
from domain.errors import ValidationFailed
from domain.policies import service as policy_service
from models.groups import Group
from models.tags import Tag
from models.users import User, WorkspaceMember
from models.vaults import Vault
from models.workspaces import Workspace

Payload = Mapping[str, Any]
#: How many members a group change's display names (the payload keeps them all).
DISPLAY_USERS = 10


def participant(user: User) -> dict[str, Any]:
    """The spec's participant: user_uuid, user_type, email, first_name, last_name, api_user_name."""
    return {"user_uuid": str(user.id), "user_type": user.user_type, "email": user.email,
            "first_name": user.first_name, "last_name": user.last_name, "api_user_name": user.api_user_name}


def _op(payload: Payload) -> str | None:
    return payload.get("operation")


# --- Manage users ----------------------------------------------------------------------------------


async def _users_display(*, workspace_id: uuid.UUID, payload: Payload) -> dict[str, Any] | None:
    if _op(payload) not in ("role_change", "delete"):
        return None
    member = await WorkspaceMember.get_or_none(workspace_id=workspace_id, user_id=payload["user_uuid"]) \
        .prefetch_related("user")
    if member is None:
        return None
    return {"user": participant(member.user), "current_role": member.role}


async def _users_apply(*, workspace_id: uuid.UUID, payload: Payload, principal: Principal | None) -> None:
    op = _op(payload)
    if op == "create":
        await users.invite(principal=principal, workspace_id=workspace_id, email=payload["email"],
                           role=payload["role"], first_name=payload.get("first_name"),
                           last_name=payload.get("last_name"))
    elif op == "api_user_create":
        await users.create_api_user(principal=principal, workspace_id=workspace_id, name=payload["name"],
                                    role=payload["role"], public_key=base64.b64decode(payload["public_key"]))
    elif op == "role_change":
        await users.change_role(principal=principal, workspace_id=workspace_id,  # type: ignore[arg-type]
                                user_id=uuid.UUID(payload["user_uuid"]), role=payload["role"])
    elif op == "delete":
        await users.remove_user(principal=principal, workspace_id=workspace_id,  # type: ignore[arg-type]
                                user_id=uuid.UUID(payload["user_uuid"]))
    else:
        raise ValidationFailed(f"unknown operation {op!r}")


# --- Manage groups ---------------------------------------------------------------------------------


async def _groups_display(*, workspace_id: uuid.UUID, payload: Payload) -> dict[str, Any] | None:
    op = _op(payload)
    if op not in ("update", "delete", "add_members", "remove_members"):
        return None
    group = await Group.get_or_none(id=payload["group_uuid"], workspace_id=workspace_id)
    display: dict[str, Any] = {"group_name": group.name if group else None}
    if op in ("add_members", "remove_members"):
        ids = payload["user_uuids"][:DISPLAY_USERS]
        found = {str(u.id): u for u in await User.filter(id__in=ids)}
        display["users"] = [participant(found[i]) for i in ids if i in found]
    return display


async def _groups_apply(*, workspace_id: uuid.UUID, payload: Payload, principal: Principal | None) -> None:
    op = _op(payload)
    if op == "create":
        await groups.create_group(principal=principal, workspace_id=workspace_id, name=payload["name"],
                                  threshold=payload["threshold"],
                                  member_ids=[uuid.UUID(u) for u in payload["user_uuids"]])
        return
    group_id = uuid.UUID(payload["group_uuid"])
    if op == "update":
        await groups.update_group(principal=principal, workspace_id=workspace_id, group_id=group_id,
                                  name=payload.get("name"), threshold=payload.get("threshold"))
    elif op == "delete":
        await groups.delete_group(principal=principal, workspace_id=workspace_id, group_id=group_id)
    elif op in ("add_members", "remove_members"):
        await groups.change_members(principal=principal, workspace_id=workspace_id, group_id=group_id,
                                    user_ids=[uuid.UUID(u) for u in payload["user_uuids"]],
                                    add=op == "add_members")
    else:
        raise ValidationFailed(f"unknown operation {op!r}")


# --- Manage approvals ------------------------------------------------------------------------------


async def _approvals_display(*, workspace_id: uuid.UUID, payload: Payload) -> dict[str, Any] | None:
    if _op(payload) != "action_setting":
        return None
    from domain.change_approvals import registry

    entry = registry.get(payload["action_key"])
    group = await Group.get_or_none(id=payload["group_id"]) if payload.get("group_id") else None
    return {"action_display_name": entry.display_name if entry else payload["action_key"],
            "group_name": group.name if group else None}


async def _approvals_validate(*, workspace_id: uuid.UUID, payload: Payload, principal: Principal | None) -> None:
    if principal is not None:
        rules._settings_access(principal, workspace_id)  # noqa: SLF001 - the initiator's rights now
    if _op(payload) == "threshold":
        await rules.check_threshold(workspace_id=workspace_id, threshold=payload["threshold"])
    else:
        await rules.check_action_setting(workspace_id=workspace_id, payload=payload)


async def _approvals_apply(*, workspace_id: uuid.UUID, payload: Payload, principal: Principal | None) -> None:
    actor = principal.user.id if principal else None
    if _op(payload) == "threshold":
        await rules.apply_threshold(workspace_id=workspace_id, threshold=payload["threshold"], actor_id=actor)
    else:
        await rules.apply_action_setting(workspace_id=workspace_id, payload=payload, actor_id=actor)


# --- whitelist and the one-time setting ------------------------------------------------------------


async def _whitelist_display(*, workspace_id: uuid.UUID, payload: Payload) -> dict[str, Any] | None:
    workspace = await Workspace.get(id=workspace_id)
    currency = currency_for_workspace(currency_id=payload["currency_id"], network_type=workspace.network_type)
    return {"whitelisted_wallet_name": payload["name"], "currency_symbol": currency.symbol,
            "currency_descriptor": currency.descriptor, "blockchain_name": currency.network.blockchain_name}


async def _whitelist_apply(*, workspace_id: uuid.UUID, payload: Payload, principal: Principal | None) -> None:
    await whitelist.add_wallet(principal=None, workspace=await Workspace.get(id=workspace_id), name=payload["name"],
                               currency_id=payload["currency_id"], address=payload["address"])


async def _one_time_apply(*, workspace_id: uuid.UUID, payload: Payload, principal: Principal | None) -> None:
    await whitelist.set_settings(principal=None, workspace_id=workspace_id,
                                 one_time_addresses_allowed=bool(payload["one_time_addresses_allowed"]))


# --- Manage tags -------------------------------------------------------------------------------------


def _tag(tag: Tag) -> dict[str, Any]:
    return {"id": str(tag.id), "label": tag.label, "color": tag.color, "is_protected": tag.is_protected}


async def _tags_display(*, workspace_id: uuid.UUID, payload: Payload) -> dict[str, Any] | None:
    op = _op(payload)
    if op in ("update", "delete"):
        tag = await Tag.get_or_none(id=payload["tag_id"], workspace_id=workspace_id)
        return {"tag": _tag(tag) if tag else None}
    if op == "attach_detach":
        tag_ids = [*payload["tag_ids_to_attach"], *payload["tag_ids_to_detach"]]
        found_tags = {str(t.id): t for t in await Tag.filter(id__in=tag_ids, workspace_id=workspace_id)}
        found_vaults = {str(v.id): v for v in await Vault.filter(id__in=payload["vault_ids"],
                                                                   workspace_id=workspace_id)}
        return {"vaults": [{"id": i, "name": found_vaults[i].name} for i in payload["vault_ids"] if i in found_vaults],
                "tags": [{**_tag(found_tags[i]), "operation": "attach" if i in payload["tag_ids_to_attach"]
                          else "detach"} for i in tag_ids if i in found_tags]}
    return None


async def _tags_apply(*, workspace_id: uuid.UUID, payload: Payload, principal: Principal | None) -> None:
    op = _op(payload)
    if op == "create":
        await tags.create_tag(principal=None, workspace_id=workspace_id, tag=tags.NewTag.from_payload(payload))
    elif op == "update":
        await tags.update_tag(principal=None, workspace_id=workspace_id, change=tags.TagChange.from_payload(payload))
    elif op == "delete":
        await tags.delete_tag(principal=None, workspace_id=workspace_id,
                              deletion=tags.TagDeletion.from_payload(payload))
    elif op == "attach_detach":
        await tags.change_vault_tags(principal=None, workspace_id=workspace_id,
                                     change=tags.VaultTagsChange.from_payload(payload))
    else:
        raise ValidationFailed(f"unknown operation {op!r}")


# --- Manage policies (applied through domain.policies.service) -------------------------------------


async def _policies_display(*, workspace_id: uuid.UUID, payload: Payload) -> dict[str, Any] | None:
    op = _op(payload)
    if op == "update":
        return {"policy_type_name": payload.get("policy_type_name")}
    if op == "rollback":
        return {"policy_type_name": payload.get("policy_type_name"),
                "version_published_at": payload.get("version_published_at")}
    return None


def register_policies(*, apply: Apply, validate: Validate | None = None) -> None:
    """The policy service's registration point (see the module docstring)."""
    register(GatedAction(key=MANAGE_POLICIES, display_name="Manage policies", operations=("update", "rollback"),
                         display=_policies_display, validate=validate, apply=apply))


register(GatedAction(key=MANAGE_USERS, display_name="Manage users",
                     operations=("create", "api_user_create", "delete", "role_change"),
                     display=_users_display, apply=_users_apply, recheck_initiator=True))
register(GatedAction(key=MANAGE_GROUPS, display_name="Manage groups",
                     operations=("create", "update", "delete", "add_members", "remove_members"),
                     display=_groups_display, apply=_groups_apply, recheck_initiator=True))
register(GatedAction(key=MANAGE_APPROVALS, display_name="Manage approvals", operations=("threshold", "action_setting"),
                     display=_approvals_display, validate=_approvals_validate, apply=_approvals_apply,
                     recheck_initiator=True, fixed_mode=OWNER_ONLY))
register(GatedAction(key=ADD_WHITELIST_ADDRESS, display_name="Add whitelist address", operations=(),
                     display=_whitelist_display, apply=_whitelist_apply))
register(GatedAction(key=MANAGE_TAGS, display_name="Manage tags",
                     operations=("create", "update", "delete", "attach_detach"),
                     display=_tags_display, apply=_tags_apply))
register(GatedAction(key=ONE_TIME_ADDRESS_TRANSFERS, display_name="One-time address transfers", operations=(),
                     apply=_one_time_apply))
# Policies: the policy service validates again (the policy must not have changed since the request)
# and publishes; the initiator's rights are not re-checked (spec).
register_policies(apply=policy_service.apply_change, validate=policy_service.validate_change)
