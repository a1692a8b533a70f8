"""The offline recovery tool (client/recovery.py) on a real backup file: its command line, and
the co-signer's exported share standing in for a lost service share."""

from __future__ import annotations

import base64
import hashlib
import json

from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionInput, TransactionOutput
from eth_account import Account
from nacl.public import PrivateKey
from nacl.signing import VerifyKey

from client import recovery
from domain.currencies import registry
from domain.networks.bitcoin import BitcoinAdapter, p2tr_script
from domain.networks.evm import address_of_key
from domain.networks.evm_dev import faucet
from domain.networks.evm_local import InProcessEvmRpc, LocalEvm
from models.keys import KeySet
from tests.support.bitcoin_kernel import KernelRegtestNode
from tests.support.signing import PASSPHRASE, backup_ready, ready_vault
from threshold import ecdsa
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME, TAPROOT_SCHEME
from threshold.taproot import output_key, verify_bip340


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def test_recovery_command_line_and_the_cosigner_share_in_place_of_a_service_share(client, worker, tmp_path, capsys):
    # Given a backup file of a vault's key and the backup's private key
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    private_key = PrivateKey.generate()
    await backup_ready(client, worker, setup.owner, private_key)
    _, download = await client.get("/api/v1/backup/file", headers=setup.owner.headers())
    (tmp_path / "backup.json").write_bytes(download.body)
    (tmp_path / "backup.key").write_text(_b64(bytes(private_key)))
    # When the command line runs, then it rebuilds the key and proves it
    exit_code = recovery.main(["--backup", str(tmp_path / "backup.json"), "--private-key", str(tmp_path / "backup.key"),
                               "--message", "hello", "--verification-out", str(tmp_path / "verify.json")])
    assert exit_code == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["vault_id"] == str(setup.vault.id) and line["verifies"] is True
    VerifyKey(bytes.fromhex(line["master_xpub"])).verify(b"hello", bytes.fromhex(line["signature"]))
    assert json.loads((tmp_path / "verify.json").read_text())["groups"][0]["schema"] == "FROST-ED25519-SHA512-v1"
    # Given signer 2's share is lost from the file, one service share is not enough
    document = json.loads(download.body)
    document["key_sets"][0]["shares"] = [s for s in document["key_sets"][0]["shares"] if s["participant"] == 1]
    (tmp_path / "partial.json").write_text(json.dumps(document))
    assert recovery.main(["--backup", str(tmp_path / "partial.json"), "--private-key", str(tmp_path / "backup.key")]) == 1
    # When the co-signer's exported share and its passphrase are added, the key is rebuilt again
    (tmp_path / "share.json").write_text(setup.cosigner.export_share(str(setup.key_set.id)))
    (tmp_path / "pass.txt").write_bytes(PASSPHRASE)
    assert recovery.main(["--backup", str(tmp_path / "partial.json"), "--private-key", str(tmp_path / "backup.key"),
                          "--cosigner-share", str(tmp_path / "share.json"),
                          "--cosigner-passphrase-file", str(tmp_path / "pass.txt")]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["participants_used"] == [1, 3]
    # And the wrong backup key opens nothing
    (tmp_path / "other.key").write_bytes(bytes(PrivateKey.generate()))
    assert recovery.main(["--backup", str(tmp_path / "backup.json"), "--private-key", str(tmp_path / "other.key")]) == 1


async def test_recovery_of_both_curves_proves_each_key_by_its_chains_rules(client, worker, tmp_path, capsys):
    # Given a vault with an Ed25519 and a Taproot (secp256k1) key set, and a backup of both
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ED25519_SCHEME, TAPROOT_SCHEME))
    taproot = await KeySet.get(vault_id=setup.vault.id, scheme=TAPROOT_SCHEME)
    private_key = PrivateKey.generate()
    backup = await backup_ready(client, worker, setup.owner, private_key)
    _, download = await client.get("/api/v1/backup/file", headers=setup.owner.headers())
    document = json.loads(download.body)
    assert sorted(e["scheme"] for e in document["key_sets"]) == sorted([ED25519_SCHEME, TAPROOT_SCHEME])
    (tmp_path / "backup.json").write_bytes(download.body)
    (tmp_path / "backup.key").write_text(_b64(bytes(private_key)))
    # When the command line runs / Then both keys are rebuilt and each signature verifies by its chain's rule
    assert recovery.main(["--backup", str(tmp_path / "backup.json"), "--private-key", str(tmp_path / "backup.key"),
                          "--message", "hello", "--verification-out", str(tmp_path / "verify.json")]) == 0
    lines = {line["scheme"]: line for line in map(json.loads, capsys.readouterr().out.splitlines())}
    VerifyKey(bytes.fromhex(lines[ED25519_SCHEME]["master_xpub"])).verify(
        b"hello", bytes.fromhex(lines[ED25519_SCHEME]["signature"]))
    assert lines[TAPROOT_SCHEME]["master_xpub"] == bytes(taproot.group_public_key).hex()
    tweaked, _ = output_key(bytes(taproot.group_public_key), b"")
    assert verify_bip340(tweaked, b"hello", bytes.fromhex(lines[TAPROOT_SCHEME]["signature"]))
    # And the service accepts the proof of both keys (BIP-340 under the Taproot output key)
    _, verified = await client.post(f"/api/v1/backup/{backup['backup_id']}/verify", headers=setup.owner.headers(),
                                    json=json.loads((tmp_path / "verify.json").read_text()))
    assert verified.status == 200 and verified.json["status"] == "verified", verified.json

    # Given the Taproot key's address holds a mature coinbase output on a kernel-validated regtest chain
    node = KernelRegtestNode(tmp_path / "regtest")
    adapter = BitcoinAdapter(registry().network("bitcoin-regtest"), node=node)
    vault_script = adapter.script_of(adapter.address_from_public_key(bytes(taproot.group_public_key)))
    node.mine(vault_script, 1)
    node.mine(p2tr_script(bytes(32)[:-1] + b"\x01"), 100)
    coinbase = next(txid for (txid, _), coin in node.utxos.items() if coin[1] == vault_script)
    # When signer 2's share is lost and the co-signer's escrowed share stands in for it
    for entry in document["key_sets"]:
        entry["shares"] = [s for s in entry["shares"] if s["participant"] == 1]
    shares = recovery.cosigner_shares_from_configs(
        [e["cosigner_part"]["config"] for e in document["key_sets"]], PASSPHRASE)
    (key,) = [k for k in recovery.recover(document, private_key, cosigner_shares=shares) if k.scheme == TAPROOT_SCHEME]
    assert key.participants == (1, 3)
    # Then the rebuilt key spends the output by the Taproot key path, accepted by Bitcoin Core's
    # consensus code (script verification, then the block connected by libbitcoinkernel)
    spend = Transaction(version=2, locktime=0, vin=[TransactionInput(bytes.fromhex(coinbase), 0)],
                        vout=[TransactionOutput(50 * 10**8 - 1000, Script(vault_script))])
    sighash = spend.sighash_taproot(0, [Script(vault_script)], [50 * 10**8], 0)
    spend.vin[0].witness = Witness([key.sign(sighash)])
    txid = await node.broadcast(spend.serialize())
    node.mine(vault_script, 1)
    assert txid in node.confirmed


async def test_a_recovered_threshold_ecdsa_key_signs_a_transaction_the_evm_accepts(client, worker, tmp_path, capsys):
    # Given a vault with a threshold ECDSA key set (EVM accounts) and a backup of it
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ECDSA_SCHEME,))
    group_key = bytes(setup.key_set.group_public_key)
    private_key = PrivateKey.generate()
    backup = await backup_ready(client, worker, setup.owner, private_key)
    _, download = await client.get("/api/v1/backup/file", headers=setup.owner.headers())
    document = json.loads(download.body)
    assert [e["scheme"] for e in document["key_sets"]] == [ECDSA_SCHEME]
    (tmp_path / "backup.json").write_bytes(download.body)
    (tmp_path / "backup.key").write_text(_b64(bytes(private_key)))
    # When the command line runs / Then the key is rebuilt and its ECDSA proof verifies
    assert recovery.main(["--backup", str(tmp_path / "backup.json"), "--private-key", str(tmp_path / "backup.key"),
                          "--message", "hello", "--verification-out", str(tmp_path / "verify.json")]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (line["scheme"], line["master_xpub"]) == (ECDSA_SCHEME, group_key.hex())
    assert ecdsa.verify(group_key, hashlib.sha256(b"hello").digest(), bytes.fromhex(line["signature"]))
    # And the service accepts the proof of the key
    _, verified = await client.post(f"/api/v1/backup/{backup['backup_id']}/verify", headers=setup.owner.headers(),
                                    json=json.loads((tmp_path / "verify.json").read_text()))
    assert verified.status == 200 and verified.json["status"] == "verified", verified.json

    # Given the vault's Ethereum address holds ETH on a real EVM (py-evm)
    node = LocalEvm()
    rpc = InProcessEvmRpc(node)
    address = address_of_key(group_key)
    await faucet(rpc, address=address, amount=10**18)
    # When signer 2's share is lost and the co-signer's escrowed share stands in for it
    for entry in document["key_sets"]:
        entry["shares"] = [s for s in entry["shares"] if s["participant"] == 1]
    shares = recovery.cosigner_shares_from_configs(
        [e["cosigner_part"]["config"] for e in document["key_sets"]], PASSPHRASE)
    (key,) = recovery.recover(document, private_key, cosigner_shares=shares)
    assert key.participants == (1, 3) and key.scheme == ECDSA_SCHEME
    # Then the rebuilt key signs an EIP-1559 transfer that the EVM executes
    account = Account.from_key(key.secret)
    assert account.address == address
    signed = account.sign_transaction({
        "type": 2, "chainId": 31337, "nonce": 0, "to": "0x" + "77" * 20, "value": 10**17, "gas": 21_000,
        "maxFeePerGas": 10 * 10**9, "maxPriorityFeePerGas": 10**9})
    tx_hash = await rpc.request("eth_sendRawTransaction", ["0x" + signed.raw_transaction.hex()])
    receipt = await rpc.request("eth_getTransactionReceipt", [tx_hash])
    assert receipt is not None and int(receipt["status"], 16) == 1
    assert int(await rpc.request("eth_getBalance", ["0x" + "77" * 20, "latest"]), 16) == 10**17
