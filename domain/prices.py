"""Prices for converted (fiat) balances, behind one small interface.

:class:`PriceSource` answers the price of one whole unit of a currency in the fiat symbol. The
default, :class:`TablePriceSource`, reads a configuration table (``config/prices.json`` or
``PRICES_FILE``): ``{"symbol": "USD", "relevant_on": "<RFC 3339>", "prices": {"<currency id>":
"<decimal string>"}}``. A market-data feed can replace it with :func:`set_price_source`.

Conversions use :class:`decimal.Decimal` on exact integer atomic amounts (never floats) and
round half up to cents.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from pathlib import Path
from typing import Protocol

from config import PRICES_FILE
from core.settings import get_settings

_CENTS = Decimal("0.01")
#: Enough digits for a 78-digit atomic amount times a price.
_CONTEXT = Context(prec=120)


@dataclass(frozen=True)
class Price:
    #: Fiat value of one whole unit of the currency.
    value: Decimal
    #: Fiat symbol, e.g. "USD".
    symbol: str
    #: When the price was true (RFC 3339 text on the wire).
    relevant_on: datetime


class PriceSource(Protocol):
    fiat_symbol: str

    def price(self, currency_id: str) -> Price | None:
        """The price of one whole unit of ``currency_id``, or None when unknown."""


class TablePriceSource:
    """Prices from a JSON table (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        try:
            document = json.loads(path.read_text())
            self.fiat_symbol = str(document.get("symbol") or "USD")
            self.relevant_on = datetime.fromisoformat(str(document["relevant_on"]).replace("Z", "+00:00"))
            self._prices = {str(k): Decimal(str(v)) for k, v in (document.get("prices") or {}).items()}
        except (OSError, ValueError, KeyError, InvalidOperation) as exc:
            raise ValueError(f"cannot read the price table {path}: {exc}") from exc
        if any(not p.is_finite() or p < 0 for p in self._prices.values()):
            raise ValueError(f"{path}: prices must be non-negative decimals")

    def price(self, currency_id: str) -> Price | None:
        value = self._prices.get(currency_id)
        if value is None:
            return None
        return Price(value=value, symbol=self.fiat_symbol, relevant_on=self.relevant_on)


_lock = threading.Lock()
_source: PriceSource | None = None
_source_path: Path | None = None


def price_source() -> PriceSource:
    """The installed price source (by default the configured table, read once)."""
    global _source, _source_path
    with _lock:
        if _source is not None and _source_path is None:
            return _source  # installed explicitly
        path = get_settings().prices_file or PRICES_FILE
        if _source is None or _source_path != path:
            _source, _source_path = TablePriceSource(path), path
        return _source


def set_price_source(source: PriceSource | None) -> None:
    """Install another price source (None restores the configured table)."""
    global _source, _source_path
    with _lock:
        _source, _source_path = source, None


def convert(atomic: int, *, decimals: int, price: Price) -> Decimal:
    """Fiat value of ``atomic`` units, rounded half up to cents."""
    units = _CONTEXT.divide(Decimal(atomic), Decimal(10) ** decimals)
    return _CONTEXT.multiply(units, price.value).quantize(_CENTS, rounding=ROUND_HALF_UP, context=_CONTEXT)


def format_fiat(value: Decimal) -> str:
    """Fiat amount as a string with two decimals ("1234.50")."""
    return f"{value.quantize(_CENTS, rounding=ROUND_HALF_UP, context=_CONTEXT):f}"
