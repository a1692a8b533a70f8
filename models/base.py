"""Shared column conventions: UUID primary keys, timezone-aware timestamps from the clock."""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock

#: Money columns: NUMERIC with no fractional part; atomic units never leave integer arithmetic.
MONEY_DIGITS = 78


def money_field(**kwargs: object) -> fields.DecimalField:
    """An amount in atomic units: ``NUMERIC(78, 0)`` (fits any 256-bit chain amount)."""
    return fields.DecimalField(max_digits=MONEY_DIGITS, decimal_places=0, **kwargs)  # type: ignore[arg-type]


class TimestampedModel(Model):
    """A UUID-keyed row with ``created_at`` / ``updated_at`` taken from the injectable clock."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    created_at = fields.DatetimeField(default=clock.now)
    updated_at = fields.DatetimeField(default=clock.now)

    class Meta:
        abstract = True

    async def save(self, *args, **kwargs) -> None:  # type: ignore[override]
        # Stamp updated_at from the injectable clock rather than tortoise's auto_now.
        if self._saved_in_db:
            self.updated_at = clock.now()
            update_fields = kwargs.get("update_fields")
            if update_fields is not None and "updated_at" not in update_fields:
                kwargs["update_fields"] = [*update_fields, "updated_at"]
        await super().save(*args, **kwargs)
