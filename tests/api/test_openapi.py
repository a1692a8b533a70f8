"""The OpenAPI document tells the truth: every operation, sent requests generated from the document
itself (valid ones and invalid ones, by schemathesis), answers no 5xx and only statuses, content
types and bodies its own entry in the document describes.

Examples per operation are bounded (``OPENAPI_EXAMPLES``, default 3 of each kind) and derandomized,
so CI runs the same requests every time; set ``OPENAPI_SEED`` to explore other ones.
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from core.unit_of_work import unit_of_work
from domain import vaults
from models.workspaces import Workspace
from tests.support.callers import make_caller

EXAMPLES = int(os.environ.get("OPENAPI_EXAMPLES", "3"))
SEED = os.environ.get("OPENAPI_SEED")
POSITIVE_CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
                   response_schema_conformance]
NEGATIVE_CHECKS = [*POSITIVE_CHECKS, negative_data_rejection]


def _cases(operation: Any, mode: GenerationMode, **overrides: Any) -> list[Any]:
    """``EXAMPLES`` requests for ``operation`` (deterministic unless OPENAPI_SEED is set)."""
    drawn: list[Any] = []

    @hypothesis_settings(max_examples=EXAMPLES, database=None, deadline=None, derandomize=SEED is None,
                         suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(operation.as_strategy(generation_mode=mode, **overrides))
    def collect(case: Any) -> None:
        drawn.append(case)

    if SEED is not None:
        collect._hypothesis_internal_use_seed = int(SEED)  # type: ignore[attr-defined]
    try:
        collect()
    except Unsatisfiable:
        pass  # nothing of this operation can be made invalid (no parameters, no body)
    return drawn


async def _send(client: Any, case: Any, headers: dict[str, str]) -> httpx.Response:
    kwargs = case.as_transport_kwargs(base_url="http://testserver", headers=headers)
    request: dict[str, Any] = {"headers": kwargs.get("headers") or {}, "params": kwargs.get("params") or None}
    if "json" in kwargs:
        request["json"] = kwargs["json"]
    elif kwargs.get("data") is not None:
        request["content"] = kwargs["data"] if isinstance(kwargs["data"], (bytes, str)) else str(kwargs["data"])
    url = kwargs["url"].removeprefix("http://testserver")
    _, response = await client.request(kwargs["method"], url, **request)
    return response._response  # the httpx response schemathesis validates


async def test_every_operation_answers_as_its_document_says(client, app):
    # Given an OWNER of a workspace with a vault, and the app's own OpenAPI document
    owner = await make_caller(role="OWNER", platform_admin=True)
    async with unit_of_work():
        vault = await vaults.create_vault(principal=None, workspace_id=uuid.UUID(owner.workspace_id), name="Fuzzed")
    _, document = await client.get("/docs/openapi.json")
    assert document.status == 200
    schema = schemathesis.openapi.from_dict(document.json)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 60
    workspace = await Workspace.get(id=owner.workspace_id)
    known_ids = {"vault_id": str(vault.vault.id), "company_id": str(workspace.company_id),  # type: ignore[attr-defined]
                 "user_id": owner.user_id}
    failures: list[str] = []
    sent = 0
    for operation in operations:
        path_ids = {name: value for name, value in known_ids.items() if f"{{{name}}}" in operation.path}
        plans = [(GenerationMode.POSITIVE, {}, POSITIVE_CHECKS), (GenerationMode.NEGATIVE, {}, NEGATIVE_CHECKS)]
        if path_ids:
            plans.append((GenerationMode.POSITIVE, {"path_parameters": path_ids}, POSITIVE_CHECKS))
        for mode, overrides, checks in plans:
            for case in _cases(operation, mode, **overrides):
                # When it is sent with a valid token, and (for valid requests) the caller's workspace
                headers = {"Authorization": f"Bearer {owner.token}"}
                if mode is GenerationMode.POSITIVE:
                    headers["X-Workspace-Id"] = owner.workspace_id
                response = await _send(client, case, headers)
                sent += 1
                # Then the answer is one the document describes, and never a server error
                try:
                    case.validate_response(response, checks=checks)
                except FailureGroup as group:
                    failures.append(f"{case.method} {case.formatted_path} ({mode.value}) -> {response.status_code} "
                                    f"{response.text[:300]}: " + "; ".join(str(f.title) for f in group.exceptions)
                                    + f"\n    sent query={case.query!r} headers={case.headers!r} body={case.body!r}")
                except AssertionError as error:
                    failures.append(f"{case.method} {case.formatted_path} ({mode.value}) -> {response.status_code}: "
                                    f"{error}")
    assert sent >= len(operations) * 2
    assert not failures, f"{len(failures)} of {sent} answers break the document:\n" + "\n".join(failures[:40])


@pytest.fixture(autouse=True)
def _quiet_schemathesis(monkeypatch: pytest.MonkeyPatch) -> None:
    # schemathesis reads its configuration from the environment; keep a developer's out of this test
    monkeypatch.delenv("SCHEMATHESIS_HOOKS", raising=False)
