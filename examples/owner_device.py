#!/usr/bin/env python3
"""Act as the workspace owner's device: enroll it, then sign in as it and do what only the owner may.

    python examples/owner_device.py enroll owner-enrollment.json --store owner-device.json
    python examples/owner_device.py whoami --store owner-device.json
    python examples/owner_device.py devices --store owner-device.json [--status pending_confirmation]
    python examples/owner_device.py confirm-device DEVICE_ID "FINGERPRINT" --store owner-device.json
    python examples/owner_device.py call METHOD PATH ['JSON BODY'] --store owner-device.json

``enroll`` reads what ``custody bootstrap --owner-enrollment-out`` (or ``custody owner enroll
--out``) wrote, makes an Ed25519 key pair, registers its public key with the one-time enrollment
secret (POST /api/v2/auth/devices/pairing/register) and prints the device id and the key's
fingerprint. The private key stays in the store file (mode 0600). Read the fingerprint to the
operator, who confirms it with ``custody owner confirm-device``; from then on the device signs
token requests as ``client_type: device`` and acts as the owner.

``call`` signs in and sends one request with the workspace header; ``{workspace}`` in PATH is
replaced by the workspace id. For example (docs/users.md lists every owner action):

    call PUT /api/v1/co-signer/policy '{"cosigner_required": true}'
    call PUT /api/v1/co-signer/designation '{"user_id": "<API user id>"}'
    call POST /api/v1/tags/<tag id>/protect
    call PUT /api/v2/admin/tenants/{workspace}/quorum/actions/manage_tags '{"enabled": true}'
    call POST /api/v2/admin/tenants/{workspace}/change-approvals/<request id>/approve
    call POST /api/v1/backup '{"public_key": "<base64 Curve25519 key>"}'

Like a device's app, it needs only the standard library and PyNaCl.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import sys
import urllib.error
import urllib.request
from typing import Any

from nacl.signing import SigningKey


def request(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """One HTTP call; the status and the JSON answer (errors too: {code, error, details})."""
    data = json.dumps(body).encode() if body is not None else None
    message = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(message, timeout=30) as response:
            raw = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        raw, status = error.read(), error.code
    except urllib.error.URLError as error:
        sys.exit(f"service not reachable at {url}: {error.reason}")
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, {"bytes": len(raw)}


def load_store(path: str) -> dict[str, Any]:
    with open(path) as handle:
        return json.load(handle)


def write_store(path: str, store: dict[str, Any]) -> None:
    """The device's private key lives here: created with mode 0600, never through a symbolic link."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        json.dump(store, handle, indent=2)


def enroll(enrollment_file: str, store_path: str, name: str) -> None:
    with open(enrollment_file) as handle:
        enrollment = json.load(handle)
    base_url = enrollment["base_url"].rstrip("/")
    key = SigningKey.generate()
    status, device = request("POST", f"{base_url}/api/v2/auth/devices/pairing/register", {
        "pairing_token": enrollment["owner_enrollment_secret"], "name": name,
        "public_key": base64.b64encode(bytes(key.verify_key)).decode()})
    if status != 201:
        sys.exit(f"registration refused ({status}): {json.dumps(device)}")
    write_store(store_path, {"base_url": base_url, "workspace_id": device["workspace_id"],
                             "owner_id": device["user_id"], "device_id": device["device_id"],
                             "fingerprint": device["fingerprint"],
                             "private_key": base64.b64encode(bytes(key)).decode()})
    print(f"device {device['device_id']} registered ({device['status']}); key written to {store_path} (mode 0600)")
    print(f"fingerprint: {device['fingerprint']}")
    print("Read the fingerprint to the operator, who confirms it:\n"
          f"  custody owner confirm-device --workspace {device['workspace_id']} --device {device['device_id']} "
          f"--fingerprint \"<the fingerprint you read>\"")


def sign_in(store: dict[str, Any]) -> str:
    """A signed token request as the device (client_type device), exchanged for an access token."""
    base_url = store["base_url"]
    _, server_time = request("GET", f"{base_url}/api/v2/auth/time")
    payload = json.dumps({"client_type": "device", "client_id": store["device_id"],
                          "timestamp": int(server_time["unix_seconds"]), "nonce": secrets.token_hex(16)})
    signature = SigningKey(base64.b64decode(store["private_key"])).sign(payload.encode()).signature
    status, token = request("POST", f"{base_url}/api/v2/auth/access-token",
                            {"data": payload, "signature": base64.b64encode(signature).decode()})
    if status != 200:
        sys.exit(f"sign-in refused ({status}): {json.dumps(token)} (is the device confirmed yet?)")
    return token["access_token"]


def call(store: dict[str, Any], method: str, path: str, body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {sign_in(store)}", "X-Workspace-Id": store["workspace_id"]}
    path = path.replace("{workspace}", store["workspace_id"])
    return request(method.upper(), f"{store['base_url']}{path}", body, headers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("enroll", help="register this device's key with the owner enrollment secret")
    p.add_argument("enrollment_file")
    p.add_argument("--name", default="Owner's device")
    p = commands.add_parser("whoami", help="sign in as the device; introspect the token")
    p = commands.add_parser("devices", help="the workspace's devices (to confirm the pending ones)")
    p.add_argument("--status", default=None)
    p = commands.add_parser("confirm-device", help="confirm a member's device after comparing its fingerprint")
    p.add_argument("device_id")
    p.add_argument("fingerprint")
    p = commands.add_parser("call", help="one request as the owner")
    p.add_argument("method")
    p.add_argument("path")
    p.add_argument("body", nargs="?", default=None, help="a JSON body")
    for command in commands.choices.values():
        command.add_argument("--store", required=True, help="the device's key file (mode 0600)")
    args = parser.parse_args(argv)

    if args.command == "enroll":
        enroll(args.enrollment_file, args.store, args.name)
        return 0
    store = load_store(args.store)
    if args.command == "whoami":
        status, answer = call(store, "POST", "/api/v2/auth/introspect")
    elif args.command == "devices":
        query = f"?tenant_uuid={store['workspace_id']}" + (f"&status={args.status}" if args.status else "")
        status, answer = call(store, "GET", f"/api/v2/auth/devices{query}")
    elif args.command == "confirm-device":
        status, answer = call(store, "POST", f"/api/v2/auth/devices/{args.device_id}/confirm",
                              {"fingerprint": args.fingerprint})
    else:
        status, answer = call(store, args.method, args.path, json.loads(args.body) if args.body else None)
    print(status, json.dumps(answer, indent=2))
    return 0 if status < 400 else 1


if __name__ == "__main__":
    sys.exit(main())
