#!/usr/bin/env python3
"""Make a first authenticated call with the file written by `custody bootstrap --out FILE`.

    python examples/first_call.py custody-credentials.json

It reads base_url, client_id, private_key (Ed25519 seed, base64) and workspace_id; asks the
server for its time; signs the token request payload; exchanges it for an access token; then
calls GET /api/v1/workspace and POST /api/v2/auth/introspect. Needs only PyNaCl.
"""

from __future__ import annotations

import base64
import json
import secrets
import sys
import urllib.error
import urllib.request
from typing import Any

from nacl.signing import SigningKey


def call(method: str, url: str, body: dict | None = None, headers: dict | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        sys.exit(f"{method} {url} -> {error.code}: {error.read().decode()}")
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        base = url.split("/api/", 1)[0]
        sys.exit(f"service not reachable at {base}: {reason} (is `scripts/dev` running?)")


def main(path: str) -> None:
    with open(path) as handle:
        credentials = json.load(handle)
    base_url = credentials["base_url"].rstrip("/")
    signing_key = SigningKey(base64.b64decode(credentials["private_key"]))

    server_time = call("GET", f"{base_url}/api/v2/auth/time")
    payload = json.dumps({
        "client_type": credentials.get("client_type", "user"),
        "client_id": credentials["client_id"],
        "timestamp": int(server_time["unix_seconds"]),
        "nonce": secrets.token_hex(16),
    })
    signature = base64.b64encode(signing_key.sign(payload.encode()).signature).decode()
    token = call("POST", f"{base_url}/api/v2/auth/access-token", {"data": payload, "signature": signature})
    headers = {"Authorization": f"Bearer {token['access_token']}", "X-Workspace-Id": credentials["workspace_id"]}

    workspace = call("GET", f"{base_url}/api/v1/workspace", headers=headers)
    print("workspace:", json.dumps(workspace, indent=2))
    introspection = call("POST", f"{base_url}/api/v2/auth/introspect", headers=headers)
    print("token:", json.dumps(introspection, indent=2))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
