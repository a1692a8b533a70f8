"""The built-in screener (domain/aml/providers.py): blocked, trusted, exposures, thresholds; the registry."""

from __future__ import annotations

from decimal import Decimal

import pytest

from domain.aml import providers
from domain.aml.config import AmlConfig, default_config
from domain.aml.providers import BuiltinScreener, TransferToScreen
from tests.support.aml import EVM, RISKY, SANCTIONED, TRUSTED, AsyncTestProvider

SCREENER = BuiltinScreener()


def _transfer(address: str) -> TransferToScreen:
    return TransferToScreen(screening_id="s", workspace_id="w", direction="outgoing", network_id=EVM,
                            currency_id="DETH_TEST", amount=1, counterparty_address=address)


def _config(**overrides) -> AmlConfig:
    stored = default_config()
    stored.update(overrides)
    return AmlConfig.of(stored)


def test_blocked_is_severe_trusted_is_low_and_exposures_add_up_by_weight():
    config = _config(
        blocked_addresses=[{"network_id": EVM, "address": SANCTIONED, "category": "ransomware"}],
        trusted_addresses=[{"network_id": EVM, "address": TRUSTED}],
        address_exposures=[
            {"network_id": EVM, "address": RISKY, "exposures": [
                {"category": "gambling", "exposure_percent": "50"}, {"category": "mixing", "exposure_percent": "40"}]},
        ])
    severe = SCREENER.screen(_transfer(SANCTIONED), config)
    assert (severe.risk_level, severe.risk_score, [(m.category, m.category_label, m.exposure_percent)
                                                   for m in severe.matched_risks]) == (
        "severe", Decimal("100.00"), [("ransomware", "Ransomware", Decimal("100.00"))])
    assert (SCREENER.screen(_transfer(TRUSTED), config).risk_level,
            SCREENER.screen(_transfer(TRUSTED), config).matched_risks) == ("low", [])
    # 50 % gambling (weight 20) + 40 % mixing (weight 60) = 10 + 24 = 34: medium (from 25)
    mixed = SCREENER.screen(_transfer(RISKY), config)
    assert (mixed.risk_level, mixed.risk_score) == ("medium", Decimal("34.00"))
    assert [m.category for m in mixed.matched_risks] == ["gambling", "mixing"]  # largest exposure first
    assert SCREENER.screen(_transfer("0x" + "11" * 20), config).risk_level == "low"


@pytest.mark.parametrize(("score", "level"), [("24.99", "low"), ("25", "medium"), ("49.99", "medium"),
                                              ("50", "high"), ("79.99", "high"), ("80", "severe")])
def test_thresholds_map_scores_to_levels(score, level):
    assert providers.score_to_level(Decimal(score), _config()) == level


def test_the_address_matches_in_any_letter_case_and_the_registry_keeps_builtin():
    config = _config(blocked_addresses=[{"network_id": EVM, "address": SANCTIONED, "category": "sanctions"}])
    assert SCREENER.screen(_transfer(SANCTIONED.upper().replace("0X", "0x")), config).risk_level == "severe"
    provider = AsyncTestProvider()
    providers.register_provider(provider)
    try:
        assert providers.provider_names() == ["builtin", "test_async"]
        with pytest.raises(ValueError):
            providers.register_provider(AsyncTestProvider())
    finally:
        providers.unregister_provider(provider.name)
    providers.unregister_provider("builtin")  # never removed
    assert providers.get_provider("builtin") is not None
