"""``custody faucet`` (custody/faucet.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from custody.cli import build_parser
from custody.faucet import faucet_command
from domain.errors import DomainError
from domain.networks.registry import get_adapter
from models.devnet import DevnetTransaction

EVM = "devnet-evm-testnet"
ADDRESS = "0x" + "42" * 20


def test_the_command_line_of_the_faucet():
    args = build_parser().parse_args(["faucet", "--network", EVM, "--address", ADDRESS, "--amount", "1.5",
                                 "--currency", "DUSD_TEST", "--mine"])
    assert (args.network, args.address, args.amount, args.currency, args.mine, args.atomic) == (
        EVM, ADDRESS, "1.5", "DUSD_TEST", True, False)
    assert args.func.target == "custody.faucet:cmd_faucet"


async def test_faucet_credits_in_whole_units_or_atomic_units(database):
    result = await faucet_command(network=EVM, address=ADDRESS, amount="1.5", mine=True)
    assert (result["amount_atomic"], result["currency_id"], result["mined_block_height"]) == (
        str(15 * 10**17), "DETH_TEST", 1)
    await faucet_command(network=EVM, address=ADDRESS, amount="250", currency="DUSD_TEST", atomic=True, mine=True)
    adapter = get_adapter(EVM)
    from domain.currencies import registry

    assert await adapter.balance_of(address=ADDRESS, currency=registry().currency("DUSD_TEST")) == 250
    with pytest.raises(ValueError):
        await faucet_command(network=EVM, address=ADDRESS, amount="0.1234567", currency="DUSD_TEST")
    with pytest.raises(DomainError) as refused:
        await faucet_command(network=EVM, address="tdvb1nope", amount="1")
    assert refused.value.code == "INVALID_ADDRESS"


async def test_the_command_runs_as_a_process(database, settings):
    env = dict(os.environ, DATABASE_URL=settings.database_url, CUSTODY_DATA_DIR=str(settings.data_dir))
    def faucet(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "custody.cli", "faucet", *args], env=env, capture_output=True,
                              text=True, timeout=60)

    # When the command credits an address and mines, and (at the same time) names an unknown network
    done, bad = await asyncio.gather(
        asyncio.to_thread(faucet, "--network", EVM, "--address", ADDRESS, "--amount", "2", "--mine"),
        asyncio.to_thread(faucet, "--network", "nope", "--address", ADDRESS, "--amount", "2"))
    # Then the first prints what it did, and the credit is in a mined block
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["mined_block_height"] == 1
    assert await DevnetTransaction.filter(to_address=ADDRESS, status="confirmed").count() == 1
    # And the second exits with status 2 and the error code
    assert bad.returncode == 2 and "NETWORK_NOT_FOUND" in bad.stderr
