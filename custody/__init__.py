"""Process wiring of the custody wallet service: settings, clock, database, broker, CLI.

The domain rules live in :mod:`domain`; the HTTP layer in :mod:`api`; background jobs in
:mod:`actors`; periodic jobs in :mod:`schedules`; the ORM models in :mod:`models`.
"""
