"""The built-in screener's configuration, parsed: what the providers read and the settings store.

Its own module so that the settings (which name the providers) and the providers (which read
the configuration) import it, and not each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

#: The default risk categories (ids, labels and weights), after Chainalysis KYT's categories.
DEFAULT_CATEGORIES: list[dict[str, Any]] = [
    {"category": "sanctions", "label": "Sanctioned entity", "weight": "100"},
    {"category": "terrorist_financing", "label": "Terrorist financing", "weight": "100"},
    {"category": "child_abuse_material", "label": "Child abuse material", "weight": "100"},
    {"category": "ransomware", "label": "Ransomware", "weight": "100"},
    {"category": "stolen_funds", "label": "Stolen funds", "weight": "90"},
    {"category": "darknet_market", "label": "Darknet market", "weight": "80"},
    {"category": "scam", "label": "Scam", "weight": "70"},
    {"category": "mixing", "label": "Mixing", "weight": "60"},
    {"category": "fraud_shop", "label": "Fraud shop", "weight": "60"},
    {"category": "high_risk_exchange", "label": "High-risk exchange", "weight": "40"},
    {"category": "gambling", "label": "Online gambling", "weight": "20"},
]
DEFAULT_THRESHOLDS = {"medium": "25", "high": "50", "severe": "80"}


@dataclass(frozen=True)
class Category:
    label: str
    weight: Decimal


@dataclass(frozen=True)
class AmlConfig:
    """The parsed configuration the built-in screener reads (addresses keyed by (network, address))."""

    blocked: dict[tuple[str, str], str] = field(default_factory=dict)
    trusted: frozenset[tuple[str, str]] = frozenset()
    exposures: dict[tuple[str, str], list[tuple[str, Decimal]]] = field(default_factory=dict)
    categories: dict[str, Category] = field(default_factory=dict)
    thresholds: dict[str, Decimal] = field(default_factory=dict)

    @classmethod
    def of(cls, stored: dict[str, Any]) -> "AmlConfig":
        categories = {c["category"]: Category(c["label"], Decimal(c["weight"]))
                      for c in stored.get("categories") or DEFAULT_CATEGORIES}
        thresholds = {k: Decimal(v) for k, v in (stored.get("thresholds") or DEFAULT_THRESHOLDS).items()}
        return cls(
            blocked={(e["network_id"], e["address"]): e["category"] for e in stored.get("blocked_addresses", [])},
            trusted=frozenset((e["network_id"], e["address"]) for e in stored.get("trusted_addresses", [])),
            exposures={(e["network_id"], e["address"]): [(x["category"], Decimal(x["exposure_percent"]))
                                                          for x in e["exposures"]]
                       for e in stored.get("address_exposures", [])},
            categories=categories, thresholds=thresholds)


def default_config() -> dict[str, Any]:
    return {"blocked_addresses": [], "trusted_addresses": [], "address_exposures": [],
            "categories": [dict(c) for c in DEFAULT_CATEGORIES], "thresholds": dict(DEFAULT_THRESHOLDS)}
