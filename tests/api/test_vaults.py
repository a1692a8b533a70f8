"""Vaults: create (with key generation), list, rename, freeze and unfreeze."""

from __future__ import annotations

from core.outbox import Command
from models.audit import AuditEntry
from models.keys import KeySet
from tests.support.callers import make_caller
from tests.support.wallets import Api
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME, TAPROOT_SCHEME


async def test_creating_a_vault_requests_its_key_set_in_the_same_unit_of_work(client, broker):
    api = Api(client, await make_caller(role="ADMIN"))
    status, vault = await api.post("/api/v1/vault/accounts", {"name": "Treasury"})
    assert status == 201, vault
    assert (vault["name"], vault["is_frozen"], vault["workspace_id"]) == ("Treasury", False, api.caller.workspace_id)
    assert vault["key_set"]["status"] == "round1" and vault["key_set"]["group_public_key"] is None
    # The vault's key (in the API) is FROST(Ed25519); a testnet workspace signs for Bitcoin
    # networks and EVM networks too, so a Taproot (secp256k1) key set and a threshold ECDSA
    # (secp256k1) key set are generated beside it, by the same DKG
    key_set = await KeySet.get(vault_id=vault["id"], scheme=ED25519_SCHEME)
    assert str(key_set.id) == vault["key_set"]["id"] and vault["key_set"]["scheme"] == ED25519_SCHEME
    taproot = await KeySet.get(vault_id=vault["id"], scheme=TAPROOT_SCHEME)
    ecdsa = await KeySet.get(vault_id=vault["id"], scheme=ECDSA_SCHEME)
    assert taproot.status == ecdsa.status == "round1"
    assert [(k["id"], k["scheme"]) for k in vault["key_sets"]] == [(str(key_set.id), ED25519_SCHEME),
                                                                   (str(ecdsa.id), ECDSA_SCHEME),
                                                                   (str(taproot.id), TAPROOT_SCHEME)]
    status, shown = await api.get(f"/api/v1/vault/accounts/{vault['id']}")
    assert status == 200 and shown["key_sets"] == vault["key_sets"]
    assert await Command.filter(actor_name__startswith="signer_").count() == 6  # both signers' round 1, thrice
    assert await AuditEntry.filter(action="vault.created", object_id=vault["id"]).count() == 1


async def test_list_rename_freeze_unfreeze(client, broker, frozen_clock):
    api = Api(client, await make_caller(role="ADMIN"))
    _, first = await api.post("/api/v1/vault/accounts", {"name": "Hot"})
    frozen_clock.advance(seconds=1)
    await api.post("/api/v1/vault/accounts", {"name": "Cold"})
    status, listed = await api.get("/api/v1/vault/accounts", limit=1)
    assert status == 200 and listed["total"] == 2
    assert [v["name"] for v in listed["accounts"]] == ["Hot"]
    status, renamed = await api.request("PATCH", f"/api/v1/vault/accounts/{first['id']}", json={"name": "Hot 2"})
    assert (status, renamed["name"]) == (200, "Hot 2")
    status, frozen = await api.post(f"/api/v1/vault/accounts/{first['id']}/freeze")
    assert (status, frozen["is_frozen"]) == (200, True)
    # Freezing again changes nothing and records nothing
    await api.post(f"/api/v1/vault/accounts/{first['id']}/freeze")
    assert await AuditEntry.filter(action="vault.frozen").count() == 1
    status, unfrozen = await api.post(f"/api/v1/vault/accounts/{first['id']}/unfreeze")
    assert (status, unfrozen["is_frozen"]) == (200, False)
    status, one = await api.get(f"/api/v1/vault/accounts/{first['id']}")
    assert one["name"] == "Hot 2" and one["key_set"]["status"] == "round1"


async def test_another_workspaces_vault_answers_like_a_missing_one(client, broker):
    owner = Api(client, await make_caller(role="ADMIN"))
    stranger = Api(client, await make_caller(role="ADMIN"))
    _, vault = await owner.post("/api/v1/vault/accounts", {"name": "Treasury"})
    for method, path, body in (("GET", "", None), ("PATCH", "", {"name": "x"}), ("POST", "/freeze", {}),
                               ("POST", "/unfreeze", {})):
        status, answer = await stranger.request(method, f"/api/v1/vault/accounts/{vault['id']}{path}", json=body)
        assert (status, answer["code"]) == (404, "VAULT_NOT_FOUND")


async def test_vault_input_and_permissions(client, broker):
    admin = Api(client, await make_caller(role="ADMIN"))
    viewer = Api(client, await make_caller(role="VIEWER", workspace_id=admin.caller.workspace_id))
    for body in ({}, {"name": ""}, {"name": "x" * 101}, {"name": 5}):
        status, answer = await admin.post("/api/v1/vault/accounts", body)
        assert (status, answer["details"]["field"]) == (400, "name")
    status, answer = await viewer.post("/api/v1/vault/accounts", {"name": "Mine"})
    assert (status, answer["code"]) == (403, "PERMISSION_DENIED")
    status, listed = await viewer.get("/api/v1/vault/accounts")
    assert status == 200 and listed["total"] == 0
    status, _ = await viewer.get("/api/v1/vault/accounts", limit=1001)
    assert status == 400


async def test_a_vault_gets_a_key_set_of_another_scheme_on_request(client, broker):
    # Given a vault whose Taproot key generation failed (or that was created before Bitcoin was enabled)
    api = Api(client, await make_caller(role="ADMIN"))
    _, vault = await api.post("/api/v1/vault/accounts", {"name": "Treasury"})
    path = f"/api/v1/vault/accounts/{vault['id']}/key-sets"
    # While one is live, another is refused
    status, refused = await api.post(path, {"scheme": TAPROOT_SCHEME})
    assert (status, refused["code"]) == (409, "KEY_SET_EXISTS")
    await KeySet.filter(vault_id=vault["id"], scheme=TAPROOT_SCHEME).update(status="failed")
    # When a Taproot key set is requested / Then a new generation starts and the vault lists it
    status, shown = await api.post(path, {"scheme": TAPROOT_SCHEME})
    assert status == 201, shown
    fresh = await KeySet.filter(vault_id=vault["id"], scheme=TAPROOT_SCHEME, status="round1").get()
    assert [(k["id"], k["status"]) for k in shown["key_sets"] if k["scheme"] == TAPROOT_SCHEME] == [
        (str(fresh.id), "round1")]
    assert shown["key_set"] == vault["key_set"]
    # And an unknown scheme, or a frozen vault, is refused
    status, bad = await api.post(path, {"scheme": "FROST-secp256k1-SHA256-v1"})
    assert (status, bad["code"]) == (400, "VALIDATION_ERROR")
    await api.post(f"/api/v1/vault/accounts/{vault['id']}/freeze")
    await KeySet.filter(id=fresh.id).update(status="failed")
    status, frozen = await api.post(path, {"scheme": TAPROOT_SCHEME})
    assert (status, frozen["code"]) == (409, "VAULT_FROZEN")
