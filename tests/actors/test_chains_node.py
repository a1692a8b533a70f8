"""Optional integration: the running service (in-process app, signer actors, co-signer, deposit
watcher, withdrawal pipeline) against a real litecoind or bitcoind regtest node over JSON-RPC.

Skipped when neither is installed (Debian: ``apt-get install litecoind``): test_chains.py runs
the same flow against the in-process chain validated by libbitcoinkernel. A Litecoin node needs
its own address prefixes (``hrp: rltc``), given to the registry's bitcoin-regtest here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest
from coincurve import PrivateKey as Secp256k1Key
from embit.script import Script

from config import CURRENCIES_FILE
from core.settings import Settings, configure
from domain.networks import registry as network_registry
from domain.networks.bitcoin import BitcoinAdapter, p2tr_script
from domain.withdrawals import pipeline
from models.deposits import ChainWatchState
from models.sessions import SigningSession
from models.transactions import Transaction
from models.utxos import ChainUtxo
from models.workspaces import Workspace
from tests.actors.test_chains import REGTEST, _finish, _total, _wallet
from tests.support import regtest_node
from tests.support.signing import ready_vault
from tests.support.wallets import address_of, reload, watch
from tests.support.withdrawals import allow_one_time_addresses, step, withdraw
from threshold.scheme import ED25519_SCHEME, TAPROOT_SCHEME

FOUND = regtest_node.installed()
pytestmark = pytest.mark.skipif(FOUND is None, reason="no litecoind or bitcoind installed (optional integration)")
COIN = 10**8


@pytest.fixture
async def node(tmp_path: Path, settings: Settings) -> Iterator[regtest_node.RegtestNode]:
    assert FOUND is not None
    running = regtest_node.start(FOUND[0], FOUND[1], tmp_path / "node")
    try:
        await running.wait_ready()
        # bitcoin-regtest served by this node, with its address prefixes
        document = json.loads(CURRENCIES_FILE.read_text())
        for network in document["networks"]:
            if network["id"] == REGTEST:
                network["params"].update(regtest_node.CHAINS[FOUND[0]], rpc_url=running.url)
        path = tmp_path / "currencies.json"
        path.write_text(json.dumps(document))
        configure(settings.with_overrides(currencies_file=path))
        network_registry.clear_adapters()
        yield running
    finally:
        configure(settings)
        network_registry.clear_adapters()
        running.stop()


async def test_the_service_receives_and_spends_through_a_real_regtest_node(client, worker, tmp_path, node):
    # Given a vault with a Taproot key set made by the DKG, and its wallet on the node's chain
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ED25519_SCHEME, TAPROOT_SCHEME))
    btc = await _wallet(setup.workspace_id, setup.vault.id, "BTC_REGTEST")
    address = await address_of(btc)
    adapter = network_registry.get_adapter(REGTEST)
    assert isinstance(adapter, BitcoinAdapter)
    assert address.startswith(regtest_node.CHAINS[node.name]["hrp"] + "1p")
    elsewhere = Script(p2tr_script(Secp256k1Key().public_key.format()[1:])).address(adapter.chain_params)
    # When the node mines a block paying it, and the coinbase matures
    await ChainWatchState.filter(network=REGTEST).delete()
    await ChainUtxo.filter(network=REGTEST).delete()
    await node.rpc.call("generatetoaddress", 1, address)
    await node.rpc.call("generatetoaddress", 100, elsewhere)
    found = await watch(REGTEST)
    # Then the watcher credits it
    assert [int(d.amount) for d in found] == [50 * COIN]
    assert _total(await reload(btc)) == 50 * COIN
    # When the vault sends 10 coins elsewhere, signed 2-of-3 through the signers
    ws = await Workspace.get(id=setup.workspace_id)
    await allow_one_time_addresses(ws.id)
    to = adapter.address_from_public_key(Secp256k1Key().public_key.format())
    sent = (await withdraw(ws, await reload(btc), to, 10 * COIN)).transaction

    async def on_wait() -> None:
        row = await Transaction.get(id=sent.id)
        if row.status == "broadcast":
            await node.rpc.call("generatetoaddress", 1, elsewhere)
            await watch(REGTEST)
            await step(pipeline.track, row)

    done = await _finish(sent, on_wait)
    # Then the node's chain holds the spend: the recipient's output, confirmed
    output = await node.rpc.call("gettxout", done.tx_hash, 0)
    assert output is not None and output["confirmations"] >= 1
    assert round(float(output["value"]) * COIN) == 10 * COIN
    session = await SigningSession.get(id=done.signing_session_id)
    assert session.participants == [1, 2] and bytes(session.merkle_root) == b""
    assert _total(await reload(btc)) == 40 * COIN - int(done.fee)
