"""The workspace's AML screener configuration (GET / PUT /api/v1/aml/settings).

One row per workspace (models.aml.AmlSettings); no row means screening is **off** (like an AML
integration at Fireblocks, screening is something a workspace turns on). The settings:

* ``enabled``: whether transfers are screened at all;
* ``provider``: the screener (domain.aml.providers' registry; ``builtin`` by default);
* the built-in screener's configuration:

  - ``blocked_addresses``: ``{network_id, address, category, note}``: sanctioned or blocked
    counterparties (severe, their category at 100 %);
  - ``trusted_addresses``: ``{network_id, address, note}``: reviewed counterparties (low, score 0);
  - ``address_exposures``: ``{network_id, address, exposures: [{category, exposure_percent}]}``:
    what share of an address's funds comes from each risk category (direct and indirect
    exposure, as KYT and Elliptic report it);
  - ``categories``: ``{category, label, weight}``: the risk categories; ``weight`` is the score a
    100 % exposure gives (0 to 100). Absent: the default list below (Chainalysis-like);
  - ``thresholds``: ``{medium, high, severe}``: the scores from which each level starts
    (0 < medium < high < severe <= 100). Absent: 25 / 50 / 80.

Addresses are validated and normalized for their network (400 INVALID_ADDRESS); one address is on
at most one list. A PUT replaces the whole configuration; changes are audited (``aml.settings_updated``
with what changed) and apply to transfers screened afterwards.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from domain import audit
from domain.aml.config import DEFAULT_CATEGORIES, DEFAULT_THRESHOLDS, AmlConfig, default_config
from domain.aml.providers import BUILTIN, get_provider, provider_names
from domain.auth import Principal
from domain.currencies import registry
from domain.errors import ValidationFailed, field_error
from domain.networks.registry import normalize_address
from domain.permissions import Permission
from models.aml import AmlSettings
from models.workspaces import Workspace

MAX_ADDRESSES = 1000
MAX_CATEGORIES = 100
MAX_EXPOSURES_PER_ADDRESS = 20
PERCENT = Decimal("0.01")

@dataclass(frozen=True)
class Settings:
    workspace_id: uuid.UUID
    enabled: bool
    provider: str
    config: dict[str, Any]
    updated_by: uuid.UUID | None
    updated_at: Any

    @property
    def parsed(self) -> AmlConfig:
        """The configuration for the screener, parsed once per saved version (a full set of lists
        takes milliseconds to parse; every save changes ``updated_at``, so the key changes too)."""
        if self.updated_at is None:
            return AmlConfig.of(self.config)
        key = (self.workspace_id, self.updated_at)
        found = _parsed.get(key)
        if found is None:
            if len(_parsed) >= _PARSED_MAX:
                _parsed.clear()
            found = _parsed[key] = AmlConfig.of(self.config)
        return found


#: Parsed configurations by (workspace, updated_at), per process.
_parsed: dict[tuple[uuid.UUID, Any], AmlConfig] = {}
_PARSED_MAX = 256


def of_row(row: AmlSettings | None, workspace_id: uuid.UUID) -> Settings:
    """The settings a workspace's row says (None: it never saved any, the defaults)."""
    if row is None:
        return Settings(workspace_id, False, BUILTIN, default_config(), None, None)
    return Settings(workspace_id, row.enabled, row.provider, {**default_config(), **row.config}, row.updated_by,
                    row.updated_at)


async def load(workspace_id: uuid.UUID) -> Settings:
    """The workspace's settings (the defaults, screening off, when it never saved any)."""
    return of_row(await AmlSettings.get_or_none(workspace_id=workspace_id), workspace_id)


async def get_settings(*, principal: Principal | None, workspace_id: uuid.UUID) -> Settings:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    return await load(workspace_id)


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def _decimal(value: Any, where: str, *, low: Decimal, high: Decimal, low_inclusive: bool = True) -> Decimal:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise field_error(where, "must be a number") from None
    if not number.is_finite() or number > high or number < low or (not low_inclusive and number == low):
        raise field_error(where, f"must be {'at least' if low_inclusive else 'above'} {low} and at most {high}")
    if number != number.quantize(PERCENT):
        raise field_error(where, "at most two decimals")
    return number.quantize(PERCENT)


def _network(network_id: str, workspace: Workspace, where: str) -> str:
    network = registry().networks.get(network_id)
    if network is None or not network.enabled or network.network_type != workspace.network_type:
        raise ValidationFailed(f"{where}: unknown network {network_id!r} for this workspace", code="NETWORK_NOT_FOUND",
                               details={"field": where, "reason": "not a network of the workspace's type",
                                        "network_id": network_id})
    return network.id


def validate_config(raw: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """The configuration to store: validated, addresses normalized, numbers as decimal strings."""
    categories_in = raw.get("categories")
    if categories_in is None:
        categories = [dict(c) for c in DEFAULT_CATEGORIES]
    else:
        if len(categories_in) > MAX_CATEGORIES:
            raise field_error("categories", f"at most {MAX_CATEGORIES}")
        categories, seen = [], set()
        for i, item in enumerate(categories_in):
            key = item["category"]
            if key in seen:
                raise field_error(f"categories[{i}].category", "listed twice")
            seen.add(key)
            weight = _decimal(item["weight"], f"categories[{i}].weight", low=Decimal(0), high=Decimal(100))
            categories.append({"category": key, "label": item["label"], "weight": str(weight)})
    known = {c["category"] for c in categories}

    def category(value: str, where: str) -> str:
        if value not in known:
            raise ValidationFailed(f"{where}: unknown category {value!r}", code="AML_UNKNOWN_CATEGORY",
                                   details={"field": where, "reason": "not among categories", "value": value})
        return value

    thresholds_in = raw.get("thresholds") or DEFAULT_THRESHOLDS
    thresholds = {name: _decimal(thresholds_in[name], f"thresholds.{name}", low=Decimal(0), high=Decimal(100),
                                 low_inclusive=False) for name in ("medium", "high", "severe")}
    if not thresholds["medium"] < thresholds["high"] < thresholds["severe"]:
        raise field_error("thresholds", "must rise: medium < high < severe")

    listed: dict[tuple[str, str], str] = {}

    def address(item: dict[str, Any], where: str) -> tuple[str, str]:
        network_id = _network(item["network_id"], workspace, f"{where}.network_id")
        normalized = normalize_address(network_id, item["address"], field=f"{where}.address")
        key = (network_id, normalized)
        if key in listed:
            raise field_error(f"{where}.address", f"already listed in {listed[key]}")
        listed[key] = where.split("[", 1)[0]
        return key

    def bounded(name: str) -> list[dict[str, Any]]:
        items = raw.get(name) or []
        if len(items) > MAX_ADDRESSES:
            raise field_error(name, f"at most {MAX_ADDRESSES} addresses")
        return items

    blocked = []
    for i, item in enumerate(bounded("blocked_addresses")):
        network_id, normalized = address(item, f"blocked_addresses[{i}]")
        blocked.append({"network_id": network_id, "address": normalized,
                        "category": category(item.get("category") or "sanctions", f"blocked_addresses[{i}].category"),
                        "note": item.get("note")})
    trusted = []
    for i, item in enumerate(bounded("trusted_addresses")):
        network_id, normalized = address(item, f"trusted_addresses[{i}]")
        trusted.append({"network_id": network_id, "address": normalized, "note": item.get("note")})
    exposures = []
    for i, item in enumerate(bounded("address_exposures")):
        where = f"address_exposures[{i}]"
        network_id, normalized = address(item, where)
        found, total, seen_categories = [], Decimal(0), set()
        if not item["exposures"] or len(item["exposures"]) > MAX_EXPOSURES_PER_ADDRESS:
            raise field_error(f"{where}.exposures", f"1 to {MAX_EXPOSURES_PER_ADDRESS} categories")
        for j, exposure in enumerate(item["exposures"]):
            name = category(exposure["category"], f"{where}.exposures[{j}].category")
            if name in seen_categories:
                raise field_error(f"{where}.exposures[{j}].category", "listed twice")
            seen_categories.add(name)
            percent = _decimal(exposure["exposure_percent"], f"{where}.exposures[{j}].exposure_percent",
                               low=Decimal(0), high=Decimal(100), low_inclusive=False)
            total += percent
            found.append({"category": name, "exposure_percent": str(percent)})
        if total > 100:
            raise field_error(f"{where}.exposures", "exposures add up to more than 100 %")
        exposures.append({"network_id": network_id, "address": normalized, "exposures": found,
                          "note": item.get("note")})
    return {"blocked_addresses": blocked, "trusted_addresses": trusted, "address_exposures": exposures,
            "categories": categories, "thresholds": {k: str(v) for k, v in thresholds.items()}}


async def set_settings(*, principal: Principal | None, workspace: Workspace, enabled: bool, provider: str,
                       config: dict[str, Any]) -> Settings:
    """PUT /aml/settings: replace the workspace's AML configuration (EDIT_WORKSPACE; audited)."""
    if principal is not None:
        principal.require(workspace.id, Permission.EDIT_WORKSPACE)
    if get_provider(provider) is None:
        raise ValidationFailed(f"provider: unknown AML provider {provider!r}", code="AML_PROVIDER_UNKNOWN",
                               details={"field": "provider", "reason": f"must be among {', '.join(provider_names())}",
                                        "value": provider})
    stored = validate_config(config, workspace)
    row = await AmlSettings.filter(workspace_id=workspace.id).select_for_update().first()
    before = of_row(row, workspace.id)
    actor = principal.user.id if principal else None
    if row is None:
        row = AmlSettings(workspace_id=workspace.id)
    changed = [name for name, old, new in (("enabled", before.enabled, enabled), ("provider", before.provider, provider),
                                           *((k, before.config.get(k), stored[k]) for k in stored)) if old != new]
    if not changed and row._saved_in_db:  # noqa: SLF001 - setting the current value records nothing
        return before
    row.enabled, row.provider, row.config, row.updated_by = enabled, provider, stored, actor
    await row.save()
    for key in [k for k in _parsed if k[0] == workspace.id]:  # this process's copies (same instant: a frozen clock)
        del _parsed[key]
    await audit.record(action="aml.settings_updated", object_type="workspace", object_id=workspace.id, actor_id=actor,
                       workspace_id=workspace.id,
                       details={"changed": changed, "enabled": enabled, "provider": provider,
                                "blocked_addresses": len(stored["blocked_addresses"]),
                                "trusted_addresses": len(stored["trusted_addresses"]),
                                "address_exposures": len(stored["address_exposures"])})
    return of_row(row, workspace.id)
