#!/usr/bin/env python3
"""A first authenticated call with the SDK and the file `custody bootstrap --out FILE` wrote.

    python examples/first_call.py custody-credentials.json

Needs the SDK: ``pip install ./sdk`` (scripts/setup installs it into .venv). The client reads
base_url, workspace_id, client_id and the Ed25519 key from the file, signs a token request, and
calls GET /api/v1/workspace and POST /api/v2/auth/introspect with the token.
examples/first_call_raw.py does the same by hand, without the SDK.
"""

from __future__ import annotations

import asyncio
import json
import sys

from custody_sdk import ConnectionFailed, Custody, CustodyError
from custody_sdk.openapi.api.auth import introspect
from custody_sdk.openapi.api.workspaces import current_workspace


async def main(path: str) -> None:
    async with Custody.from_credentials_file(path) as custody:
        workspace = await custody.call(current_workspace)
        print("workspace:", json.dumps(workspace.to_dict(), indent=2))
        token = await custody.call(introspect)
        print("token:", json.dumps(token.to_dict(), indent=2))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        asyncio.run(main(sys.argv[1]))
    except ConnectionFailed as error:
        base = error.url.split("/api/", 1)[0]
        sys.exit(f"service not reachable at {base} (is `scripts/dev` running?): {error}")
    except CustodyError as error:
        sys.exit(f"first_call: {error}")
