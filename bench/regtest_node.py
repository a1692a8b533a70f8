"""Integration run: a 2-of-3 FROST Taproot key-path spend against a real bitcoind or litecoind regtest node.

    .venv/bin/python bench/regtest_node.py [--binary bitcoind|litecoind] [--keep]

Optional and slower than the test suite (which checks the same spends with py-bitcoinkernel, in
process): it starts the node in a temporary data directory (regtest, RPC on a free loopback port,
no P2P), and then, through the service's own pieces:

1. makes a 2-of-3 key by the Pedersen DKG (``threshold.dkg_secp256k1``, every message through
   JSON: the key is never whole), and derives its P2TR address as the Bitcoin adapter does
   (``BitcoinAdapter.address_from_public_key``: bech32m of the BIP-341 key-path output key; the
   node's own ``hrp`` for Litecoin, ``rltc``);
2. mines a block paying that address and 100 more (coinbase maturity) with ``generatetoaddress``;
3. spends the coinbase output by the Taproot key path: the adapter's BIP-341 sighash, signed by
   signers 1 and 3 (``TAPROOT.for_output(b"")``), broadcast with the adapter's node client
   (``RpcBitcoinNode``, ``sendrawtransaction``) -- the node's mempool runs its consensus and
   policy checks -- then mined, and the spend's output read back with ``gettxout``;
4. checks that the node refuses the same spend with a tampered signature.

Without ``bitcoind`` or ``litecoind`` on the PATH (Debian: ``apt-get install litecoind``) it says
so and exits 0: nothing to check. The withdrawal pipeline and the deposit watcher are not in
this run (they need PostgreSQL); tests/actors/test_chains.py runs them against the in-process
kernel chain.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coincurve import PrivateKey  # noqa: E402
from embit.script import Script, Witness  # noqa: E402
from embit.transaction import Transaction, TransactionInput, TransactionOutput  # noqa: E402

from domain.currencies import Network  # noqa: E402
from domain.networks.base import TransferRejected  # noqa: E402
from domain.networks.bitcoin import SEQUENCE_RBF, SIGHASH_DEFAULT, BitcoinAdapter, p2tr_script  # noqa: E402
from domain.networks.bitcoin_node import RpcError  # noqa: E402
from tests.support import regtest_node  # noqa: E402
from tests.support.threshold_keys import taproot_key  # noqa: E402
from threshold.taproot import output_key, verify_bip340  # noqa: E402

FEE = 2_000


def regtest_network(binary: str) -> Network:
    """A registry network for the node (the adapter reads its prefixes from ``params``)."""
    params: dict[str, Any] = {"chain": "regtest", "fee_rate_sat_per_vb": 2, "min_fee_rate_sat_per_vb": 1,
                              "dust_limit": 330, **regtest_node.CHAINS[binary]}
    return Network(id=f"{binary}-regtest", blockchain_name=f"{binary} regtest", blockchain_icon_url="",
                   network_type="testnet", family="utxo", adapter="bitcoin", native_currency_id="BTC_REGTEST",
                   confirmations=1, params=params)


async def run(binary_path: str, binary: str, datadir: Path) -> int:
    running = regtest_node.start(binary, binary_path, datadir)
    node = running.rpc
    try:
        await running.wait_ready()
        adapter = BitcoinAdapter(regtest_network(binary), node=node)
        key = taproot_key("integration:regtest")
        address = adapter.address_from_public_key(key.group_public_key)
        script = adapter.script_of(address)
        elsewhere = Script(p2tr_script(PrivateKey().public_key.format()[1:])).address(adapter.chain_params)
        print(f"{binary}: vault address {address} (2-of-3 FROST key from the DKG)")
        await node.call("generatetoaddress", 1, address)
        await node.call("generatetoaddress", 100, elsewhere)
        _, _, _, transactions = adapter.parse_block(await node.block(1) or b"")
        coinbase = transactions[0]
        index = next(i for i, out in enumerate(coinbase.vout) if out.script_pubkey.data == script)
        value = coinbase.vout[index].value
        spend = Transaction(version=2, locktime=0,
                            vin=[TransactionInput(coinbase.txid(), index, sequence=SEQUENCE_RBF)],
                            vout=[TransactionOutput(value - FEE, Script(script))])
        sighash = spend.sighash_taproot(0, [Script(script)], [value], SIGHASH_DEFAULT)
        signature = key.sign(sighash, signers=(1, 3))
        assert verify_bip340(output_key(key.group_public_key, b"")[0], sighash, signature)
        # A tampered signature first: the node must refuse it
        tampered = bytearray(signature)
        tampered[-1] ^= 1
        spend.vin[0].witness = Witness([bytes(tampered)])
        try:
            await node.broadcast(spend.serialize())
        except (RpcError, TransferRejected) as exc:
            print(f"{binary}: tampered signature refused by the node: {exc}")
        else:
            print(f"{binary}: FAILED: the node accepted a tampered signature")
            return 1
        spend.vin[0].witness = Witness([signature])
        txid = await node.broadcast(spend.serialize())
        await node.call("generatetoaddress", 1, elsewhere)
        output = await node.call("gettxout", txid, 0)
        if not output or int(output.get("confirmations", 0)) < 1:
            print(f"{binary}: FAILED: the spend {txid} is not in a block")
            return 1
        print(f"{binary}: Taproot key-path spend {txid} (signers 1 and 3) accepted and mined: "
              f"{output['confirmations']} confirmation(s), {output['value']} to the vault address")
        return 0
    finally:
        running.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", choices=sorted(regtest_node.CHAINS), default=None, help="the node to run (default: the first found)")
    parser.add_argument("--keep", action="store_true", help="keep the node's data directory")
    args = parser.parse_args()
    found = regtest_node.installed(args.binary)
    if found is None:
        print(f"skipped: no {args.binary or 'bitcoind or litecoind'} on the PATH (Debian: apt-get install "
              "litecoind); the test suite checks the same spends with py-bitcoinkernel")
        return 0
    name, path = found
    datadir = Path(tempfile.mkdtemp(prefix=f"custody-{name}-regtest-"))
    try:
        return asyncio.run(run(str(path), name, datadir))
    finally:
        if args.keep:
            print(f"data directory kept: {datadir}")
        else:
            shutil.rmtree(datadir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
