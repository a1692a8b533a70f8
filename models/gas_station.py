"""The gas station: one vault per workspace that supplies the base asset (gas) to other vaults.

- :class:`GasStation`: the workspace's one station (unique per workspace) and its vault.
- :class:`GasStationAsset`: the per-asset configuration of a station (one row per base asset):
  ``threshold`` and ``cap`` (atomic units; NULL until set when the platform has no default),
  ``max_gas_price`` (-1: no limit) and ``daily_budget`` (NULL: no budget). ``is_default`` is
  true while the values came from the platform's defaults. ``low_balance_since`` and
  ``budget_reached_at`` remember that an event was raised, so one condition raises one event.
- :class:`VaultAutofuel`: a vault with autofuel on (a row per vault; ``enabled`` toggles).
- :class:`Refuel`: one refuel of one target address with one base asset. A partial unique index
  (migration 0090) keeps at most one *live* refuel (``held_back`` or ``in_flight``) per
  (network, target address, currency).
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel, money_field


class GasStation(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT,
                                       unique=True)
    workspace_id: uuid.UUID
    vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT)
    vault_id: uuid.UUID

    class Meta:
        table = "gas_stations"


class GasStationAsset(TimestampedModel):
    gas_station = fields.ForeignKeyField("models.GasStation", related_name="assets", on_delete=fields.CASCADE)
    gas_station_id: uuid.UUID
    #: The base asset (the native coin of a gas-model network).
    currency_id = fields.CharField(max_length=40)
    threshold = money_field(null=True)
    cap = money_field(null=True)
    #: -1: no limit; 0: no fee allowed; n: a refuel whose network fee is above n waits.
    max_gas_price = money_field(default=-1)
    #: Most the station sends of this asset per rolling 24 hours (NULL: no budget).
    daily_budget = money_field(null=True)
    is_default = fields.BooleanField(default=True)
    low_balance_since = fields.DatetimeField(null=True)
    budget_reached_at = fields.DatetimeField(null=True)

    class Meta:
        table = "gas_station_assets"
        unique_together = (("gas_station_id", "currency_id"),)


class VaultAutofuel(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT, unique=True)
    vault_id: uuid.UUID
    enabled = fields.BooleanField(default=False)

    class Meta:
        table = "vault_autofuel"


class Refuel(TimestampedModel):
    """One refuel: ``held_back`` (the network fee is above max_gas_price; retried by the
    scheduler at ``retry_at``), ``in_flight`` (its withdrawal is live), then ``finished`` or
    ``failed`` (its withdrawal ended unsuccessfully)."""

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    gas_station = fields.ForeignKeyField("models.GasStation", related_name=False, on_delete=fields.RESTRICT)
    gas_station_id: uuid.UUID
    currency_id = fields.CharField(max_length=40)
    network = fields.CharField(max_length=40)
    target_vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT)
    target_vault_id: uuid.UUID
    target_address = fields.CharField(max_length=100)
    status = fields.CharField(max_length=12)
    #: What was (or will be) sent: cap minus the balance when the refuel was decided.
    amount = money_field()
    transaction = fields.ForeignKeyField("models.Transaction", related_name=False, null=True,
                                         on_delete=fields.RESTRICT)
    transaction_id: uuid.UUID | None
    reason = fields.CharField(max_length=200, null=True)
    retry_at = fields.DatetimeField(null=True)

    class Meta:
        table = "gas_station_refuels"
        indexes = (("gas_station_id", "currency_id", "created_at"), ("status", "retry_at"))
