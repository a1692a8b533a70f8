"""Regenerate the SDK's generated part (``custody_sdk.openapi``) from the service's OpenAPI document.

    sdk/scripts/generate            # rewrite sdk/openapi.json and sdk/src/custody_sdk/openapi/
    sdk/scripts/generate --check    # change nothing; exit 1 when either is out of date

It runs in the service's environment (the repository on ``sys.path``, the ``[test]`` extra
installed: it pins openapi-python-client and ruff), and needs no server, database or broker:

1. **The document.** The app is built with default settings, started in-process through the
   ASGI lifespan protocol (which is when sanic-ext assembles the document), and asked for
   ``GET /docs/openapi.json`` over httpx's ASGI transport. It is written, as served, to
   ``sdk/openapi.json``: the document the committed client was generated from.
2. **What the generator reads** is that document with the error answers folded (see
   :func:`for_generator`): every error answer of every operation is the same envelope
   ``{code, error, details}``, which the SDK's own layer turns into typed exceptions before a
   generated parser sees it. Left in, they would become one model per operation and status
   (about 800 of the 968 models), and every call's return type a union of them.
3. **The generator**, openapi-python-client with ``sdk/openapi-python-client.yaml``, writes into a
   temporary directory; the result replaces ``sdk/src/custody_sdk/openapi/`` whole (or, with
   ``--check``, is compared with it file by file).

tests/sdk/test_generated.py runs ``--check``, so the suite fails while the committed client is
out of date with the document; as the API grows, run this command and commit what it wrote.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import filecmp
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SDK = Path(__file__).resolve().parent.parent
REPOSITORY = SDK.parent
DOCUMENT = SDK / "openapi.json"
CONFIG = SDK / "openapi-python-client.yaml"
PACKAGE = SDK / "src" / "custody_sdk" / "openapi"
DOCUMENT_PATH = "/docs/openapi.json"
ERROR_FIELDS = {"code", "error", "details"}


# --- 1. the document ------------------------------------------------------------------------------


async def _served_document() -> dict[str, Any]:
    import httpx
    from sanic import Sanic

    from api.app import create_app
    from core.settings import Settings

    Sanic.test_mode = True
    # Defaults only (no environment): the document is the same on every machine.
    app = create_app(Settings.from_env({}), name="openapi_document")
    for name in ("sanic.root", "sanic.error", "sanic.access", "sanic.server"):
        logging.getLogger(name).setLevel(logging.WARNING)  # Sanic's start-up banner is noise here
    to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}}
    lifespan = asyncio.create_task(app(scope, to_app.get, from_app.put))
    try:
        await to_app.put({"type": "lifespan.startup"})
        started = await from_app.get()
        if started["type"] != "lifespan.startup.complete":
            raise RuntimeError(f"the app did not start: {started}")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://document") as http:
            response = await http.get(DOCUMENT_PATH)
        response.raise_for_status()
        return response.json()
    finally:
        await to_app.put({"type": "lifespan.shutdown"})
        await from_app.get()
        await lifespan


def canonical(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with its paths, their methods, tags and components in name order.

    The service serves its document in this order (api.contract.order_document: sanic-ext
    followed the router, whose order changed from one process to the next); the committed
    document is put in it here as well, so that it never depends on that. Properties keep their
    declared order: it is the order of the generated models' fields.
    """
    ordered = dict(document)
    ordered["paths"] = {path: dict(sorted(operations.items()))
                        for path, operations in sorted(document.get("paths", {}).items())}
    if "tags" in document:
        ordered["tags"] = sorted(document["tags"], key=lambda tag: tag.get("name", ""))
    if "components" in document:
        ordered["components"] = {kind: dict(sorted(entries.items())) if isinstance(entries, dict) else entries
                                 for kind, entries in sorted(document["components"].items())}
    return ordered


def served_document() -> dict[str, Any]:
    """The OpenAPI document the app serves at ``/docs/openapi.json``, built in-process (in
    :func:`canonical` order)."""
    if str(REPOSITORY) not in sys.path:
        sys.path.insert(0, str(REPOSITORY))
    return canonical(asyncio.run(_served_document()))


def document_text(document: dict[str, Any]) -> str:
    """The committed form of the document: as served, indented, one trailing newline."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# --- 2. what the generator reads ----------------------------------------------------------------


def _is_error_envelope(schema: Any) -> bool:
    return (isinstance(schema, dict) and schema.get("type") == "object"
            and set(schema.get("required", ())) == ERROR_FIELDS and set(schema.get("properties", {})) == ERROR_FIELDS)


def for_generator(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with its error answers folded, as the generator reads it.

    - Every error answer (an envelope ``{code, error, details}``) leaves the operation's
      ``responses``; its status and codes are appended to the operation's description instead,
      so each generated function's docstring still lists the errors it can raise. A status that
      answers either an object or an envelope (``oneOf``) keeps the object.
    - Header parameters lose ``format: uuid`` (they stay strings): openapi-python-client 0.29
      puts a ``UUID`` object into the headers as it is, and httpx refuses any header value that
      is not ``str`` (its header conversion, openapi-python-client#566, predates the uuid
      format, #1140). ``x_workspace_id`` therefore takes a string.
    - Two components are added: ``ErrorEnvelope``, and ``ErrorCode``, a Literal of every code
      the document names (``custody_sdk.openapi.models.ErrorCode``), for code that branches on
      ``CustodyApiError.code``.
    """
    folded = copy.deepcopy(document)
    codes: set[str] = set()
    for operations in folded.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for parameter in operation.get("parameters", ()):
                if parameter.get("in") == "header" and parameter.get("schema", {}).get("format") == "uuid":
                    parameter["schema"] = {key: value for key, value in parameter["schema"].items() if key != "format"}
            errors: list[str] = []
            for status in sorted(operation["responses"]):
                answer = operation["responses"][status]
                content = (answer.get("content") or {}).get("application/json", {})
                schema = content.get("schema")
                # A status with two bodies (POST /transaction's 409: the transaction it created, or
                # an error envelope) is written as oneOf; the envelope goes, the object stays.
                options = schema.get("oneOf") or schema.get("anyOf") if isinstance(schema, dict) else None
                envelopes = [option for option in options or [] if _is_error_envelope(option)]
                if not _is_error_envelope(schema) and not envelopes:
                    continue
                answer_codes = [code for envelope in envelopes or [schema]
                                for code in envelope["properties"]["code"].get("enum", [])]
                codes.update(answer_codes)
                errors.append(f"{status} {', '.join(answer_codes)}")
                rest = [option for option in options or [] if not _is_error_envelope(option)]
                if rest:
                    content["schema"] = rest[0] if len(rest) == 1 else {"oneOf": rest}
                else:
                    del operation["responses"][status]
            if errors:
                description = operation.get("description") or ""
                listed = "Errors (raised as custody_sdk.CustodyApiError): " + "; ".join(errors) + "."
                operation["description"] = f"{description}\n\n{listed}" if description else listed
    schemas = folded.setdefault("components", {}).setdefault("schemas", {})
    schemas["ErrorCode"] = {"type": "string", "enum": sorted(codes),
                            "description": "Every error code the document names (codes are stable between releases)."}
    schemas["ErrorEnvelope"] = {
        "type": "object", "required": ["code", "error", "details"], "additionalProperties": False,
        "description": "The body of every error answer.",
        "properties": {"code": {"type": "string"}, "error": {"type": "string"},
                       "details": {"type": "object", "additionalProperties": True}},
    }
    return folded


# --- 3. the generator ---------------------------------------------------------------------------


def generate(document: dict[str, Any], output: Path) -> None:
    """Run openapi-python-client on ``document`` (folded) into ``output`` (which must not exist)."""
    with tempfile.TemporaryDirectory(prefix="custody-openapi-") as scratch:
        source = Path(scratch) / "openapi.json"
        source.write_text(json.dumps(for_generator(document), indent=2))
        bin_dir = str(Path(sys.executable).parent)
        # The generator's post hooks call ruff by name: the one pinned next to this interpreter.
        env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
        result = subprocess.run(
            [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(source), "--config",
             str(CONFIG), "--meta", "none", "--output-path", str(output)],
            env=env, capture_output=True, text=True, timeout=300)
    printed = result.stdout + result.stderr
    # A warning means something of the document was skipped: a client that is silently missing
    # an operation is worse than no client, so that is a failure.
    if result.returncode != 0 or "Warning" in printed or "Error" in printed:
        raise SystemExit(f"openapi-python-client failed:\n{printed}")
    for cache in output.rglob("__pycache__"):
        shutil.rmtree(cache)


def differences(expected: Path, actual: Path) -> list[str]:
    """Paths (relative) that differ between two trees: missing on either side or changed."""
    found: list[str] = []

    def walk(comparison: filecmp.dircmp[str], prefix: str) -> None:
        found.extend(f"{prefix}{name}" for name in comparison.left_only + comparison.right_only
                     if name != "__pycache__")
        _, mismatch, errors = filecmp.cmpfiles(comparison.left, comparison.right, comparison.common_files,
                                               shallow=False)
        found.extend(f"{prefix}{name}" for name in mismatch + errors)
        for name, sub in comparison.subdirs.items():
            if name != "__pycache__":
                walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(str(expected), str(actual), ignore=["__pycache__"]), "")
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when the committed document or client is out of date")
    args = parser.parse_args(argv)
    document = served_document()
    with tempfile.TemporaryDirectory(prefix="custody-sdk-") as scratch:
        fresh = Path(scratch) / "openapi"
        generate(document, fresh)
        if args.check:
            stale = [] if DOCUMENT.exists() and DOCUMENT.read_text() == document_text(document) else [
                str(DOCUMENT.relative_to(REPOSITORY))]
            if not PACKAGE.is_dir():
                stale.append(str(PACKAGE.relative_to(REPOSITORY)))
            else:
                stale += [f"{PACKAGE.relative_to(REPOSITORY)}/{name}" for name in differences(fresh, PACKAGE)]
            if stale:
                print("The generated SDK is out of date with the service's OpenAPI document; run sdk/scripts/generate "
                      "and commit the result. Differing:\n  " + "\n  ".join(stale), file=sys.stderr)
                return 1
            print("The generated SDK is current.")
            return 0
        DOCUMENT.write_text(document_text(document))
        if PACKAGE.exists():
            shutil.rmtree(PACKAGE)
        shutil.copytree(fresh, PACKAGE)
    print(f"Wrote {DOCUMENT.relative_to(REPOSITORY)} and {PACKAGE.relative_to(REPOSITORY)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
