"""Shared column conventions: UUID primary keys, timezone-aware timestamps from the clock, money.

Money is an integer of atomic units in Python and ``NUMERIC(78, 0)`` in PostgreSQL
(:class:`MoneyField`): 78 digits hold any 256-bit chain amount.
"""

from __future__ import annotations

import uuid
from decimal import Context, Decimal
from typing import Any

from tortoise import fields
from tortoise.exceptions import ValidationError
from tortoise.models import Model

from core import clock

#: Money columns: NUMERIC with no fractional part; atomic units never leave integer arithmetic.
MONEY_DIGITS = 78
#: The largest amount a money column holds (78 nines).
MONEY_MAX = 10**MONEY_DIGITS - 1


def exact_integer(value: Any) -> int:
    """``value`` (an int, an integral Decimal or a string of one) as an int, converted exactly.

    Never through a decimal context: :class:`~decimal.Decimal` arithmetic rounds to the
    context's precision (28 significant digits by default), ``as_integer_ratio`` does not.
    A fraction, a float, a bool or anything else raises ValueError.
    """
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError(f"an amount is an integer of atomic units, not {type(value).__name__}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        value = Decimal(value)
    if isinstance(value, Decimal) and value.is_finite():
        numerator, denominator = value.as_integer_ratio()
        if denominator == 1:
            return numerator
    raise ValueError(f"an amount is an integer of atomic units, not {value!r}")


class _SqlDecimal(fields.DecimalField):
    """A DecimalField whose conversion in Python is its own: the column stays a plain NUMERIC, so
    migrations record it as the DecimalField it is in SQL (no schema change, no migration)."""

    def describe(self, serializable: bool) -> dict[str, Any]:
        described = super().describe(serializable)
        described["field_type"] = "DecimalField"
        return described

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        _, args, kwargs = super().deconstruct()
        return "tortoise.fields.data.DecimalField", args, kwargs


class MoneyField(_SqlDecimal):
    """An amount in atomic units: ``NUMERIC(78, 0)`` in PostgreSQL, an ``int`` in Python.

    tortoise's DecimalField quantizes every value it reads under the process's decimal context,
    whose 28 significant digits made an amount of 29 digits or more raise (a 500). This field
    converts with integers only (:func:`exact_integer`): every amount of up to 78 digits reads
    and writes exactly, and one beyond :data:`MONEY_MAX` is refused before PostgreSQL sees it.
    """

    #: Convert what asyncpg reads too (it gives a Decimal): a loaded row holds an int.
    skip_to_python_if_native = False

    def to_python_value(self, value: Any) -> int | None:  # type: ignore[override]  # an int, not a Decimal
        return None if value is None else exact_integer(value)

    def to_db_value(self, value: Any, instance: Any) -> Decimal | None:
        if value is None:
            return None
        try:
            amount = exact_integer(value)
        except ValueError as exc:
            raise ValidationError(f"{self.model_field_name}: {exc}") from None
        if abs(amount) > MONEY_MAX:
            raise ValidationError(f"{self.model_field_name}: more than {MONEY_DIGITS} digits")
        self.validate(amount)
        return Decimal(amount)  # the constructor is exact; asyncpg sends it digit for digit



#: Fiat values derived from amounts (a withdrawal's USD value): ``NUMERIC(100, 8)``, room for a
#: 78-digit amount at any price below 10**14 USD per atomic unit.
FIAT_DIGITS, FIAT_DECIMALS = 100, 8
_FIAT_CONTEXT = Context(prec=FIAT_DIGITS + 2)
_FIAT_QUANTUM = Decimal(1).scaleb(-FIAT_DECIMALS)


class FiatField(_SqlDecimal):
    """A fiat value with 8 decimals, quantized under a context of its own precision (tortoise's
    DecimalField quantizes under the process's 28 digits, which a large withdrawal's USD value
    exceeds)."""

    def to_python_value(self, value: Any) -> Decimal | None:
        if value is None:
            return None
        return Decimal(value).quantize(_FIAT_QUANTUM, context=_FIAT_CONTEXT)



def fiat_field(**kwargs: Any) -> Any:
    """A fiat value derived from an amount: ``NUMERIC(100, 8)``, a Decimal in Python."""
    return FiatField(max_digits=FIAT_DIGITS, decimal_places=FIAT_DECIMALS, **kwargs)


def money_field(**kwargs: Any) -> Any:
    """An amount in atomic units: ``NUMERIC(78, 0)`` (fits any 256-bit chain amount), an int in Python."""
    return MoneyField(max_digits=MONEY_DIGITS, decimal_places=0, **kwargs)


class TimestampedModel(Model):
    """A UUID-keyed row with ``created_at`` / ``updated_at`` taken from the injectable clock."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    created_at = fields.DatetimeField(default=clock.now)
    updated_at = fields.DatetimeField(default=clock.now)

    class Meta:
        abstract = True

    async def save(self, *args: Any, **kwargs: Any) -> None:
        # Stamp updated_at from the injectable clock rather than tortoise's auto_now.
        if self._saved_in_db:
            self.updated_at = clock.now()
            update_fields = kwargs.get("update_fields")
            if update_fields is not None and "updated_at" not in update_fields:
                kwargs["update_fields"] = [*update_fields, "updated_at"]
        await super().save(*args, **kwargs)
