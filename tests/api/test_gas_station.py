"""The gas station through HTTP: the spec's paths (wallet host, /api/v1), answers, error codes and
permissions (EditWorkspace for changes, ViewWorkspace for reads)."""

from __future__ import annotations

import uuid

from models.workspaces import Workspace
from tests.support.callers import make_caller
from tests.support.wallets import Api, open_wallet, vault_with_key


async def _setup(client, role: str = "ADMIN"):
    caller = await make_caller(role=role)
    ws = await Workspace.get(id=caller.workspace_id)
    station, target = await vault_with_key(ws, name="Gas"), await vault_with_key(ws, name="Tokens")
    await open_wallet(station, "DETH_TEST")
    return Api(client, caller), ws, station, target


async def test_get_answers_configured_false_until_a_station_is_assigned(client, broker):
    api, ws, station, _ = await _setup(client)
    assert await api.get("/api/v1/gas_station") == (200, {"configured": False, "gas_station": None})
    status, body = await api.post(f"/api/v1/gas_station/vault/{station.vault.id}")
    assert status == 200, body
    assert (body["vault_id"], body["workspace_id"]) == (str(station.vault.id), str(ws.id))
    assert body["assets"] == [{"currency_id": "DETH_TEST", "gas_station_id": body["id"],
                               "threshold": "5000000000000000", "cap": "20000000000000000", "max_gas_price": "-1",
                               "daily_budget": "1000000000000000000", "is_default": True}]
    status, state = await api.get("/api/v1/gas_station")
    assert (status, state["configured"], state["gas_station"]) == (200, True, body)
    # A vault that is not the workspace's
    status, error = await api.post(f"/api/v1/gas_station/vault/{uuid.uuid4()}")
    assert (status, error["code"]) == (404, "VAULT_NOT_FOUND")


async def test_autofuel_on_and_off_and_refused_on_the_station_vault(client, broker):
    api, _, station, target = await _setup(client)
    status, error = await api.post(f"/api/v1/vault/accounts/{target.vault.id}/autofuel/activate")
    assert (status, error["code"]) == (404, "GAS_STATION_NOT_FOUND")
    await api.post(f"/api/v1/gas_station/vault/{station.vault.id}")
    assert await api.post(f"/api/v1/vault/accounts/{target.vault.id}/autofuel/activate") == (
        200, {"vault_id": str(target.vault.id), "autofuel": True})
    assert await api.post(f"/api/v1/vault/accounts/{target.vault.id}/autofuel/deactivate") == (
        200, {"vault_id": str(target.vault.id), "autofuel": False})
    status, error = await api.post(f"/api/v1/vault/accounts/{station.vault.id}/autofuel/activate")
    assert (status, error["code"]) == (409, "GAS_STATION_CANNOT_ASSIGN_SELF")


async def test_the_per_asset_configuration_get_and_partial_put(client, broker):
    api, _, station, _ = await _setup(client)
    path = "/api/v1/gas_station/configuration/currency/DETH_TEST"
    status, error = await api.request("PUT", path, json={"threshold": "1"})
    assert (status, error["code"]) == (404, "GAS_STATION_NOT_FOUND")
    await api.post(f"/api/v1/gas_station/vault/{station.vault.id}")
    status, body = await api.request("PUT", path, json={"cap": "30000000000000000", "max_gas_price": "0"})
    assert status == 200, body
    assert (body["threshold"], body["cap"], body["max_gas_price"], body["is_default"]) == (
        "5000000000000000", "30000000000000000", "0", False)
    assert await api.get("/api/v1/gas_station/DETH_TEST") == (200, body)
    # Values: the form (INVALID_AMOUNT) and the relation cap >= threshold > 0 (GAS_STATION_INVALID_LIMITS)
    for values, code in (({"cap": "1.5"}, "INVALID_AMOUNT"), ({"cap": 100}, "INVALID_AMOUNT"),
                         ({"max_gas_price": "-2"}, "INVALID_AMOUNT"), ({"threshold": "-1"}, "INVALID_AMOUNT"),
                         ({"threshold": "0"}, "GAS_STATION_INVALID_LIMITS"),
                         ({"threshold": "30000000000000001"}, "GAS_STATION_INVALID_LIMITS"),
                         ({"daily_budget": "0"}, "GAS_STATION_INVALID_LIMITS"),
                         ({"colour": "red"}, "VALIDATION_ERROR")):
        status, error = await api.request("PUT", path, json=values)
        assert (status, error["code"]) == (400, code), values
    # The other network type: PUT 400 GAS_STATION_NETWORK_MISMATCH, GET 404 GAS_STATION_NOT_FOUND
    status, error = await api.request("PUT", "/api/v1/gas_station/configuration/currency/DETH",
                                      json={"threshold": "1", "cap": "2"})
    assert (status, error["code"]) == (400, "GAS_STATION_NETWORK_MISMATCH")
    status, error = await api.get("/api/v1/gas_station/DETH")
    assert (status, error["code"]) == (404, "GAS_STATION_NOT_FOUND")
    status, error = await api.request("PUT", "/api/v1/gas_station/configuration/currency/DUSD_TEST",
                                      json={"threshold": "1", "cap": "2"})
    assert (status, error["code"]) == (400, "GAS_STATION_UNSUPPORTED_CURRENCY")
    status, error = await api.get("/api/v1/gas_station/NOPE")
    assert (status, error["code"]) == (404, "CURRENCY_NOT_FOUND")


async def test_viewers_read_and_only_editors_change(client, broker):
    admin_api, ws, station, target = await _setup(client)
    await admin_api.post(f"/api/v1/gas_station/vault/{station.vault.id}")
    viewer = Api(client, await make_caller(role="VIEWER", workspace_id=ws.id))
    status, state = await viewer.get("/api/v1/gas_station")
    assert (status, state["configured"]) == (200, True)
    assert (await viewer.get("/api/v1/gas_station/DETH_TEST"))[0] == 200
    for method, path, body in (
            ("POST", f"/api/v1/gas_station/vault/{target.vault.id}", {}),
            ("POST", f"/api/v1/vault/accounts/{target.vault.id}/autofuel/activate", {}),
            ("POST", f"/api/v1/vault/accounts/{target.vault.id}/autofuel/deactivate", {}),
            ("PUT", "/api/v1/gas_station/configuration/currency/DETH_TEST", {"threshold": "1"})):
        status, error = await viewer.request(method, path, json=body)
        assert (status, error["code"], error["details"]["permission"]) == (403, "PERMISSION_DENIED",
                                                                         "EDIT_WORKSPACE"), path
    # An editor may change it
    editor = Api(client, await make_caller(role="EDITOR", workspace_id=ws.id))
    assert (await editor.post(f"/api/v1/vault/accounts/{target.vault.id}/autofuel/activate"))[0] == 200


async def test_webhooks_subscribe_to_the_gas_station_events(client, broker, receiver):
    api, *_ = await _setup(client)
    status, webhook = await api.post("/api/v1/webhooks", {"url": receiver.url("/family"),
                                                          "event_types": ["gas_station.*"]})
    assert (status, webhook["event_types"]) == (201, ["gas_station.*"])
    status, webhook = await api.post("/api/v1/webhooks", {"url": receiver.url("/each"), "event_types": [
        "gas_station.budget_reached", "gas_station.low_balance"]})
    assert (status, webhook["event_types"]) == (201, ["gas_station.budget_reached", "gas_station.low_balance"])
