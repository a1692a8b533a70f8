"""Helpers of the AML tests: turning screening on for a workspace, and an asynchronous provider.

:class:`AsyncTestProvider` is the "test provider proving the asynchronous path": it registers a
transfer and answers *pending* until the test gives the result (:meth:`answer`), like KYT or
Elliptic while they screen; it hands out later results as updates (:meth:`update`). It keeps its
state in memory, which the in-process worker shares with the test.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal
from typing import Any

from core.unit_of_work import unit_of_work
from domain.aml import providers, settings
from domain.aml.config import AmlConfig
from domain.aml.providers import (
    MatchedRisk,
    ScreeningAnswer,
    ScreeningResult,
    ScreeningUpdate,
    TransferToScreen,
)
from domain.networks.devnet import faucet_address
from domain.networks.registry import get_adapter
from models.workspaces import Workspace

EVM = "devnet-evm-testnet"
#: Devnet addresses nobody holds a key for, listed in the tests' configurations.
SANCTIONED = "0x" + "5a" * 20
RISKY = "0x" + "7c" * 20
TRUSTED = "0x" + "3d" * 20


def evm_faucet() -> str:
    """The sender of every devnet faucet credit (a deposit's counterparty)."""
    return faucet_address(get_adapter(EVM))


async def enable_aml(workspace_id: uuid.UUID, *, provider: str = "builtin", enabled: bool = True,
                     **config: Any) -> settings.Settings:
    """Save the workspace's AML settings through the domain service (no principal)."""
    ws = await Workspace.get(id=workspace_id)
    async with unit_of_work():
        return await settings.set_settings(principal=None, workspace=ws, enabled=enabled, provider=provider,
                                           config=config)


def blocked(address: str, category: str = "sanctions") -> dict[str, Any]:
    return {"network_id": EVM, "address": address, "category": category}


def exposed(address: str, **percent_by_category: str) -> dict[str, Any]:
    return {"network_id": EVM, "address": address,
            "exposures": [{"category": c, "exposure_percent": p} for c, p in percent_by_category.items()]}


def result(level: str, score: str, **percent_by_category: str) -> ScreeningResult:
    return ScreeningResult(level, Decimal(score), [MatchedRisk(c, c.replace("_", " "), Decimal(p))
                                                   for c, p in percent_by_category.items()])


class AsyncTestProvider:
    name = "test_async"
    inline = False

    def __init__(self) -> None:
        self.registered: dict[str, TransferToScreen] = {}
        self.results: dict[str, ScreeningResult] = {}
        self.asked = 0
        self._updates: list[ScreeningUpdate] = []

    @staticmethod
    def ref_of(screening_id: uuid.UUID | str) -> str:
        return f"t-{screening_id}"

    async def register_transfer(self, transfer: TransferToScreen, config: AmlConfig) -> ScreeningAnswer:
        ref = self.ref_of(transfer.screening_id)
        self.registered[ref] = transfer
        return ScreeningAnswer(ref, self.results.get(ref), retry_after=timedelta(seconds=3))

    async def fetch_result(self, ref: str, transfer: TransferToScreen, config: AmlConfig) -> ScreeningAnswer:
        self.asked += 1
        return ScreeningAnswer(ref, self.results.get(ref), retry_after=timedelta(seconds=3))

    async def take_updates(self) -> list[ScreeningUpdate]:
        taken, self._updates = self._updates, []
        return taken

    def answer(self, screening_id: uuid.UUID | str, value: ScreeningResult) -> None:
        self.results[self.ref_of(screening_id)] = value

    def update(self, screening_id: uuid.UUID | str, value: ScreeningResult) -> None:
        self._updates.append(ScreeningUpdate(self.ref_of(screening_id), value))


def install_async_provider() -> AsyncTestProvider:
    provider = AsyncTestProvider()
    providers.unregister_provider(provider.name)
    providers.register_provider(provider)
    return provider
