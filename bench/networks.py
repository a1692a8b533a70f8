"""Benchmark: real-network transfers signed 2-of-3 against the same transfers signed by a plain key.

    .venv/bin/python bench/networks.py [--seconds 4]

Prints, in one run (no database, no broker):

(a) Solana transfers per second through LiteSVM (the Solana runtime in process): the adapter
    builds a SOL transfer, the vault's 2-of-3 FROST(Ed25519) key (made by the DKG, messages
    through JSON) signs it, the adapter submits it and LiteSVM verifies and executes it --
    against the same loop signed by a plain Ed25519 key (PyNaCl), as a ratio;
(b) Bitcoin Taproot key-path spends per second accepted by Bitcoin Core's consensus checks
    (py-bitcoinkernel script verification with the Taproot flags): the adapter's BIP-341
    sighash, a FROST(secp256k1)-Taproot 2-of-3 signature for the tweaked output key, the
    witness, libbitcoinkernel's verification -- against plain BIP-340 signing (coincurve,
    tweaked secret key) of the same spend, as a ratio.

Rates are the median of short runs, with their spread.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coincurve import PrivateKey  # noqa: E402
from embit.script import Script, Witness  # noqa: E402
from embit.transaction import Transaction, TransactionInput, TransactionOutput  # noqa: E402
from nacl.signing import SigningKey  # noqa: E402
from solders.keypair import Keypair  # noqa: E402
from solders.pubkey import Pubkey  # noqa: E402

from domain.currencies import registry  # noqa: E402
from domain.networks.base import SpentOutput  # noqa: E402
from domain.networks.bitcoin import SEQUENCE_RBF, BitcoinAdapter, p2tr_script  # noqa: E402
from domain.networks.solana import SolanaAdapter  # noqa: E402
from domain.networks.solana_chain import LiteSvmChain  # noqa: E402
from tests.support.bitcoin_kernel import verify_spend  # noqa: E402
from tests.support.threshold_keys import ed25519_key, taproot_key  # noqa: E402
from threshold.secp256k1 import N, taproot_tweak  # noqa: E402
from threshold.taproot import output_key  # noqa: E402


def rate(fn: Callable[[], Any], seconds: float, chunks: int = 6) -> tuple[float, float, float]:
    """Median calls per second of ``fn`` over ``chunks`` runs, and the lowest and highest."""
    fn()
    rates = []
    for _ in range(chunks):
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / chunks:
            fn()
            count += 1
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates), min(rates), max(rates)


def solana_loop(sign: Callable[[bytes], bytes], public_key: bytes) -> Callable[[], None]:
    """One SOL transfer per call: build, sign, submit; LiteSVM verifies the signature and executes."""
    chain = LiteSvmChain()
    adapter = SolanaAdapter(registry().network("solana-testnet"), chain=chain)
    sender = adapter.address_from_public_key(public_key)
    chain.airdrop(Pubkey.from_string(sender), 10**17)
    recipient = str(Keypair().pubkey())
    sol = registry().currency("SOL_TEST")
    loop = asyncio.new_event_loop()
    amount = iter(range(10**9, 10**12))  # a new amount each time: every transaction is distinct

    async def once() -> None:
        unsigned = await adapter.build_transfer(currency=sol, from_address=sender, public_key=public_key,
                                                to_address=recipient, amount=next(amount))
        await adapter.submit_transfer(body=unsigned.body, signature=sign(unsigned.signing_payload))

    return lambda: loop.run_until_complete(once())


def bitcoin_loop(sign: Callable[[bytes], bytes], x_only_output_key: bytes) -> Callable[[], None]:
    """One Taproot key-path spend per call: sighash, sign, witness, libbitcoinkernel's verification."""
    script = p2tr_script(x_only_output_key)
    spent = (SpentOutput(os.urandom(32).hex(), 0, 10**8, script.hex()),)
    counter = iter(range(1, 10**9))

    def once() -> None:
        tx = Transaction(version=2, vin=[TransactionInput(bytes.fromhex(spent[0].tx_hash), 0, sequence=SEQUENCE_RBF)],
                         vout=[TransactionOutput(10**8 - 500 - next(counter), Script(p2tr_script(bytes(32))))])
        (payload,) = BitcoinAdapter.signing_payloads(tx, spent)
        tx.vin[0].witness = Witness([sign(payload.message)])
        verify_spend(tx.serialize(), [(10**8, script)])

    return once


def plain_taproot_signer() -> tuple[Callable[[bytes], bytes], bytes]:
    """A single BIP-340 key for its key-path-only output: the tweaked secret, coincurve signing."""
    secret = PrivateKey()
    point = secret.public_key.format()
    d = int.from_bytes(secret.secret, "big")
    d = d if point[0] == 2 else N - d
    tweaked = PrivateKey(((d + int.from_bytes(taproot_tweak(point[1:], b""), "big")) % N).to_bytes(32, "big"))
    x_only, _ = output_key(point, b"")
    return (lambda msg: tweaked.sign_schnorr(msg)), x_only


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=4.0, help="measuring time of each figure")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f}; {args.seconds:.0f} s per figure; medians (min..max)")

    vault = ed25519_key("bench:solana")
    plain = SigningKey.generate()
    threshold_rate = rate(solana_loop(lambda m: vault.sign(m, (1, 2)), vault.group_public_key), args.seconds)
    plain_rate = rate(solana_loop(lambda m: plain.sign(m).signature, bytes(plain.verify_key)), args.seconds)
    print("(a) Solana SOL transfers through LiteSVM (build, sign, submit, execute)")
    print(f"    2-of-3 FROST(Ed25519): {threshold_rate[0]:8.1f}/s ({threshold_rate[1]:.1f}..{threshold_rate[2]:.1f})")
    print(f"    plain Ed25519:         {plain_rate[0]:8.1f}/s ({plain_rate[1]:.1f}..{plain_rate[2]:.1f})")
    print(f"    ratio threshold / plain: {threshold_rate[0] / plain_rate[0]:.3f}")

    taproot = taproot_key("bench:taproot")
    tweaked_key, _ = output_key(taproot.group_public_key, b"")
    threshold_rate = rate(bitcoin_loop(lambda m: taproot.sign(m, (1, 2)), tweaked_key), args.seconds)
    plain_sign, plain_key = plain_taproot_signer()
    plain_rate = rate(bitcoin_loop(plain_sign, plain_key), args.seconds)
    print("(b) Bitcoin Taproot key-path spends accepted by libbitcoinkernel's script verification")
    print(f"    2-of-3 FROST(secp256k1)-Taproot: {threshold_rate[0]:8.1f}/s "
          f"({threshold_rate[1]:.1f}..{threshold_rate[2]:.1f})")
    print(f"    plain BIP-340 (coincurve):       {plain_rate[0]:8.1f}/s ({plain_rate[1]:.1f}..{plain_rate[2]:.1f})")
    print(f"    ratio threshold / plain: {threshold_rate[0] / plain_rate[0]:.3f}")


if __name__ == "__main__":
    main()
