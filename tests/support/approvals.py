"""Change approval scenes: a workspace with an owner person, people with paired devices, rules.

People authenticate only through their paired device (a device token); API users with their key.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from nacl.signing import SigningKey

from core.unit_of_work import unit_of_work
from domain import auth, devices, users
from domain.change_approvals import rules
from tests.support.callers import Caller, make_caller, make_workspace


class DeviceCaller(Caller):
    """A person's paired device: signs token requests as ``client_type`` device."""

    def __init__(self, *, device_id: str, person_id: str, signing_key: SigningKey, workspace_id: str) -> None:
        super().__init__(user_id=device_id, signing_key=signing_key, workspace_id=workspace_id)
        self.device_id = device_id
        self.person_id = person_id

    async def login(self) -> str:
        async with unit_of_work():
            issued = await auth.issue_access_token(**self.signed_request(client_type="device"))
        self.token = issued.access_token
        return self.token


async def make_person(*, workspace_id: str, role: str, email: str | None = None) -> DeviceCaller:
    """A person with ``role`` and an active paired device, logged in on it."""
    key = SigningKey.generate()
    async with unit_of_work():
        member = await users.add_person(workspace_id=uuid.UUID(workspace_id), role=role,
                                        email=email or f"{role.lower()}-{uuid.uuid4().hex[:8]}@acme.test",
                                        first_name=role.title(), last_name="Person")
        pairing = await devices.start_pairing(workspace_id=uuid.UUID(workspace_id), user_id=member.user.id)
        device = await devices.register(pairing_token=pairing.pairing_token, public_key=bytes(key.verify_key),
                                        name=f"{role} phone")
        device.status = "active"
        await device.save(update_fields=["status"])
    caller = DeviceCaller(device_id=str(device.id), person_id=str(member.user.id), signing_key=key,
                          workspace_id=workspace_id)
    await caller.login()
    return caller


@dataclass
class Scene:
    workspace_id: str
    owner: DeviceCaller
    admin_api: Caller
    admins: list[DeviceCaller]

    def path(self, rest: str = "") -> str:
        return f"/api/v2/admin/tenants/{self.workspace_id}{rest}"


async def make_scene(*, admins: int = 2) -> Scene:
    """A workspace with an OWNER person, ``admins`` ADMIN people and an ADMIN API user."""
    workspace = await make_workspace()
    ws = str(workspace.id)
    owner = await make_person(workspace_id=ws, role="OWNER")
    people = [await make_person(workspace_id=ws, role="ADMIN") for _ in range(admins)]
    admin_api = await make_caller(role="ADMIN", workspace_id=ws)
    return Scene(workspace_id=ws, owner=owner, admin_api=admin_api, admins=people)


async def set_rule(workspace_id: str, action: str, *, mode: str = "QUORUM_APPROVAL_MODE_OWNER_ONLY",
                   enabled: bool = True, group_id: str | None = None, owner_confirmation: bool = False) -> None:
    """Switch a rule as the operator would (no principal: applied at once, checked like any change)."""
    async with unit_of_work():
        await rules.put_action(principal=None, workspace_id=uuid.UUID(workspace_id), action_key=action,
                               enabled=enabled, mode=mode, group_id=uuid.UUID(group_id) if group_id else None,
                               owner_confirmation=owner_confirmation)
