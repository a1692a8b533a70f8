"""Liveness and readiness answers (/health, /ready)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from api.schemas.common import Resource


class Health(Resource):
    status: Literal["ok"] = Field(description="The process is up and serving requests.")


class Check(Resource):
    ok: bool
    detail: str | None = Field(None, description="Why the check failed (no internals, no secrets).")


class Readiness(Resource):
    status: Literal["ready", "not_ready"]
    database: Check
    redis: Check
    migrations: Check
