"""The README's owner walk-through, end to end: `custody bootstrap`'s enrollment file, the example
device script (examples/owner_device.py, a separate process) against the API on a real socket,
and `custody owner confirm-device` as the operator types it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import stat
import sys
import uuid
from pathlib import Path

from core.clock import rfc3339
from core.unit_of_work import unit_of_work
from custody import owner as owner_cli
from custody.cli import build_parser
from domain.bootstrap import bootstrap
from tests.support.serving import served_api

ROOT = Path(__file__).resolve().parents[2]


async def _device_script(*args: str) -> tuple[int, str]:
    script = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "examples" / "owner_device.py"), *args, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(script.communicate(), timeout=120)
    return script.returncode or 0, out.decode()


async def _operator(settings, *argv: str):
    return await owner_cli.run_command(build_parser().parse_args(["owner", *argv]), settings)


async def test_the_owner_walk_through_from_bootstrap_to_owner_actions(client, settings, tmp_path):
    # Given the API on a real socket and a fresh bootstrap's enrollment file (what --owner-enrollment-out writes)
    async with served_api(settings, name=f"custody_owner_{uuid.uuid4().hex[:8]}") as port:
        async with unit_of_work():
            result = await bootstrap(company_name="Acme", company_email="ops@acme.test", workspace_name="Main",
                                     network_type="testnet", owner_email="owner@acme.test")
        enrollment = tmp_path / "owner-enrollment.json"
        enrollment.write_text(json.dumps({
            "base_url": f"http://127.0.0.1:{port}", "workspace_id": result.workspace_id, "owner_id": result.owner_id,
            "owner_enrollment_secret": result.owner_enrollment_secret,
            "expires_at": rfc3339(result.owner_enrollment_expires_at), "not_before": None}))
        store = tmp_path / "owner-device.json"
        # When the owner's device enrolls with it
        code, output = await _device_script("enroll", str(enrollment), "--store", str(store))
        assert code == 0, output
        device_id = re.search(r"device ([0-9a-f-]{36}) registered", output).group(1)  # type: ignore[union-attr]
        fingerprint = re.search(r"fingerprint: ((?:[0-9A-F]{4} ){7}[0-9A-F]{4})", output).group(1)  # type: ignore[union-attr]
        # Then its key stays in a 0600 file, and it cannot act before the operator confirms it
        assert stat.S_IMODE(os.stat(store).st_mode) == 0o600
        code, early = await _device_script("whoami", "--store", str(store))
        assert code != 0 and "sign-in refused (401)" in early
        # When the operator confirms the fingerprint the owner reads out
        confirmed = await _operator(settings, "confirm-device", "--workspace", result.workspace_id,
                                    "--device", device_id, "--fingerprint", fingerprint)
        assert confirmed["status"] == "active"
        # Then the device signs in as the owner and does what only the owner may
        code, whoami = await _device_script("whoami", "--store", str(store))
        assert code == 0 and '"role": "OWNER"' in whoami and '"subject_type": "device"' in whoami, whoami
        for args in (("PUT", "/api/v1/co-signer/policy", '{"cosigner_required": true}'),
                     ("PUT", "/api/v2/admin/tenants/{workspace}/quorum/actions/manage_tags", '{"enabled": true}'),
                     ("PUT", "/api/v1/co-signer/designation", json.dumps({"user_id": result.client_id}))):
            code, answer = await _device_script("call", *args, "--store", str(store))
            assert code == 0 and answer.startswith("200 "), (args, answer)
        code, devices = await _device_script("devices", "--store", str(store))
        assert code == 0 and device_id in devices


def test_the_owner_commands_parse_as_documented():
    parser = build_parser()
    args = parser.parse_args(["owner", "confirm-device", "--device", "d", "--fingerprint", "AB CD"])
    assert (args.owner_command, args.workspace, args.device, args.fingerprint) == ("confirm-device", None, "d", "AB CD")
    args = parser.parse_args(["owner", "enroll", "--workspace", "w", "--out", "owner-enrollment.json"])
    assert (args.owner_command, args.workspace, args.out) == ("enroll", "w", "owner-enrollment.json")
    args = parser.parse_args(["bootstrap", "--out", "c.json", "--owner-enrollment-out", "owner-enrollment.json"])
    assert args.owner_enrollment_out == "owner-enrollment.json"
