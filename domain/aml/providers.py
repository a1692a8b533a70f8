"""AML providers: the interface every screener implements, the registry, and the built-in screener.

The interface follows what Chainalysis KYT and Elliptic offer integrators:

* :meth:`AmlProvider.register_transfer`: register a transfer with the provider (a withdrawal
  before it is signed, a deposit once it is detected). The provider answers with the result at
  once, or *pending* with its own reference (``ref``) when it screens asynchronously.
* :meth:`AmlProvider.fetch_result`: ask again for a pending transfer's result (KYT's
  ``GET /transfers/{id}``: "the result may not be ready yet"). The withdrawal check asks on each
  run of the check stage (DEFER with ``retry_after`` until it is there), the ``aml.poll`` job for
  deposits.
* :meth:`AmlProvider.take_updates`: results that changed after the first one (re-screening: a
  cluster newly attributed to a sanctioned entity raises a past transfer's risk). The ``aml.poll``
  job applies them to the records (domain.aml.screening.apply_update).

A provider never decides what happens to a transfer: it reports risk (level, score, exposure per
category). The decision is the workspace's AML policy or the built-in default
(domain.aml.decisions).

The registry holds providers by name; ``builtin`` (:class:`BuiltinScreener`) is always there and is
the default. It is rule-based and synchronous: it screens from the workspace's own configuration
(domain.aml.settings), without any I/O, so it answers inside the database transaction that asks.
Tests register an asynchronous provider of their own (tests/support/aml.py) to drive the pending
path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any, Protocol

from domain.aml.config import AmlConfig
from domain.errors import DomainError
from domain.networks.registry import normalize_address

LOW, MEDIUM, HIGH, SEVERE = "low", "medium", "high", "severe"
#: Risk levels, least to most risky.
RISK_LEVELS = (LOW, MEDIUM, HIGH, SEVERE)

BUILTIN = "builtin"


@dataclass(frozen=True)
class TransferToScreen:
    """What is registered with a provider (KYT's "register a transfer")."""

    screening_id: str
    workspace_id: str
    #: ``outgoing`` (withdrawal attempt) or ``incoming`` (received transfer).
    direction: str
    network_id: str
    currency_id: str
    amount: int
    #: The destination of a withdrawal; the sender of a deposit.
    counterparty_address: str
    tx_hash: str | None = None


@dataclass(frozen=True)
class MatchedRisk:
    category: str
    category_label: str
    exposure_percent: Decimal

    def to_dict(self) -> dict[str, Any]:
        return {"category": self.category, "category_label": self.category_label,
                "exposure_percent": str(self.exposure_percent)}


@dataclass(frozen=True)
class ScreeningResult:
    risk_level: str
    risk_score: Decimal | None
    matched_risks: list[MatchedRisk] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.risk_level not in RISK_LEVELS:
            raise ValueError(f"unknown risk level {self.risk_level!r}")


@dataclass(frozen=True)
class ScreeningAnswer:
    """A provider's answer: a ``result``, or pending (``result`` None) under the provider's ``ref``."""

    ref: str | None
    result: ScreeningResult | None = None
    #: Pending: when to ask again (the provider's hint).
    retry_after: timedelta | None = None

    @property
    def pending(self) -> bool:
        return self.result is None


@dataclass(frozen=True)
class ScreeningUpdate:
    """A changed result for a transfer screened before (re-screening)."""

    ref: str
    result: ScreeningResult


class AmlProvider(Protocol):
    name: str
    #: True when :meth:`register_transfer` answers without I/O (it may run inside the chain
    #: watcher's transaction); False: the ``aml.poll`` job registers incoming transfers.
    inline: bool

    async def register_transfer(self, transfer: TransferToScreen, config: AmlConfig) -> ScreeningAnswer:
        """Register the transfer; its result now, or pending with the provider's reference."""

    async def fetch_result(self, ref: str, transfer: TransferToScreen, config: AmlConfig) -> ScreeningAnswer:
        """The result of a transfer registered before (still pending: ``result`` None)."""

    async def take_updates(self) -> list[ScreeningUpdate]:
        """Results changed since the last call (each handed out once)."""


def score_to_level(score: Decimal, config: AmlConfig) -> str:
    """The risk level of a score under the workspace's thresholds (each one inclusive)."""
    if score >= config.thresholds["severe"]:
        return SEVERE
    if score >= config.thresholds["high"]:
        return HIGH
    if score >= config.thresholds["medium"]:
        return MEDIUM
    return LOW


def _normalized(network_id: str, address: str) -> str:
    """The address as the settings store it (normalized for its network); as given if it is not one."""
    try:
        return normalize_address(network_id, address)
    except DomainError:
        return address


class BuiltinScreener:
    """The rule-based screener configured per workspace (domain.aml.settings).

    * An address on the **blocked** list (sanctioned, or blocked by the workspace) is severe, score
      100, with its category at 100 % exposure.
    * An address on the **trusted** list is low, score 0, nothing matched (a counterparty the
      compliance team reviewed: its exposures are not counted).
    * Otherwise the **exposures** assigned to the address count: the score is the sum over its
      categories of ``exposure_percent x weight / 100`` (each category's weight is the score a
      100 % exposure to it gives), capped at 100; the thresholds map the score to a level.
    * An address nobody listed is low, score 0.
    """

    name = BUILTIN
    inline = True

    def screen(self, transfer: TransferToScreen, config: AmlConfig) -> ScreeningResult:
        key = (transfer.network_id, _normalized(transfer.network_id, transfer.counterparty_address))
        blocked = config.blocked.get(key)
        if blocked is not None:
            category = config.categories.get(blocked)
            label = category.label if category else blocked
            return ScreeningResult(SEVERE, Decimal("100.00"), [MatchedRisk(blocked, label, Decimal("100.00"))])
        if key in config.trusted:
            return ScreeningResult(LOW, Decimal("0.00"), [])
        exposures = config.exposures.get(key, [])
        score = Decimal(0)
        matched = []
        for category_id, percent in exposures:
            category = config.categories.get(category_id)
            weight = category.weight if category else Decimal(100)
            score += percent * weight / 100
            matched.append(MatchedRisk(category_id, category.label if category else category_id, percent))
        score = min(score, Decimal(100)).quantize(Decimal("0.01"))
        matched.sort(key=lambda m: (-m.exposure_percent, m.category))
        return ScreeningResult(score_to_level(score, config), score, matched)

    async def register_transfer(self, transfer: TransferToScreen, config: AmlConfig) -> ScreeningAnswer:
        return ScreeningAnswer(ref=f"builtin:{transfer.screening_id}", result=self.screen(transfer, config))

    async def fetch_result(self, ref: str, transfer: TransferToScreen, config: AmlConfig) -> ScreeningAnswer:
        return ScreeningAnswer(ref=ref, result=self.screen(transfer, config))

    async def take_updates(self) -> list[ScreeningUpdate]:
        # The built-in screener re-screens nothing by itself: a changed list applies to the
        # transfers screened after the change (docs/aml.md).
        return []


_providers: dict[str, AmlProvider] = {BUILTIN: BuiltinScreener()}


def register_provider(provider: AmlProvider) -> None:
    """Make a provider selectable in the workspaces' AML settings (by its ``name``)."""
    if provider.name in _providers and _providers[provider.name] is not provider:
        raise ValueError(f"an AML provider named {provider.name!r} is already registered")
    _providers[provider.name] = provider


def unregister_provider(name: str) -> None:
    if name != BUILTIN:
        _providers.pop(name, None)


def get_provider(name: str) -> AmlProvider | None:
    return _providers.get(name)


def provider_names() -> list[str]:
    return sorted(_providers)


def all_providers() -> list[AmlProvider]:
    return list(_providers.values())
