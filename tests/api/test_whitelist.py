"""Whitelisted external wallets and the one-time address setting: /api/v1/whitelist."""

from __future__ import annotations

import uuid

from models.audit import AuditEntry
from models.whitelist import WhitelistedWallet
from models.workspaces import Workspace
from tests.support.callers import make_caller
from tests.support.wallets import Api, address_of, open_wallet, vault_with_key
from tests.support.withdrawals import ELSEWHERE_EVM, external_utxo_address


async def test_register_list_get_delete_a_whitelisted_wallet(client, broker, frozen_clock):
    admin = Api(client, await make_caller(role="ADMIN"))
    # Register: the address is validated and normalized for the currency's network
    status, entry = await admin.post("/api/v1/whitelist/wallets", {"name": "Exchange", "currency_id": "DETH_TEST",
                                                                    "address": ELSEWHERE_EVM.upper().replace("0X", "0x")})
    assert status == 201, entry
    assert (entry["address"], entry["network_id"], entry["blockchain_name"], entry["name"]) == (
        ELSEWHERE_EVM, "devnet-evm-testnet", "Devnet EVM Testnet", "Exchange")
    assert entry["created_by"] == admin.caller.user_id
    frozen_clock.advance(seconds=1)
    status, btc = await admin.post("/api/v1/whitelist/wallets", {"name": "Cold storage", "currency_id": "DBTC_TEST",
                                                                  "address": external_utxo_address()})
    assert status == 201
    # List (newest first, filter by currency), get one
    status, page = await admin.get("/api/v1/whitelist/wallets")
    assert (status, [i["id"] for i in page["items"]], page["total"]) == (200, [btc["id"], entry["id"]], 2)
    status, page = await admin.get("/api/v1/whitelist/wallets", currency_id="DETH_TEST", limit=1)
    assert ([i["id"] for i in page["items"]], page["total"], page["limit"]) == ([entry["id"]], 1, 1)
    status, one = await admin.get(f"/api/v1/whitelist/wallets/{entry['id']}")
    assert (status, one) == (200, entry)
    # The same address again for the currency is a conflict; for another currency of the network it is not
    status, body = await admin.post("/api/v1/whitelist/wallets", {"name": "Again", "currency_id": "DETH_TEST",
                                                                   "address": ELSEWHERE_EVM})
    assert (status, body["code"], body["details"]["whitelisted_wallet_id"]) == (409, "WHITELISTED_WALLET_EXISTS",
                                                                                entry["id"])
    status, token_entry = await admin.post("/api/v1/whitelist/wallets", {"name": "Exchange USD",
                                                                          "currency_id": "DUSD_TEST",
                                                                          "address": ELSEWHERE_EVM})
    assert status == 201
    # Delete: gone from reads (404 like a missing one), kept for the record, and registrable again
    status, _ = await admin.request("DELETE", f"/api/v1/whitelist/wallets/{entry['id']}")
    assert status == 204
    status, body = await admin.get(f"/api/v1/whitelist/wallets/{entry['id']}")
    assert (status, body["code"]) == (404, "WHITELISTED_WALLET_NOT_FOUND")
    status, body = await admin.request("DELETE", f"/api/v1/whitelist/wallets/{entry['id']}")
    assert (status, body["code"]) == (404, "WHITELISTED_WALLET_NOT_FOUND")
    assert (await WhitelistedWallet.get(id=entry["id"])).deleted_at is not None
    status, again = await admin.post("/api/v1/whitelist/wallets", {"name": "Exchange", "currency_id": "DETH_TEST",
                                                                    "address": ELSEWHERE_EVM})
    assert status == 201 and again["id"] != entry["id"]
    actions = await AuditEntry.filter(object_type="whitelisted_wallet").values_list("action", flat=True)
    assert sorted(actions) == ["whitelist.wallet_added"] * 4 + ["whitelist.wallet_removed"]
    assert token_entry["currency_id"] == "DUSD_TEST"


async def test_bad_addresses_and_currencies_are_refused_with_their_codes(client, broker):
    admin = Api(client, await make_caller(role="ADMIN"))
    ws = await Workspace.get(id=admin.caller.workspace_id)
    own = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    cases = [
        ({"currency_id": "DETH_TEST", "address": "0x1234"}, 400, "INVALID_ADDRESS"),
        ({"currency_id": "DETH_TEST", "address": external_utxo_address()}, 400, "INVALID_ADDRESS"),
        ({"currency_id": "DBTC_TEST", "address": ELSEWHERE_EVM}, 400, "INVALID_ADDRESS"),
        ({"currency_id": "DETH", "address": ELSEWHERE_EVM}, 400, "CURRENCY_NETWORK_MISMATCH"),
        ({"currency_id": "NOPE", "address": ELSEWHERE_EVM}, 404, "CURRENCY_NOT_FOUND"),
        ({"currency_id": "DETH_TEST", "address": await address_of(own)}, 400, "INTERNAL_ADDRESS"),
        ({"currency_id": "DETH_TEST", "address": ELSEWHERE_EVM, "extra": 1}, 400, "VALIDATION_ERROR"),
    ]
    for fields, status_code, code in cases:
        status, body = await admin.post("/api/v1/whitelist/wallets", {"name": "X", **fields})
        assert (status, body["code"]) == (status_code, code), fields
    assert await WhitelistedWallet.all().count() == 0


async def test_permissions_and_isolation(client, broker):
    admin = Api(client, await make_caller(role="ADMIN"))
    viewer = Api(client, await make_caller(role="VIEWER", workspace_id=admin.caller.workspace_id))
    status, entry = await admin.post("/api/v1/whitelist/wallets", {"name": "Exchange", "currency_id": "DETH_TEST",
                                                                    "address": ELSEWHERE_EVM})
    # A viewer reads but changes nothing
    assert (await viewer.get(f"/api/v1/whitelist/wallets/{entry['id']}"))[0] == 200
    status, body = await viewer.post("/api/v1/whitelist/wallets", {"name": "Y", "currency_id": "DETH_TEST",
                                                                    "address": "0x" + "cd" * 20})
    assert (status, body["details"]["permission"]) == (403, "EDIT_WORKSPACE")
    status, body = await viewer.request("PUT", "/api/v1/whitelist/settings", json={"one_time_addresses_allowed": True})
    assert status == 403
    # Another workspace sees nothing of it
    stranger = Api(client, await make_caller(role="ADMIN"))
    status, body = await stranger.get(f"/api/v1/whitelist/wallets/{entry['id']}")
    assert (status, body["code"]) == (404, "WHITELISTED_WALLET_NOT_FOUND")
    assert (await stranger.get("/api/v1/whitelist/wallets"))[1]["total"] == 0
    status, body = await stranger.get(f"/api/v1/whitelist/wallets/{uuid.uuid4()}")
    assert status == 404


async def test_one_time_addresses_are_forbidden_until_allowed(client, broker):
    admin = Api(client, await make_caller(role="ADMIN"))
    status, settings = await admin.get("/api/v1/whitelist/settings")
    assert (status, settings["one_time_addresses_allowed"], settings["updated_at"]) == (200, False, None)
    status, settings = await admin.request("PUT", "/api/v1/whitelist/settings",
                                           json={"one_time_addresses_allowed": True})
    assert (status, settings["one_time_addresses_allowed"], settings["updated_by"]) == (200, True,
                                                                                         admin.caller.user_id)
    # Setting the current value again records nothing
    await admin.request("PUT", "/api/v1/whitelist/settings", json={"one_time_addresses_allowed": True})
    await admin.request("PUT", "/api/v1/whitelist/settings", json={"one_time_addresses_allowed": False})
    actions = await AuditEntry.filter(object_type="whitelist_settings").values_list("action", flat=True)
    assert sorted(actions) == ["whitelist.one_time_addresses_allowed", "whitelist.one_time_addresses_forbidden"]
    status, body = await admin.request("PUT", "/api/v1/whitelist/settings", json={"one_time_addresses_allowed": "yes"})
    assert (status, body["code"]) == (400, "VALIDATION_ERROR")
