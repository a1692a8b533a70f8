"""The gas station: a vault of the workspace that supplies the base asset (gas) to its other vaults.

Split so that the withdrawal pipeline can ask about autofuel without importing what builds on it:

- :mod:`domain.gas_station.defaults`: the platform's defaults per network type and base asset
  (``config/gas_station.json``), and which currencies the station supports at all;
- :mod:`domain.gas_station.autofuel`: whether a vault's autofuel is on, and queueing a refuel
  check (used by withdrawals and deposits; imports no withdrawal module);
- :mod:`domain.gas_station.configuration`: the API's services (assign, autofuel on and off, the
  per-asset configuration), audited;
- :mod:`domain.gas_station.refuels`: the refuel check, the retry sweep, the budget and the events;
  refuels go through the withdrawal pipeline (domain.withdrawals).

docs/gas-station.md has the rules and the choices made where the spec is silent.
"""
