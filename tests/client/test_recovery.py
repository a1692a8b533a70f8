"""The offline recovery tool (client/recovery.py) on a real backup file: its command line, and
the co-signer's exported share standing in for a lost service share."""

from __future__ import annotations

import base64
import json

from nacl.public import PrivateKey
from nacl.signing import VerifyKey

from client import recovery
from tests.support.signing import PASSPHRASE, backup_ready, ready_vault


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
