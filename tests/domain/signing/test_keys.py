"""Key sets by distributed key generation across the two signer processes and the co-signer."""

from __future__ import annotations

import asyncio
import json

import pytest
from nacl.exceptions import CryptoError

from client import cosigner as cosigner_module
from core import jobs, sealing
from core.outbox import Command, add_command
from core.unit_of_work import unit_of_work
from domain.errors import Conflict
from domain.signing import keys
from domain.signing.signer_keys import signer_key
from models.cosigner import CosignerPart
from models.keys import DkgPackage, DkgResult, KeySet, SignerDkgState, SignerKeyShare
from models.vaults import Vault
from tests.support.approvals import make_owner
from tests.support.signing import (
    PASSPHRASE,
    cosigner_for,
    create_vault,
    designated_signer,
    ready_vault,
    settle,
    status_is,
)
from threshold import dkg, frost
from threshold.cosigner_part import decrypt_key_package


def _signer_share(row: SignerKeyShare) -> frost.KeyPackage:
    return frost.KeyPackage.from_dict(json.loads(sealing.unseal(bytes(row.sealed_key_package),
                                                               key=signer_key(row.participant))))


async def test_dkg_across_both_signers_and_the_cosigner_gives_one_group_key_no_one_holds(client, worker, tmp_path):
    # Given a vault whose key generation runs across signer 1, signer 2 and the co-signer
    setup = await ready_vault(client, worker, tmp_path / "cosigner", real_dkg=True)
    key_set = setup.key_set
    # Then the key set is ready with one group key, which the vault API returns
    group_key = await keys.group_public_key(vault_id=setup.vault.id, workspace_id=setup.workspace_id)
    assert bytes(key_set.group_public_key) == group_key and len(group_key) == 32
    # And every participant derived the same public key package
    expected = keys.public_key_package(key_set)
    for result in await DkgResult.filter(key_set_id=key_set.id):
        assert frost.PublicKeyPackage.from_dict(result.public_key_package) == expected
    cosigner_share = setup.cosigner.key_package(str(key_set.id))
    assert cosigner_share is not None and cosigner_share.group_public_key == group_key
    # And each signer holds only its own share, sealed with its own key
    rows = {r.participant: r for r in await SignerKeyShare.filter(key_set_id=key_set.id)}
    assert sorted(rows) == [1, 2]
    with pytest.raises(CryptoError):
        sealing.unseal(bytes(rows[2].sealed_key_package), key=signer_key(1))
    shares = {i: _signer_share(rows[i]) for i in (1, 2)}
    shares[3] = cosigner_share
    # And no share is the group secret: each is only consistent with its own verifying share
    for identifier, share in shares.items():
        assert frost.scalar_base_mult(share.signing_share) == expected.verifying_shares[identifier]
        assert frost.scalar_base_mult(share.signing_share) != group_key
    # And the service keeps nothing of the co-signer's share but its passphrase-encrypted part
    part = await CosignerPart.get(key_set_id=key_set.id)
    assert part.status == "committed" and cosigner_share.signing_share.hex() not in part.config
    assert decrypt_key_package(json.loads(part.config)["encrypted_key_package"], PASSPHRASE) == cosigner_share
    # And no DKG round state is left behind
    assert await SignerDkgState.filter(key_set_id=key_set.id).count() == 0
    # When (in this test only) any two shares are interpolated, they give the group key
    for a, b in ((1, 2), (1, 3), (2, 3)):
        secret = frost.secret_share_combine([(a, shares[a].signing_share), (b, shares[b].signing_share)])
        assert frost.scalar_base_mult(secret) == group_key


async def test_two_vaults_get_independent_keys_and_a_vault_has_one_key_set(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner", real_dkg=True)
    second = await create_vault(setup.owner.workspace_id, name="Second")
    await settle(worker, setup.cosigner, until=status_is(second, "ready", "failed"))
    assert await keys.group_public_key(vault_id=second.id) != bytes(setup.key_set.group_public_key)
    with pytest.raises(Conflict) as refused:
        async with unit_of_work():
            await keys.request_key_generation(vault=setup.vault)
    assert refused.value.code == "KEY_SET_EXISTS"


async def test_key_of_a_vault_still_generating_is_not_ready(client, broker):
    owner = await make_owner()
    vault = await create_vault(owner.workspace_id)
    with pytest.raises(keys.KeySetNotReady):
        await keys.group_public_key(vault_id=vault.id)


async def test_a_cosigner_sending_a_share_inconsistent_with_its_commitments_is_named(client, worker, tmp_path, monkeypatch):
    # Given a co-signer that cheats: its round-2 share for signer 1 is off by one
    honest_seal = cosigner_module.seal_round2_package

    def cheating_seal(package: dkg.Round2Package, **kwargs):
        if package.recipient == 1:
            package = dkg.Round2Package(package.sender, package.recipient,
                                        frost.scalar_add(package.signing_share, frost.scalar_from_int(1)))
        return honest_seal(package, **kwargs)

    monkeypatch.setattr(cosigner_module, "seal_round2_package", cheating_seal)

    owner = await make_owner()
    cheater = cosigner_for(client, await designated_signer(owner.workspace_id),
                           tmp_path / "cheater")
    vault = await create_vault(owner.workspace_id)
    # When the key generation runs
    await settle(worker, cheater, until=status_is(vault, "ready", "failed"))
    # Then signer 1 catches it while verifying its shares and the key set fails naming participant 3
    key_set = await KeySet.get(vault_id=vault.id)
    assert key_set.status == "failed" and key_set.failed_participant == 3
    assert "inconsistent" in key_set.failure_reason
    # And no secret of the failed run is kept by the signers
    assert await SignerKeyShare.filter(key_set_id=key_set.id).count() == 0
    assert await SignerDkgState.filter(key_set_id=key_set.id).count() == 0
    # And the vault can start a fresh key generation
    async with unit_of_work():
        retry = await keys.request_key_generation(vault=vault)
    assert retry.status == "round1" and bytes(retry.context) != bytes(key_set.context)


async def test_a_signer_with_a_bad_proof_of_knowledge_is_named_by_the_others(client, worker, tmp_path):

    owner = await make_owner()
    cosigner = cosigner_for(client, await designated_signer(owner.workspace_id),
                            tmp_path / "cosigner")
    vault = await create_vault(owner.workspace_id)
    key_set = await KeySet.get(vault_id=vault.id)

    async def signers_broadcast() -> bool:
        return await DkgPackage.filter(key_set_id=key_set.id, round=1).count() == 2
    # Given both signers broadcast round 1 (the co-signer has not yet)
    await settle(worker, until=signers_broadcast)
    # When signer 1's proof of knowledge is corrupted on the way
    row = await DkgPackage.get(key_set_id=key_set.id, round=1, sender=1)
    package = dict(row.payload["package"])
    package["proof_mu"] = frost.scalar_add(bytes.fromhex(package["proof_mu"]), frost.scalar_from_int(1)).hex()
    row.payload = {**row.payload, "package": package}
    await row.save()
    # Then the key generation fails naming participant 1
    await settle(worker, cosigner, until=status_is(vault, "ready", "failed"))
    failed = await KeySet.get(id=key_set.id)
    assert failed.status == "failed" and failed.failed_participant == 1
    assert "proof of knowledge" in failed.failure_reason


async def test_repeated_round_commands_do_not_regenerate_a_signer_polynomial(client, worker, broker, tmp_path):
    owner = await make_owner()
    vault = await create_vault(owner.workspace_id)
    key_set = await KeySet.get(vault_id=vault.id)

    async def broadcast() -> bool:
        return await DkgPackage.filter(key_set_id=key_set.id, round=1).count() == 2
    await settle(worker, until=broadcast)
    before = {r.sender: r.payload for r in await DkgPackage.filter(key_set_id=key_set.id, round=1)}
    # When the round-1 commands are delivered again, and new round-1 commands are issued
    for command in await Command.filter(actor_name__startswith="signer_"):
        await asyncio.to_thread(broker.get_actor(command.actor_name).send, str(command.id))
    async with unit_of_work():
        for participant in (1, 2):
            await add_command(actor_name=keys.signer_actor(participant, "dkg_round1"),
                              payload={"key_set_id": str(key_set.id)})
    await worker.drain()
    # Then each signer still has its one broadcast, unchanged
    after = {r.sender: r.payload for r in await DkgPackage.filter(key_set_id=key_set.id, round=1)}
    assert after == before
    assert await SignerDkgState.filter(key_set_id=key_set.id).count() == 2


async def test_a_key_generation_without_its_cosigner_fails_with_a_reason_after_the_time_limit(
        client, worker, frozen_clock, webhook_settings):
    # Given a vault whose key generation waits for a co-signer that never comes
    webhook_settings(key_generation_timeout_seconds=3600)
    owner = await make_owner()
    vault = await create_vault(owner.workspace_id)
    await worker.settle()
    key_set = await keys.get_key_set(vault_id=vault.id)
    assert key_set.status == "round1"
    # When an hour has not yet passed, the scheduled check leaves it waiting
    frozen_clock.advance(minutes=59)
    async with unit_of_work():
        assert await keys.expire_stale_generations() == []
    # When the time limit has passed and the scheduler's job runs (through its actor)
    frozen_clock.advance(minutes=1, seconds=1)
    await jobs.send(keys.EXPIRE_STALE, [((), None)])
    await worker.settle()
    # Then the key generation failed, saying whom it waited for; no participant is blamed
    failed = await KeySet.get(id=key_set.id)
    assert failed.status == "failed" and failed.failed_participant is None
    assert failed.failure_reason == ("timed out: not ready within 3600 s; the round1 step was still waiting for "
                                     "the co-signer (participant 3)")
    # And the service signers' secret state of the run is gone
    assert not await SignerDkgState.filter(key_set_id=key_set.id).exists()


async def test_vaults_and_key_generations_in_progress_are_capped_per_workspace(client, broker, webhook_settings):
    webhook_settings(max_vaults_per_workspace=3, max_key_generations_in_progress=2)
    owner = await make_owner()
    for name in ("one", "two"):
        _, created = await client.post("/api/v1/vault/accounts", headers=owner.headers(), json={"name": name})
        assert created.status == 201
    # Two generations wait for the co-signer: a third vault would start a third one
    _, busy = await client.post("/api/v1/vault/accounts", headers=owner.headers(), json={"name": "three"})
    assert busy.status == 409 and busy.json["code"] == "KEY_GENERATION_LIMIT_REACHED"
    assert busy.json["details"] == {"limit": 2, "in_progress": 2}
    # Nothing was left behind by the refusal
    assert await Vault.filter(workspace_id=owner.workspace_id).count() == 2
    # Once one finished (here: failed), a vault may be created, up to the vault cap
    # (a vault's key sets of every scheme count as one generation: all of the first vault's fail)
    first = await KeySet.filter(workspace_id=owner.workspace_id).first()
    await KeySet.filter(vault_id=first.vault_id).update(status="failed")
    _, third = await client.post("/api/v1/vault/accounts", headers=owner.headers(), json={"name": "three"})
    assert third.status == 201
    await KeySet.filter(workspace_id=owner.workspace_id).update(status="ready")
    _, fourth = await client.post("/api/v1/vault/accounts", headers=owner.headers(), json={"name": "four"})
    assert fourth.status == 409 and fourth.json["code"] == "VAULT_LIMIT_REACHED" and fourth.json["details"] == {"limit": 3}
    # Another workspace has its own caps
    other = await make_owner()
    _, elsewhere = await client.post("/api/v1/vault/accounts", headers=other.headers(), json={"name": "one"})
    assert elsewhere.status == 201
