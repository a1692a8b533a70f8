"""The workspace's AML settings (domain/aml/settings.py): defaults, validation, audit."""

from __future__ import annotations

import pytest

from domain.aml import settings
from domain.errors import DomainError
from models.audit import AuditEntry
from tests.support.aml import EVM, RISKY, SANCTIONED, enable_aml
from tests.support.wallets import workspace


async def test_screening_is_off_until_saved_then_addresses_are_normalized_and_the_change_audited(database):
    ws = await workspace()
    current = await settings.load(ws.id)
    assert (current.enabled, current.provider, current.config["thresholds"]) == (
        False, "builtin", {"medium": "25", "high": "50", "severe": "80"})
    assert {c["category"] for c in current.config["categories"]} >= {"sanctions", "mixing", "gambling"}
    saved = await enable_aml(ws.id, blocked_addresses=[{"network_id": EVM, "address": SANCTIONED.upper()
                                                        .replace("0X", "0x")}],
                             thresholds={"medium": 10, "high": "40.5", "severe": 90})
    (entry,) = saved.config["blocked_addresses"]
    assert (entry["address"].lower(), entry["category"]) == (SANCTIONED, "sanctions")
    assert saved.config["thresholds"] == {"medium": "10.00", "high": "40.50", "severe": "90.00"}
    audit = await AuditEntry.get(action="aml.settings_updated", workspace_id=ws.id)
    assert set(audit.details["changed"]) == {"enabled", "blocked_addresses", "thresholds"}
    # Saving the same settings again records nothing
    await enable_aml(ws.id, blocked_addresses=[{"network_id": EVM, "address": SANCTIONED}],
                     thresholds={"medium": 10, "high": "40.5", "severe": 90})
    assert await AuditEntry.filter(action="aml.settings_updated", workspace_id=ws.id).count() == 1


@pytest.mark.parametrize(("config", "code", "field"), [
    ({"blocked_addresses": [{"network_id": EVM, "address": "nope"}]}, "INVALID_ADDRESS", "blocked_addresses[0].address"),
    ({"blocked_addresses": [{"network_id": "moon", "address": SANCTIONED}]}, "NETWORK_NOT_FOUND",
     "blocked_addresses[0].network_id"),
    ({"blocked_addresses": [{"network_id": EVM, "address": SANCTIONED, "category": "unheard_of"}]},
     "AML_UNKNOWN_CATEGORY", "blocked_addresses[0].category"),
    ({"blocked_addresses": [{"network_id": EVM, "address": SANCTIONED}],
      "trusted_addresses": [{"network_id": EVM, "address": SANCTIONED}]}, "VALIDATION_ERROR",
     "trusted_addresses[0].address"),
    ({"address_exposures": [{"network_id": EVM, "address": RISKY, "exposures": [
        {"category": "scam", "exposure_percent": 60}, {"category": "mixing", "exposure_percent": 41}]}]},
     "VALIDATION_ERROR", "address_exposures[0].exposures"),
    ({"address_exposures": [{"network_id": EVM, "address": RISKY, "exposures": [
        {"category": "scam", "exposure_percent": "1.234"}]}]}, "VALIDATION_ERROR",
     "address_exposures[0].exposures[0].exposure_percent"),
    ({"thresholds": {"medium": 50, "high": 40, "severe": 90}}, "VALIDATION_ERROR", "thresholds"),
    ({"thresholds": {"medium": 0, "high": 40, "severe": 90}}, "VALIDATION_ERROR", "thresholds.medium"),
    ({"categories": [{"category": "a", "label": "A", "weight": 101}]}, "VALIDATION_ERROR", "categories[0].weight"),
    ({"categories": [{"category": "a", "label": "A", "weight": 1}, {"category": "a", "label": "B", "weight": 2}]},
     "VALIDATION_ERROR", "categories[1].category"),
])
async def test_bad_configurations_are_refused_naming_the_field(database, config, code, field):
    ws = await workspace()
    with pytest.raises(DomainError) as refused:
        await enable_aml(ws.id, **config)
    assert (refused.value.code, refused.value.details["field"]) == (code, field)
    assert not (await settings.load(ws.id)).enabled


async def test_an_unknown_provider_is_refused(database):
    ws = await workspace()
    with pytest.raises(DomainError) as refused:
        await enable_aml(ws.id, provider="chainalysis")
    assert refused.value.code == "AML_PROVIDER_UNKNOWN"
