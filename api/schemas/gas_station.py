"""Gas station requests and responses (/api/v1/gas_station..., /api/v1/vault/accounts/{vid}/autofuel/...;
docs/gas-station.md).

Amounts are integer strings in the smallest unit of the base asset (spec rule 2). The schemas
check the form (digits; ``-1`` where it means "no limit"); the service checks the relation
cap >= threshold > 0 (400 GAS_STATION_INVALID_LIMITS).
"""

from __future__ import annotations

import uuid
from typing import Annotated

from pydantic import Field, StringConstraints

from api.schemas.common import RequestBody, Resource, refused_as
from domain.gas_station import configuration
from models.gas_station import GasStationAsset as AssetRow

_AMOUNT_RULE = "an integer string in the smallest unit of the base asset (no sign, decimal point or leading zeros)"
#: threshold / cap: digits (0 is refused by the service's rule cap >= threshold > 0, with its own code).
LimitIn = Annotated[str, StringConstraints(pattern=r"^(0|[1-9][0-9]{0,77})$"),
                    refused_as("INVALID_AMOUNT", reason=f"must be {_AMOUNT_RULE}")]
#: max_gas_price / daily_budget: -1 (no limit) or digits.
LimitOrNoneIn = Annotated[str, StringConstraints(pattern=r"^(-1|0|[1-9][0-9]{0,77})$"),
                          refused_as("INVALID_AMOUNT", reason=f"must be -1 (no limit) or {_AMOUNT_RULE}")]


class AssetConfigurationUpdate(RequestBody):
    """A partial update: a field left out (or null) stays as it is."""

    cap: LimitIn | None = Field(None, description="Target balance: a refuel adds cap minus the current balance. "
                                "cap >= threshold > 0.")
    threshold: LimitIn | None = Field(None, description="A refuel starts when the available gas balance at an "
                                      "address falls below it.")
    max_gas_price: LimitOrNoneIn | None = Field(None, description="The highest network fee one refuel may cost: "
                                                "-1 no limit, 0 no fee allowed, n refuel only if the fee is at "
                                                "most n (else the refuel waits and is retried later).")
    daily_budget: LimitOrNoneIn | None = Field(None, description="Beyond the spec: the most the station sends of "
                                               "this asset per rolling 24 hours; -1 no budget. 0 is refused.")

    def as_domain(self) -> configuration.AssetChange:
        def number(value: str | None) -> int | None:
            return None if value is None else int(value)
        return configuration.AssetChange(threshold=number(self.threshold), cap=number(self.cap),
                                         max_gas_price=number(self.max_gas_price),
                                         daily_budget=number(self.daily_budget))


class AssetConfiguration(Resource):
    """Per-asset configuration of the gas station (spec: currency_id, gas_station_id, threshold,
    cap, max_gas_price, is_default)."""

    currency_id: str
    gas_station_id: uuid.UUID
    threshold: str | None = Field(description="null while the platform has no default and none was set: the asset "
                                  "is not refuelled until cap and threshold are set.")
    cap: str | None = Field(description="null while unset (see threshold).")
    max_gas_price: str = Field(description="-1: no limit; 0: no fee allowed; n: the highest fee of one refuel.")
    daily_budget: str = Field(description="Beyond the spec: most sent per rolling 24 hours; -1: no budget.")
    is_default: bool = Field(description="true while the platform's default parameters are in use.")

    @classmethod
    def of(cls, row: AssetRow) -> "AssetConfiguration":
        values = configuration.asset_values(row)
        return cls(currency_id=row.currency_id, gas_station_id=row.gas_station_id,
                   threshold=values["threshold"], cap=values["cap"], max_gas_price=values["max_gas_price"],
                   daily_budget=values["daily_budget"], is_default=row.is_default)


class GasStation(Resource):
    id: uuid.UUID
    vault_id: uuid.UUID = Field(description="The vault designated as the source of gas.")
    workspace_id: uuid.UUID
    assets: list[AssetConfiguration]

    @classmethod
    def of(cls, view: configuration.StationView) -> "GasStation":
        station = view.station
        return cls(id=station.id, vault_id=station.vault_id,
                   workspace_id=station.workspace_id,
                   assets=[AssetConfiguration.of(a) for a in view.assets])


class GasStationState(Resource):
    configured: bool
    gas_station: GasStation | None = Field(None, description="Present when configured.")


class Autofuel(Resource):
    vault_id: uuid.UUID
    autofuel: bool = Field(description="Whether the vault's autofuel is on.")
