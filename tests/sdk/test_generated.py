"""The SDK's generated part (sdk/src/custody_sdk/openapi, from sdk/openapi.json) is current with
the service's OpenAPI document, and the SDK is a package of its own."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]
GENERATE = ROOT / "sdk" / "scripts" / "generate_client.py"


def _generator_module():  # noqa: ANN202
    spec = importlib.util.spec_from_file_location("generate_client", GENERATE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_client_is_current_with_the_document():
    # When the document is built from the app and the client generated into a temp dir
    # (sdk/scripts/generate --check, in a process of its own: it builds its own app)
    result = subprocess.run([sys.executable, str(GENERATE), "--check"], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    # Then both equal what is committed; otherwise the message says what to run
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_check_names_every_file_that_differs(tmp_path):
    # Given a committed tree and a fresh one that differ by a changed, a missing and an extra file
    generator = _generator_module()
    committed, fresh = tmp_path / "committed", tmp_path / "fresh"
    for tree in (committed, fresh):
        (tree / "api" / "vaults").mkdir(parents=True)
        (tree / "api" / "vaults" / "get_vault.py").write_text("same\n")
    (committed / "client.py").write_text("old\n")
    (fresh / "client.py").write_text("new\n")
    (fresh / "api" / "vaults" / "create_vault.py").write_text("new operation\n")
    (committed / "api" / "vaults" / "removed.py").write_text("gone from the document\n")
    # Then the comparison lists exactly those
    assert generator.differences(fresh, committed) == ["api/vaults/create_vault.py", "api/vaults/removed.py",
                                                       "client.py"]


def test_error_answers_are_folded_into_descriptions_and_codes():
    # Given an operation with a success and two error answers
    generator = _generator_module()
    envelope = {"type": "object", "required": ["code", "error", "details"],
                "properties": {"code": {"type": "string", "enum": ["VAULT_NOT_FOUND"]}, "error": {"type": "string"},
                               "details": {"type": "object"}}}
    document = {"paths": {"/v/{id}": {"get": {
        "description": "One vault.",
        "parameters": [{"name": "X-Workspace-Id", "in": "header", "schema": {"type": "string", "format": "uuid"}}],
        "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/V"}}}},
                      "404": {"content": {"application/json": {"schema": envelope}}},
                      "401": {"content": {"application/json": {"schema": {
                          **envelope, "properties": {**envelope["properties"], "code": {
                              "type": "string", "enum": ["INVALID_TOKEN"]}}}}}}}}}},
        "components": {"schemas": {"V": {"type": "object"}}}}
    # When it is prepared for the generator
    folded = generator.for_generator(document)
    operation = folded["paths"]["/v/{id}"]["get"]
    # Then only the success answer is left, the errors are listed in the description, every code
    # is in ErrorCode, and the header parameter is a plain string
    assert list(operation["responses"]) == ["200"]
    assert operation["description"].endswith("401 INVALID_TOKEN; 404 VAULT_NOT_FOUND.")
    assert folded["components"]["schemas"]["ErrorCode"]["enum"] == ["INVALID_TOKEN", "VAULT_NOT_FOUND"]
    assert operation["parameters"][0]["schema"] == {"type": "string"}
    assert "404" in document["paths"]["/v/{id}"]["get"]["responses"]  # the input is left alone


def test_a_status_with_an_object_or_an_envelope_keeps_the_object():
    # Given POST /transaction's 409 as the withdrawals document it: the transaction a repeated
    # idempotency key created, or an error envelope
    generator = _generator_module()
    envelope = {"type": "object", "required": ["code", "error", "details"],
                "properties": {"code": {"type": "string", "enum": ["INSUFFICIENT_BALANCE"]},
                               "error": {"type": "string"}, "details": {"type": "object"}}}
    transaction = {"$ref": "#/components/schemas/Transaction"}
    document = {"paths": {"/api/v1/transaction": {"post": {"responses": {
        "201": {"content": {"application/json": {"schema": transaction}}},
        "409": {"content": {"application/json": {"schema": {"oneOf": [transaction, envelope]}}}}}}}}}
    # When it is prepared for the generator
    operation = generator.for_generator(document)["paths"]["/api/v1/transaction"]["post"]
    # Then the 409 is the transaction (the SDK parses a replay with it) and its codes are listed
    assert operation["responses"]["409"]["content"]["application/json"]["schema"] == transaction
    assert operation["description"] == "Errors (raised as custody_sdk.CustodyApiError): 409 INSUFFICIENT_BALANCE."


def test_the_sdk_is_packaged_on_its_own():
    # Given the service's and the SDK's pyproject.toml
    service = tomllib.loads((ROOT / "pyproject.toml").read_text())
    sdk = tomllib.loads((ROOT / "sdk" / "pyproject.toml").read_text())
    # Then the service's packages leave the SDK out...
    found = service["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(str(ROOT), include=found["include"], exclude=found.get("exclude", ()))
    assert "custody" in packages and not [p for p in packages if p.startswith(("custody_sdk", "sdk"))]
    # ...and the SDK depends on nothing of the service: its packages are its own, its
    # requirements are public libraries
    sdk_find = sdk["tool"]["setuptools"]["packages"]["find"]
    sdk_packages = find_packages(str(ROOT / "sdk" / sdk_find["where"][0]), include=sdk_find["include"])
    assert sdk_packages and all(p.startswith("custody_sdk") for p in sdk_packages)
    names = {requirement.split(">")[0].split("=")[0].split("<")[0] for requirement in sdk["project"]["dependencies"]}
    assert names == {"httpx", "attrs", "pynacl", "standardwebhooks"}
