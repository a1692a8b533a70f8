"""The low-level package: what every process needs and no domain rule.

Settings, the injectable clock, the request context, sealing of secrets at rest, logging, the
database, the transactional outbox, the unit of work, job declaration and the broker. It
imports nothing of the service above it (models, domain, api, actors, schedules, custody), so
every layer can build on it; ``import-linter`` (pyproject.toml) holds that order in CI.
"""
