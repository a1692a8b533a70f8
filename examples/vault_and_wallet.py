#!/usr/bin/env python3
"""Create a vault, wait for its key, open a wallet and show its receiving address.

    .venv/bin/python examples/vault_and_wallet.py custody-credentials.json [--name Treasury] [--currency DETH_TEST] [--fund 2.5]

A vault's key is made by a 2-of-3 distributed key generation whose third participant is the
client's co-signer, so run one next to `custody dev` first (README "Vaults need the client's
co-signer")::

    .venv/bin/custody cosigner run --credentials custody-credentials.json --store cosigner-store \
        --passphrase-file cosigner-passphrase.txt &

Then fund the address on the devnet with the `custody faucet` command this prints, or pass
``--fund AMOUNT``: the script runs that command itself and waits until the deposit is in the
wallet's balance.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

from custody_sdk import Custody, CustodyError
from custody_sdk.openapi.api.vaults import create_vault, get_vault
from custody_sdk.openapi.api.wallets import create_wallet, get_asset, list_assets
from custody_sdk.openapi.models import VaultCreate, WalletCreate


def custody_command() -> str:
    """The `custody` command beside this Python (``.venv/bin/custody`` in a checkout), as typed from here."""
    beside = Path(sys.executable).with_name("custody")
    if not beside.exists():
        return "custody"
    relative = os.path.relpath(beside)
    return relative if not relative.startswith("..") else str(beside)


async def main(args: argparse.Namespace) -> None:
    async with Custody.from_credentials_file(args.credentials) as custody:
        vault = await custody.call(create_vault, body=VaultCreate(name=args.name))
        status = vault.key_set.status if vault.key_set else "missing"
        print(f"vault {vault.id} ({vault.name}): key set {status}")
        deadline = time.monotonic() + args.wait
        while status not in ("ready", "failed"):
            if time.monotonic() > deadline:
                sys.exit(f"the key set is still {status!r} after {args.wait:.0f} s: is a co-signer running "
                         "(custody cosigner run ...)?")
            await asyncio.sleep(1)
            vault = await custody.call(get_vault, vault_id=vault.id)
            status = vault.key_set.status if vault.key_set else "missing"
        if status == "failed":
            sys.exit("the key generation failed; create another vault")
        print("key set ready")

        opened = await custody.call(create_wallet, body=WalletCreate(currency_id=args.currency, vault_id=vault.id))
        for asset in opened.assets:
            print(f"wallet {asset.id}: {asset.currency.id} at {asset.primary_address.address}")
        address = opened.assets[0].primary_address.address
        network = opened.assets[0].currency.network_id
        faucet = [custody_command(), "faucet", "--network", network, "--address", address, "--amount",
                  args.fund or "2.5", "--mine"]
        if not args.fund:
            print(f"\nfund it:  {' '.join(faucet)}")
        else:
            print(f"\nfunding it:  {' '.join(faucet)}")
            subprocess.run(faucet, check=True, stdout=subprocess.DEVNULL)
            wallet_id = opened.assets[0].id
            deadline = time.monotonic() + args.wait
            while Decimal((await custody.call(get_asset, wallet_id=wallet_id)).balances.total) < Decimal(args.fund):
                if time.monotonic() > deadline:
                    sys.exit(f"the deposit did not show within {args.wait:.0f} s: is the scheduler running?")
                await asyncio.sleep(1)
            print(f"deposit credited: {args.fund} {opened.assets[0].currency.symbol}")

        print("\nwallets of the vault:")
        async for asset in custody.items(list_assets, vault_id=vault.id, page_size=100):
            print(f"  {asset.currency.id:<12} {asset.balances.total:>24} {asset.primary_address.address}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("credentials", help="the file `custody bootstrap --out` wrote")
    parser.add_argument("--name", default="Treasury", help="the vault's name")
    parser.add_argument("--currency", default="DETH_TEST", help="the wallet's currency id (GET /api/v1/currencies)")
    parser.add_argument("--wait", type=float, default=120, help="seconds to wait for the key set (and the deposit)")
    parser.add_argument("--fund", default=None, metavar="AMOUNT",
                        help="credit the wallet from the devnet faucet (custody faucet) and wait for the deposit")
    try:
        asyncio.run(main(parser.parse_args()))
    except CustodyError as error:
        sys.exit(f"vault_and_wallet: {error}")
