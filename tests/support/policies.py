"""Helpers of the policy tests: publishing, a price table, approvers with paired devices."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from nacl.signing import SigningKey

from core.unit_of_work import unit_of_work
from domain import auth, devices, tags
from domain.auth import Principal
from domain.policies import service
from domain.prices import Price
from tests.support.approvals import workspace_owner
from tests.support.callers import Caller, make_api_user


class FixedPrices:
    """A price source with the given prices per whole unit (USD)."""

    fiat_symbol = "USD"

    def __init__(self, **prices: str) -> None:
        self.prices = {k: Decimal(v) for k, v in prices.items()}

    def price(self, currency_id: str) -> Price | None:
        value = self.prices.get(currency_id)
        return Price(value, "USD", datetime(2026, 1, 1, tzinfo=timezone.utc)) if value is not None else None


async def publish(workspace_id: uuid.UUID, rules: list[dict[str, Any]], *, policy_type: str = "transfer",
                  no_match_action: str = "block"):
    async with unit_of_work():
        return await service.publish_policy(principal=None, workspace_id=workspace_id, policy_type=policy_type,
                                            rules=rules, no_match_action=no_match_action)


async def protected_tag(workspace_id: uuid.UUID, label: str, *, vaults: list[uuid.UUID] = (),  # type: ignore[assignment]
                        protected: bool = True):
    async with unit_of_work():
        tag = await tags.create_tag(principal=None, workspace_id=workspace_id, tag=tags.NewTag(label=label))
        if protected:
            await tags.set_protected(principal=None, workspace_id=workspace_id, tag_id=tag.id, protected=True)
        if vaults:
            await tags.change_vault_tags(principal=None, workspace_id=workspace_id,
                                         change=tags.VaultTagsChange(vault_ids=tuple(vaults), attach=(tag.id,)))
    return tag


@dataclass
class Approver:
    """A member with an active paired device: ``device`` signs in as the device (votes),
    ``caller`` as the member's own API key (not a device)."""

    caller: Caller
    device: Caller
    user_id: str

    async def device_principal(self) -> Principal:
        assert self.device.token is not None
        return await auth.authenticate(self.device.token)


async def approver(workspace_id: uuid.UUID | str, *, role: str = "APPROVER") -> Approver:
    """An API user with ``role`` and a device paired the documented way: it initiates the pairing,
    the device registers its key, the workspace's owner confirms the fingerprint."""
    caller = await make_api_user(role=role, workspace_id=workspace_id)
    await caller.login()
    owner = await workspace_owner(str(workspace_id))
    key = SigningKey.generate()
    async with unit_of_work():
        pairing = await devices.initiate(principal=await auth.authenticate(caller.token),  # type: ignore[arg-type]
                                         workspace_id=uuid.UUID(str(workspace_id)))
    async with unit_of_work():
        device = await devices.register(pairing_token=pairing.pairing_token, public_key=bytes(key.verify_key),
                                        name="phone")
    async with unit_of_work():
        await devices.confirm(principal=await auth.authenticate(await owner.login()), device_id=device.id,
                              fingerprint_seen=devices.fingerprint(bytes(key.verify_key)))
    device_caller = Caller(user_id=str(device.id), signing_key=key, workspace_id=str(workspace_id))
    async with unit_of_work():
        issued = await auth.issue_access_token(**device_caller.signed_request(client_type="device"))
    device_caller.token = issued.access_token
    return Approver(caller, device_caller, caller.user_id)
