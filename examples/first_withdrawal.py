#!/usr/bin/env python3
"""A first withdrawal on the devnet, as an integrator makes it, with the file of `custody bootstrap`.

    python examples/first_withdrawal.py custody-credentials.json

Needs the service running (`scripts/dev`: API, worker, signers, scheduler) and the co-signer
(`custody cosigner run --credentials custody-credentials.json ...`), since a vault's key needs it. Then it:

1. starts a small webhook receiver on 127.0.0.1 and subscribes it to ``transaction.*``;
2. creates two vaults, "Quickstart treasury" and "Quickstart savings", waits for their keys,
   and opens a tDETH wallet in each;
3. funds the treasury from the devnet faucet (``custody faucet``) and waits for the deposit;
4. whitelists an external devnet address and sends 0.5 tDETH there (with X-Idempotency-Key,
   then repeats the request to show the 409 answer), and sends 0.25 tDETH to the savings wallet;
5. follows both until they are final, then prints the balances, the change-log entries since
   the start, and the webhook events received, each with its signature verified;
6. deletes its webhook (its receiver ends with the script), whatever happened before.

Only the standard library and PyNaCl. Exits 1 if a withdrawal does not finish.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import secrets
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from nacl.signing import SigningKey

NETWORK, CURRENCY = "devnet-evm-testnet", "DETH_TEST"
FINAL = {"finished", "failed", "declined", "cancelled", "expired"}


class Api:
    def __init__(self, credentials: dict[str, Any]) -> None:
        self.base_url = credentials["base_url"].rstrip("/")
        self.credentials = credentials
        self.token = ""

    def call(self, method: str, path: str, body: Any = None, *, headers: dict | None = None,
             accept: tuple[int, ...] = (200, 201, 204)) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base_url}{path}", data=data, method=method, headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {self.token}",
            "X-Workspace-Id": self.credentials["workspace_id"], **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        answer = json.loads(raw) if raw else None
        if status not in accept:
            sys.exit(f"{method} {path} -> {status}: {answer}")
        return status, answer

    def login(self) -> None:
        key = SigningKey(base64.b64decode(self.credentials["private_key"]))
        _, server_time = self.call("GET", "/api/v2/auth/time")
        payload = json.dumps({"client_type": self.credentials.get("client_type", "user"),
                              "client_id": self.credentials["client_id"],
                              "timestamp": int(server_time["unix_seconds"]), "nonce": secrets.token_hex(16)})
        signature = base64.b64encode(key.sign(payload.encode()).signature).decode()
        _, token = self.call("POST", "/api/v2/auth/access-token", {"data": payload, "signature": signature})
        self.token = token["access_token"]


class Receiver(ThreadingHTTPServer):
    """Collects webhook deliveries: (headers, raw body)."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[dict[str, str], bytes]] = []
        super().__init__(("127.0.0.1", 0), _Handler)


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the http.server naming
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.deliveries.append(({k.lower(): v for k, v in self.headers.items()}, body))  # type: ignore[attr-defined]
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def verify(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """Standard Webhooks: HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" with the secret."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(part.partition(",")[2], expected) for part in headers["webhook-signature"].split())


def wait(what: str, check: Any, *, timeout: float, poll: float, hint: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting for {what}. {hint}".strip())
        time.sleep(poll)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("credentials", help="the file `custody bootstrap --out` wrote")
    parser.add_argument("--faucet", default=f"{sys.executable} -m custody.cli faucet",
                        help="the faucet command (default: custody faucet of this Python)")
    parser.add_argument("--timeout", type=float, default=180, help="seconds to wait for each step")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks")
    args = parser.parse_args()
    with open(args.credentials) as handle:
        api = Api(json.load(handle))
    api.login()

    receiver = Receiver()
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    _, webhook = api.call("POST", "/api/v1/webhooks", {"url": f"http://127.0.0.1:{receiver.server_port}/hooks",
                                                         "event_types": ["transaction.*"]})
    print(f"webhook {webhook['id']} -> http://127.0.0.1:{receiver.server_port}/hooks")
    try:
        return run(api, args, receiver, webhook)
    finally:
        # The receiver ends with this script: a webhook left pointing at it would fail every
        # delivery from now on (and be disabled after 50).
        receiver.shutdown()
        api.call("DELETE", f"/api/v1/webhooks/{webhook['id']}", accept=(200, 204, 404))
        print(f"webhook {webhook['id']} deleted")


def run(api: Api, args: argparse.Namespace, receiver: Receiver, webhook: dict[str, Any]) -> int:
    """Steps 2 to 5 (see the module docstring), with the webhook of step 1 subscribed."""
    wallets = {}
    for name in ("Quickstart treasury", "Quickstart savings"):
        _, vault = api.call("POST", "/api/v1/vault/accounts", {"name": name})
        wait(f"the key of {name}", lambda: api.call("GET", f"/api/v1/vault/accounts/{vault['id']}")[1]
             ["key_set"]["status"] == "ready", timeout=args.timeout, poll=args.poll,
             hint="Is the co-signer running (custody cosigner run --credentials ...)?")
        _, opened = api.call("POST", "/api/v1/wallet", {"currency_id": CURRENCY, "vault_id": vault["id"]})
        wallets[name] = opened["assets"][0]
        print(f"vault {name!r}: key ready, {CURRENCY} wallet at {wallets[name]['primary_address']['address']}")
    treasury, savings = wallets["Quickstart treasury"], wallets["Quickstart savings"]
    _, snapshot = api.call("GET", "/api/v1/asset/balances/currencies")

    subprocess.run([*args.faucet.split(), "--network", NETWORK, "--address",
                    treasury["primary_address"]["address"], "--amount", "2", "--mine"], check=True,
                   stdout=subprocess.DEVNULL)
    wait("the deposit", lambda: api.call("GET", f"/api/v1/asset/{treasury['id']}")[1]["balances"]["total"] == "2",
         timeout=args.timeout, poll=args.poll, hint="Is the scheduler running (it mines blocks and watches)?")
    print("treasury funded: 2 tDETH")

    counterparty = "0x" + secrets.token_hex(20)
    _, entry = api.call("POST", "/api/v1/whitelist/wallets", {"name": "My exchange", "currency_id": CURRENCY,
                                                                "address": counterparty})
    request = {"amount": str(5 * 10**17), "source_wallet_id": treasury["id"], "target_address": counterparty,
               "target_whitelisted_asset_id": entry["id"]}
    key = {"X-Idempotency-Key": f"quickstart-{secrets.token_hex(8)}"}
    _, external = api.call("POST", "/api/v1/transaction", request, headers=key)
    status, repeat = api.call("POST", "/api/v1/transaction", request, headers=key, accept=(409,))
    print(f"withdrawal to {counterparty}: {external['id']} {external['status']} "
          f"(the same request again: {status}, same transaction: {repeat['id'] == external['id']})")
    _, internal = api.call("POST", "/api/v1/transaction", {
        "amount": str(25 * 10**16), "source_wallet_id": treasury["id"],
        "target_address": savings["primary_address"]["address"], "target_wallet_id": savings["id"]})
    print(f"internal transfer to the savings: {internal['id']} {internal['status']}")

    final = {}
    for tx in (external, internal):
        seen: list[str] = []

        def done(tx: dict = tx, seen: list[str] = seen) -> dict | None:
            _, now = api.call("GET", f"/api/v1/transactions/{tx['id']}")
            if not seen or seen[-1] != now["status"]:
                seen.append(now["status"])
            return now if now["status"] in FINAL else None

        final[tx["id"]] = wait(f"withdrawal {tx['id']}", done, timeout=args.timeout, poll=args.poll)
        print(f"withdrawal {tx['id']}: {' -> '.join(seen)}; fee {final[tx['id']]['formatted_fee']} tDETH, "
              f"tx {final[tx['id']]['tx_hash']}")

    for name, wallet in wallets.items():
        _, asset = api.call("GET", f"/api/v1/asset/{wallet['id']}")
        balance = asset["balances"]
        print(f"{name}: total {balance['total']}, held {balance['held']}, available {balance['available']} tDETH")
    _, changes = api.call("GET", f"/api/v1/transactions/changes?since_cursor={snapshot['cursor']}")
    print(f"change log since cursor {snapshot['cursor']}:")
    for item in changes["items"]:
        print(f"  seq {item['seq']}: {item['type']} {item['status']} {item['formatted_amount']} {item['symbol']}")

    wait("the webhook events", lambda: any(
        json.loads(body)["type"] == "transaction.finished" and json.loads(body)["data"]["id"] == internal["id"]
        for _, body in receiver.deliveries), timeout=args.timeout, poll=args.poll)
    print(f"webhook events received ({len(receiver.deliveries)}):")
    for headers, body in receiver.deliveries:
        event = json.loads(body)
        print(f"  {event['type']:<22} {event['data']['id']} {event['data']['status']:<18} "
              f"signature {'verified' if verify(webhook['secret'], headers, body) else 'INVALID'}")
    ok = all(tx["status"] == "finished" for tx in final.values()) and all(
        verify(webhook["secret"], headers, body) for headers, body in receiver.deliveries)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
