#!/usr/bin/env python3
"""An ERC-20 withdrawal on evm-local that needs gas, and the gas station that sends it.

    python examples/erc20_refuel.py custody-credentials.json

Needs the service running (`scripts/dev`: API, worker, signers, scheduler and `evm-local`, the
local py-evm chain) and the co-signer (`custody cosigner run --credentials ...`), since a vault's
keys need it. Then it:

1. creates two vaults, "Gas station" and "Token vault", and waits until their keys are ready (the
   threshold ECDSA key set an EVM address needs is one of them);
2. opens an ETH_LOCAL wallet in the first and a USDC_ETH_LOCAL wallet (the test ERC-20 that
   `custody dev` deployed) in the second;
3. funds them from the evm-local faucet: 1 ETH to the station, 100 USDC and **no ETH** to the
   token vault, and waits for both deposits;
4. makes the first vault the workspace's gas station (`POST /api/v1/gas_station/vault/{id}`) and
   turns autofuel on for the token vault (`POST /api/v1/vault/accounts/{id}/autofuel/activate`);
5. whitelists an outside address and sends it 10 USDC from the token vault: the withdrawal is
   accepted although the vault has no ETH for its fee; the station sends real gas (a refuel,
   itself a withdrawal signed by the station's threshold key) and, once it is final, the token
   withdrawal goes on and finishes;
6. prints the statuses each went through, the refuel, the fees and the balances left.

Only the standard library and PyNaCl. Exits 1 if the token withdrawal does not finish.
"""

from __future__ import annotations

import argparse
import base64
import json
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from nacl.signing import SigningKey

NETWORK, ETH, TOKEN = "evm-local", "ETH_LOCAL", "USDC_ETH_LOCAL"
FINAL = {"finished", "failed", "declined", "cancelled", "expired"}


class Api:
    def __init__(self, credentials: dict[str, Any]) -> None:
        self.base_url = credentials["base_url"].rstrip("/")
        self.credentials = credentials
        self.token = ""

    def call(self, method: str, path: str, body: Any = None, *, accept: tuple[int, ...] = (200, 201, 204)) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base_url}{path}", data=data, method=method, headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {self.token}",
            "X-Workspace-Id": self.credentials["workspace_id"]})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        answer = json.loads(raw) if raw else None
        if status not in accept:
            sys.exit(f"{method} {path} -> {status}: {answer}")
        return answer

    def login(self) -> None:
        key = SigningKey(base64.b64decode(self.credentials["private_key"]))
        server_time = self.call("GET", "/api/v2/auth/time")
        payload = json.dumps({"client_type": self.credentials.get("client_type", "user"),
                              "client_id": self.credentials["client_id"],
                              "timestamp": int(server_time["unix_seconds"]), "nonce": secrets.token_hex(16)})
        signature = base64.b64encode(key.sign(payload.encode()).signature).decode()
        self.token = self.call("POST", "/api/v2/auth/access-token", {"data": payload, "signature": signature})[
            "access_token"]


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
    parser.add_argument("--timeout", type=float, default=300, help="seconds to wait for each step")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks")
    args = parser.parse_args()
    with open(args.credentials) as handle:
        api = Api(json.load(handle))
    api.login()

    # 1-2: two vaults, their keys, a wallet in each.
    wallets = {}
    for name, currency in (("Gas station", ETH), ("Token vault", TOKEN)):
        vault = api.call("POST", "/api/v1/vault/accounts", {"name": name})

        def keys_ready(vault: dict = vault) -> bool:
            key_sets = api.call("GET", f"/api/v1/vault/accounts/{vault['id']}")["key_sets"]
            return bool(key_sets) and all(k["status"] == "ready" for k in key_sets)
        wait(f"the keys of {name}", keys_ready, timeout=args.timeout, poll=args.poll,
             hint="Is the co-signer running (custody cosigner run --credentials ...)?")
        opened = api.call("POST", "/api/v1/wallet", {"currency_id": currency, "vault_id": vault["id"]})
        wallets[name] = (vault, next(a for a in opened["assets"] if a["currency"]["id"] == currency))
        print(f"vault {name!r}: keys ready, {currency} wallet at {wallets[name][1]['primary_address']['address']}")
    (station_vault, gas), (token_vault, tokens) = wallets["Gas station"], wallets["Token vault"]
    token_address = tokens["primary_address"]["address"]

    # 3: 1 ETH to the station, 100 USDC (and no ETH) to the token vault.
    for address, amount, currency in ((gas["primary_address"]["address"], "1", ETH), (token_address, "100", TOKEN)):
        subprocess.run([*args.faucet.split(), "--network", NETWORK, "--address", address, "--amount", amount,
                        "--currency", currency], check=True, stdout=subprocess.DEVNULL)
    for wallet, amount, symbol in ((gas, "1", "ETH"), (tokens, "100", "USDC")):
        wait(f"the {symbol} deposit", lambda wallet=wallet, amount=amount: float(
            api.call("GET", f"/api/v1/asset/{wallet['id']}")["balances"]["total"]) == float(amount),
             timeout=args.timeout, poll=args.poll, hint="Is the scheduler running (it watches the chain)?")
        print(f"deposit credited: {amount} {symbol}")

    # 4: the gas station, and autofuel on for the token vault.
    station = api.call("POST", f"/api/v1/gas_station/vault/{station_vault['id']}")
    config = next(a for a in station["assets"] if a["currency_id"] == ETH)
    print(f"gas station: vault {station_vault['id']}; refuels below {config['threshold']} wei up to {config['cap']} wei")
    api.call("POST", f"/api/v1/vault/accounts/{token_vault['id']}/autofuel/activate")
    print("autofuel on for the token vault (it holds no ETH)")

    # 5: 10 USDC out to a whitelisted address.
    counterparty = "0x" + secrets.token_hex(20)
    entry = api.call("POST", "/api/v1/whitelist/wallets", {"name": "My exchange", "currency_id": TOKEN,
                                                            "address": counterparty})
    out = api.call("POST", "/api/v1/transaction", {
        "amount": str(10 * 10**6), "source_wallet_id": tokens["id"], "target_address": counterparty,
        "target_whitelisted_asset_id": entry["id"]})
    print(f"withdrawal of 10 USDC to {counterparty}: {out['id']} {out['status']}")
    seen: list[str] = []

    def done() -> dict | None:
        now = api.call("GET", f"/api/v1/transactions/{out['id']}")
        if not seen or seen[-1] != now["status"]:
            seen.append(now["status"])
        return now if now["status"] in FINAL else None
    final = wait(f"withdrawal {out['id']}", done, timeout=args.timeout, poll=args.poll)
    print(f"withdrawal {out['id']}: {' -> '.join(seen)}; fee {final['formatted_fee']} ETH, tx {final['tx_hash']}")

    # 6: the refuel the station sent, and what is left.
    sent = api.call("GET", f"/api/v1/transactions?vault_id={station_vault['id']}&direction=outgoing&limit=20")
    for refuel in sent["items"]:
        if refuel["to"]["address"] == token_address:
            print(f"refuel from the gas station: {refuel['id']} {refuel['status']} {refuel['formatted_amount']} ETH, "
                  f"tx {refuel['tx_hash']}")
    for name, (vault, _) in wallets.items():
        for asset in api.call("GET", f"/api/v1/asset?vaultID={vault['id']}")["assets"]:
            print(f"{name}: {asset['balances']['total']} {asset['currency']['id']}")
    return 0 if final["status"] == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
