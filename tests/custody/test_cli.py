"""The operator's path: `custody bootstrap --out FILE`, `custody web`, and the example client."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from custody.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def cli_env(settings) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
            "CUSTODY_DATA_DIR": str(settings.data_dir)}


async def test_bootstrap_file_and_example_client_make_a_first_signed_call(cli_env, database, tmp_path):
    out = tmp_path / "credentials.json"
    port = _free_port()
    # Given the API running as `custody web` (the real server's start-up)...
    web = subprocess.Popen([sys.executable, "-m", "custody.cli", "web", "--host", "127.0.0.1", "--port", str(port)],
                           env=cli_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # ...and, while it starts, a service bootstrapped by `custody bootstrap`
        subprocess.run([sys.executable, "-m", "custody.cli", "bootstrap", "--out", str(out),
                        "--base-url", f"http://127.0.0.1:{port}"], env=cli_env, check=True, capture_output=True)
        # Then the credentials file is private and complete
        assert stat.S_IMODE(out.stat().st_mode) == 0o600
        credentials = json.loads(out.read_text())
        assert {"base_url", "workspace_id", "client_id", "private_key"} <= set(credentials)
        # When the example script uses the file against the API
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline and web.poll() is None, web.stderr.read().decode()[-2000:] if web.poll() is not None else "web did not start"
                time.sleep(0.1)
        result = subprocess.run([sys.executable, str(ROOT / "examples" / "first_call.py"), str(out)],
                                capture_output=True, text=True, timeout=30)
    finally:
        web.terminate()
        web.wait(timeout=15)
    # Then it made an authenticated call in the bootstrapped workspace
    assert result.returncode == 0, result.stderr
    assert credentials["workspace_id"] in result.stdout and '"active": true' in result.stdout


def test_bootstrap_refuses_to_overwrite(settings, tmp_path):
    # Given a file where the credentials would go
    out = tmp_path / "existing.json"
    out.write_text("{}")
    # When `custody bootstrap --out` names it (in this process; the test above runs the command)
    args = build_parser().parse_args(["bootstrap", "--out", str(out)])
    with pytest.raises(SystemExit) as refused:
        args.func(args)
    # Then it exits with an error naming the file, which is left as it was
    assert "exists" in str(refused.value.code) and str(out) in str(refused.value.code)
    assert out.read_text() == "{}"
