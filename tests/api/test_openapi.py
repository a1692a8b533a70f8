"""The OpenAPI document tells the truth: every operation, sent requests generated from the document
itself (valid ones and invalid ones, by schemathesis), answers no 5xx and only statuses, content
types and bodies its own entry in the document describes.

Then every operation gets what an attacker sends on top (:func:`_hostile_requests`): malformed
and oversized headers, query values that are blank, huge, negative, NUL-laden or of the wrong
shape, and bodies whose every field is swapped for a NUL-laden string, a number beyond 64 bits,
an object, an array, deep nesting, bytes that are not UTF-8 or not JSON. Every answer is a 4xx
(or a success) with the error envelope: never a 5xx.

Examples per operation are bounded (``OPENAPI_EXAMPLES``, default 3 of each kind) and derandomized,
so CI runs the same requests every time; set ``OPENAPI_SEED`` to explore other ones.
"""

from __future__ import annotations

import hashlib
import json
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
from schemathesis.core import NotSet
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from core.unit_of_work import unit_of_work
from domain import tags, vaults
from models.workspaces import Workspace
from tests.support.approvals import make_owner

EXAMPLES = int(os.environ.get("OPENAPI_EXAMPLES", "3"))
SEED = os.environ.get("OPENAPI_SEED")
POSITIVE_CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
                   response_schema_conformance]
NEGATIVE_CHECKS = [*POSITIVE_CHECKS, negative_data_rejection]


#: What :func:`_cases` drew, by document (its digest), operation, mode and overrides: both tests of
#: the module ask for each operation's valid requests, and drawing them is most of a test's CPU.
_DRAWN: dict[tuple[str, str, str, GenerationMode, str], list[Any]] = {}


def _digest(document: Any) -> str:
    return hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()


def _cases(operation: Any, mode: GenerationMode, *, document: str, **overrides: Any) -> list[Any]:
    """``EXAMPLES`` requests for ``operation`` (deterministic unless OPENAPI_SEED is set), drawn once
    per process for one document (``document``: its :func:`_digest`)."""
    key = (document, operation.method.upper(), operation.path, mode, json.dumps(overrides, sort_keys=True))
    if key not in _DRAWN:
        _DRAWN[key] = _draw(operation, mode, **overrides)
    return _DRAWN[key]


def _draw(operation: Any, mode: GenerationMode, **overrides: Any) -> list[Any]:
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
    owner = await make_owner(platform_admin=True)
    async with unit_of_work():
        vault = await vaults.create_vault(principal=None, workspace_id=uuid.UUID(owner.workspace_id), name="Fuzzed")
    _, document = await client.get("/docs/openapi.json")
    assert document.status == 200
    schema = schemathesis.openapi.from_dict(document.json)
    digest = _digest(document.json)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 60
    workspace = await Workspace.get(id=owner.workspace_id)
    known_ids = {"vault_id": str(vault.vault.id), "company_id": str(workspace.company_id),  # type: ignore[attr-defined]
                 "user_id": owner.user_id}
    async with unit_of_work():
        tag = await tags.create_tag(principal=None, workspace_id=uuid.UUID(owner.workspace_id),
                                    tag=tags.NewTag(label="Fuzzed"))
    known_ids["tag_id"] = str(tag.id)
    failures: list[str] = []
    sent = 0
    for operation in operations:
        path_ids = {name: value for name, value in known_ids.items() if f"{{{name}}}" in operation.path}
        plans = [(GenerationMode.POSITIVE, {}, POSITIVE_CHECKS), (GenerationMode.NEGATIVE, {}, NEGATIVE_CHECKS)]
        if path_ids:
            plans.append((GenerationMode.POSITIVE, {"path_parameters": path_ids}, POSITIVE_CHECKS))
        for mode, overrides, checks in plans:
            for case in _cases(operation, mode, document=digest, **overrides):
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


# --- hostile requests ------------------------------------------------------------------------------

#: Query values that are bad for any parameter: blank, beyond 64 bits, negative, NUL, control
#: characters, non-ASCII digits, a JSON shape where a scalar is expected.
HOSTILE_QUERY_VALUES = ["", "9" * 30, "-" + "9" * 30, "a\x00b", "\x1b[31m", "①②③", "[]", "x" * 5000]
#: Headers every caller controls.
HOSTILE_HEADERS = [
    {"Authorization": "Bearer " + "A" * 5000}, {"Authorization": "Basic dXNlcjpwYXNz"}, {"Authorization": "Bearer"},
    {"X-Workspace-Id": "not-a-uuid"}, {"X-Workspace-Id": "0" * 5000}, {"X-Workspace-Id": str(uuid.uuid4())},
    {"X-Request-Id": "x" * 5000}, {"Content-Type": "text/plain"}, {"Content-Type": "application/json; charset=latin-1"},
]
NESTED = "[" * 5000 + "]" * 5000


def _mutations(value: Any) -> list[Any]:
    """``value`` with, in turn, each leaf replaced by each hostile value (one field at a time)."""
    hostile = ["a\x00b", "\x07bell", 2**64, -(2**64), {}, [], None]
    if isinstance(value, dict):
        found = []
        for key, inner in value.items():
            found.extend({**value, key: variant} for variant in _mutations(inner))
        return found
    if isinstance(value, list) and value:
        return [[variant, *value[1:]] for variant in _mutations(value[0])] + [[value[0]] * 2000]
    return hostile


def _hostile_requests(operation: Any, base_body: Any) -> list[tuple[str, dict[str, Any]]]:
    """(label, request keyword arguments) for one operation."""
    requests: list[tuple[str, dict[str, Any]]] = [(f"header {h}", {"headers": h}) for h in HOSTILE_HEADERS]
    for parameter in operation.definition.raw.get("parameters", []):
        if parameter.get("in") == "query":
            requests += [(f"query {parameter['name']}={v!r}", {"params": {parameter["name"]: v}})
                         for v in HOSTILE_QUERY_VALUES]
    if "requestBody" in operation.definition.raw:
        requests += [("body not JSON", {"content": b"{not json"}), ("body not UTF-8", {"content": b'{"a": "\xff\xfe"}'}),
                     ("body array", {"content": b"[1, 2]"}), ("body nested", {"content": NESTED.encode()}),
                     ("body nested in a field", {"content": ('{"name": ' + NESTED + "}").encode()}),
                     ("body lone surrogate", {"content": b'{"name": "\\ud800"}'})]
        if isinstance(base_body, dict):
            requests += [(f"body {json.dumps(b)[:120]}", {"json": b}) for b in _mutations(base_body)]
    return requests


async def test_hostile_headers_queries_and_bodies_never_get_a_5xx(client, app):
    # Given a caller with every permission in its workspace, and every operation of the document
    owner = await make_owner(platform_admin=True)
    _, document = await client.get("/docs/openapi.json")
    schema = schemathesis.openapi.from_dict(document.json)
    digest = _digest(document.json)
    operations = [result.ok() for result in schema.get_all_operations()]
    failures: list[str] = []
    sent = 0
    for operation in operations:
        valid = _cases(operation, GenerationMode.POSITIVE, document=digest)
        base = valid[0] if valid else None
        body = base.body if base is not None and not isinstance(base.body, NotSet) else None
        path = base.formatted_path if base is not None else operation.path
        for label, request in _hostile_requests(operation, body):
            headers = {"Authorization": f"Bearer {owner.token}", "X-Workspace-Id": owner.workspace_id,
                       **request.pop("headers", {})}
            # When it is sent
            _, response = await client.request(operation.method.upper(), path, headers=headers, **request)
            sent += 1
            # Then it is never a server error, and a refusal is the envelope
            problem = None
            if response.status >= 500:
                problem = "server error"
            elif response.status >= 400 and response.headers.get("content-type", "").startswith("application/json"):
                if set(response.json or {}) != {"code", "error", "details"}:
                    problem = "not the error envelope"
            if problem:
                failures.append(f"{operation.method.upper()} {path} [{label}] -> {response.status} {problem}: "
                                f"{response.text[:200]}")
    assert sent > len(operations) * 10
    assert not failures, f"{len(failures)} of {sent} hostile requests:\n" + "\n".join(failures[:40])
