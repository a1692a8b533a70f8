"""The gas station: a vault of the workspace that supplies the base asset (gas) to its other vaults.

The withdrawal pipeline builds on this package (it asks about autofuel); the refuels, which are
withdrawals the station makes, build on the pipeline and so live beside it:

- :mod:`domain.gas_station.defaults`: the platform's defaults per network type and base asset
  (``config/gas_station.json``), and which currencies the station supports at all;
- :mod:`domain.gas_station.autofuel`: whether a vault's autofuel is on, and queueing a refuel
  check (used by withdrawals and deposits; imports no withdrawal module);
- :mod:`domain.gas_station.configuration`: the API's services (assign, autofuel on and off, the
  per-asset configuration), audited;
- :mod:`domain.withdrawals.refuels` (not in this package): the refuel check, the retry sweep, the
  budget and the events.

docs/gas-station.md has the rules and the choices made where the spec is silent.
"""
