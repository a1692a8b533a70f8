"""Change approval scenes: a workspace with an owner person, people with paired devices, rules.

People authenticate only through their paired device (a device token); API users with their key.
Devices are paired the documented way (docs/users.md), by the same service functions the API and
``custody owner`` call; the tests of those paths go through HTTP and the command itself.
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
    """A person's paired device: signs token requests as ``client_type`` device with its own id.
    ``user_id`` and ``person_id`` are the person's id (whom the device acts for)."""

    def __init__(self, *, device_id: str, person_id: str, signing_key: SigningKey, workspace_id: str) -> None:
        super().__init__(user_id=person_id, signing_key=signing_key, workspace_id=workspace_id)
        self.device_id = device_id
        self.person_id = person_id

    def signed_request(self, *, timestamp: int | None = None, nonce: str | None = None,
                       client_type: str = "device", client_id: str | None = None) -> dict[str, str]:
        return super().signed_request(timestamp=timestamp, nonce=nonce, client_type=client_type,
                                      client_id=client_id or self.device_id)

    async def login(self) -> str:
        async with unit_of_work():
            issued = await auth.issue_access_token(**self.signed_request())
        self.token = issued.access_token
        return self.token


#: The owner's device of each workspace made here: it confirms the devices of the people paired after it.
_owners: dict[str, DeviceCaller] = {}


async def make_owner(*, workspace_id: str | None = None, email: str | None = None,
                     platform_admin: bool = False) -> DeviceCaller:
    """The workspace's OWNER, a person, with a device paired the documented way, in process: the
    operator's enrollment (custody owner enroll), the device registers its key with the secret,
    the operator confirms the fingerprint (custody owner confirm-device). In a new workspace
    unless one is given (which must have no owner yet); ``platform_admin`` makes the person platform
    staff too."""
    workspace_id = workspace_id or str((await make_workspace()).id)
    key = SigningKey.generate()
    async with unit_of_work():
        member = await users.add_person(workspace_id=uuid.UUID(workspace_id), role="OWNER",
                                        email=email or f"owner-{uuid.uuid4().hex[:8]}@acme.test",
                                        first_name="Owner", last_name="Person",
                                        platform_role="PLATFORM_ADMIN" if platform_admin else None)
        enrollment = await devices.start_owner_enrollment(workspace_id=uuid.UUID(workspace_id))
    async with unit_of_work():
        device = await devices.register(pairing_token=enrollment.pairing_token, public_key=bytes(key.verify_key),
                                        name="owner phone")
    async with unit_of_work():
        await devices.confirm_owner_device(workspace_id=uuid.UUID(workspace_id), device_id=device.id,
                                           fingerprint_seen=devices.fingerprint(bytes(key.verify_key)))
    owner = DeviceCaller(device_id=str(device.id), person_id=str(member.user.id), signing_key=key,
                         workspace_id=workspace_id)
    await owner.login()
    _owners[workspace_id] = owner
    return owner


async def workspace_owner(workspace_id: str) -> DeviceCaller:
    """The owner's device of a workspace made here, or a new owner for one that has none."""
    return _owners.get(workspace_id) or await make_owner(workspace_id=workspace_id)


async def make_person(*, workspace_id: str, role: str, email: str | None = None) -> DeviceCaller:
    """A person with ``role`` and an active device paired the documented way, logged in on it:
    invited, the invitation accepted (its pairing token), the device registered, and its
    fingerprint confirmed by the workspace's owner (made first when the workspace has none).
    A VIEWER gets no device (the role uses none): ``token`` and ``device_id`` stay None."""
    if role == "OWNER":
        return await make_owner(workspace_id=workspace_id, email=email)
    owner = await workspace_owner(workspace_id)
    owner_principal = await auth.authenticate(await owner.login())
    email = email or f"{role.lower()}-{uuid.uuid4().hex[:8]}@acme.test"
    key = SigningKey.generate()
    async with unit_of_work():
        invitation = await users.invite(principal=owner_principal, workspace_id=uuid.UUID(workspace_id), email=email,
                                        role=role, first_name=role.title(), last_name="Person")
    async with unit_of_work():
        accepted = await users.accept_invitation(token=invitation.token)
    if accepted.pairing is None:
        return DeviceCaller(device_id=None, person_id=str(accepted.user.id), signing_key=key,  # type: ignore[arg-type]
                            workspace_id=workspace_id)
    async with unit_of_work():
        device = await devices.register(pairing_token=accepted.pairing.pairing_token,
                                        public_key=bytes(key.verify_key), name=f"{role} phone")
    async with unit_of_work():
        await devices.confirm(principal=owner_principal, device_id=device.id,
                              fingerprint_seen=devices.fingerprint(bytes(key.verify_key)))
    caller = DeviceCaller(device_id=str(device.id), person_id=str(accepted.user.id), signing_key=key,
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
    owner = await make_owner(workspace_id=ws)
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
