"""The gas station's configuration (domain/gas_station/configuration.py, defaults.py): assignment,
autofuel on and off, the per-asset configuration with its rules, the defaults, the audit log."""

from __future__ import annotations

import json

import pytest

from core import clock
from core.settings import configure
from core.unit_of_work import unit_of_work
from domain.currencies import RegistryError
from domain.errors import DomainError
from domain.gas_station import configuration
from domain.gas_station.configuration import AssetChange
from domain.gas_station.defaults import parse_defaults
from models.audit import AuditEntry
from models.gas_station import GasStation, GasStationAsset, VaultAutofuel
from tests.support.wallets import open_wallet, vault_with_key, workspace

DEFAULT_THRESHOLD, DEFAULT_CAP = 5 * 10**15, 2 * 10**16


def _tick() -> None:
    """Move the frozen clock a second, so audit entries sort in the order they were written."""
    clock.get_clock().advance(seconds=1)  # type: ignore[attr-defined]


async def _assign(ws, vault):
    _tick()
    async with unit_of_work():
        return await configuration.assign_station(principal=None, workspace_id=ws.id, vault_id=vault.id)


async def _autofuel(ws, vault, enabled=True):
    _tick()
    async with unit_of_work():
        return await configuration.set_autofuel(principal=None, workspace_id=ws.id, vault_id=vault.id, enabled=enabled)


async def _put(ws, currency_id="DETH_TEST", **values):
    _tick()
    async with unit_of_work():
        return await configuration.update_asset(principal=None, workspace_id=ws.id, currency_id=currency_id,
                                                change=AssetChange(**values))


async def _refused(call) -> DomainError:
    with pytest.raises(DomainError) as caught:
        await call
    return caught.value


async def _actions(ws) -> list[str]:
    return [a for a in await AuditEntry.filter(workspace_id=ws.id).order_by("created_at", "id").values_list(
        "action", flat=True) if a.startswith("gas_station.")]


async def test_assigning_creates_one_station_with_defaults_for_each_base_asset_the_vault_holds(broker):
    # Given a vault with a native coin, a token (which opens the native wallet too) and a UTXO coin
    ws = await workspace()
    station_vault = await vault_with_key(ws, name="Gas")
    for currency_id in ("DUSD_TEST", "DBTC_TEST"):
        await open_wallet(station_vault, currency_id)
    # When it is assigned as the gas station
    view = await _assign(ws, station_vault.vault)
    # Then there is one station, with a configuration from the defaults for the gas-model base asset only
    assert view.station.vault_id == station_vault.vault.id
    assert [(a.currency_id, int(a.threshold), int(a.cap), int(a.max_gas_price), a.is_default)
            for a in view.assets] == [("DETH_TEST", DEFAULT_THRESHOLD, DEFAULT_CAP, -1, True)]
    assert await _actions(ws) == ["gas_station.assigned"]
    entry = await AuditEntry.get(workspace_id=ws.id, action="gas_station.assigned")
    assert entry.details["assets_created"] == ["DETH_TEST"] and entry.details["previous_vault_id"] is None
    # And assigning it again changes nothing and records nothing
    again = await _assign(ws, station_vault.vault)
    assert again.station.id == view.station.id and await _actions(ws) == ["gas_station.assigned"]


async def test_a_second_assignment_moves_the_one_station_and_turns_the_new_vaults_autofuel_off(broker):
    ws = await workspace()
    first, second = await vault_with_key(ws, name="A"), await vault_with_key(ws, name="B")
    first_view = await _assign(ws, first.vault)
    await _autofuel(ws, second.vault)
    # When the second vault (autofuel on) becomes the station
    view = await _assign(ws, second.vault)
    # Then the workspace still has exactly one station, now on the second vault, whose autofuel is off
    assert await GasStation.filter(workspace_id=ws.id).count() == 1
    assert (view.station.id, view.station.vault_id) == (first_view.station.id, second.vault.id)
    assert (await VaultAutofuel.get(vault_id=second.vault.id)).enabled is False
    actions = await _actions(ws)
    assert actions[:2] == ["gas_station.assigned", "gas_station.autofuel_activated"]
    assert sorted(actions[2:]) == ["gas_station.assigned", "gas_station.autofuel_deactivated"]


async def test_autofuel_needs_a_station_and_is_refused_on_the_station_vault(broker):
    ws = await workspace()
    station, target = await vault_with_key(ws, name="Gas"), await vault_with_key(ws, name="Tokens")
    # Without a station: 404 GAS_STATION_NOT_FOUND
    error = await _refused(_autofuel(ws, target.vault))
    assert (error.status, error.code) == (404, "GAS_STATION_NOT_FOUND")
    await _assign(ws, station.vault)
    # On the station's own vault: GAS_STATION_CANNOT_ASSIGN_SELF (409), nothing changes
    error = await _refused(_autofuel(ws, station.vault))
    assert (error.status, error.code) == (409, "GAS_STATION_CANNOT_ASSIGN_SELF")
    assert not await VaultAutofuel.exists(vault_id=station.vault.id)
    # A vault of another workspace is not found
    other = await vault_with_key(await workspace(), name="Elsewhere")
    error = await _refused(_autofuel(ws, other.vault))
    assert error.code == "VAULT_NOT_FOUND"


async def test_autofuel_on_creates_missing_configurations_and_each_change_is_audited_once(broker):
    ws = await workspace()
    station, target = await vault_with_key(ws, name="Gas"), await vault_with_key(ws, name="Tokens")
    await _assign(ws, station.vault)  # the station holds no wallet yet: no configuration
    assert not await GasStationAsset.exists()
    await open_wallet(station, "DETH_TEST")
    # When autofuel is turned on: the missing configuration is created from the defaults
    view = await _autofuel(ws, target.vault)
    assert view.enabled is True
    assert await GasStationAsset.filter(currency_id="DETH_TEST").count() == 1
    # Turning on what is on, or off twice, records one change each
    await _autofuel(ws, target.vault)
    assert (await _autofuel(ws, target.vault, enabled=False)).enabled is False
    await _autofuel(ws, target.vault, enabled=False)
    assert await _actions(ws) == ["gas_station.assigned", "gas_station.autofuel_activated",
                                  "gas_station.autofuel_deactivated"]
    activated = await AuditEntry.get(action="gas_station.autofuel_activated")
    assert (activated.object_id, activated.details["assets_created"]) == (str(target.vault.id), ["DETH_TEST"])


async def test_a_partial_update_keeps_omitted_values_and_enforces_cap_at_least_threshold_above_zero(broker):
    ws = await workspace()
    station = await vault_with_key(ws, name="Gas")
    await open_wallet(station, "DETH_TEST")
    await _assign(ws, station.vault)
    # Only the threshold: cap and max_gas_price stay, is_default turns false, the change is audited
    row = await _put(ws, threshold=10**16)
    assert (int(row.threshold), int(row.cap), int(row.max_gas_price), row.is_default) == (
        10**16, DEFAULT_CAP, -1, False)
    change = await AuditEntry.get(action="gas_station.configuration_changed")
    assert change.details["before"]["threshold"] == str(DEFAULT_THRESHOLD)
    assert change.details["after"]["threshold"] == str(10**16)
    # cap below threshold, a zero threshold or cap: GAS_STATION_INVALID_LIMITS, nothing changes
    for values in ({"cap": 10**16 - 1}, {"threshold": 0}, {"cap": 0}, {"threshold": DEFAULT_CAP + 1}):
        error = await _refused(_put(ws, **values))
        assert (error.status, error.code) == (400, "GAS_STATION_INVALID_LIMITS"), values
    # cap == threshold is allowed
    assert int((await _put(ws, cap=10**16)).cap) == 10**16
    # The same values again: nothing written, nothing recorded
    before = await AuditEntry.filter(action="gas_station.configuration_changed").count()
    await _put(ws, threshold=10**16, cap=10**16)
    await _put(ws)
    assert await AuditEntry.filter(action="gas_station.configuration_changed").count() == before


async def test_max_gas_price_absent_no_limit_zero_and_a_limit(broker):
    ws = await workspace()
    station = await vault_with_key(ws, name="Gas")
    await open_wallet(station, "DETH_TEST")
    await _assign(ws, station.vault)
    assert int((await _put(ws, max_gas_price=0)).max_gas_price) == 0          # no fee allowed
    assert int((await _put(ws, threshold=10**15)).max_gas_price) == 0         # absent: unchanged
    assert int((await _put(ws, max_gas_price=10**14)).max_gas_price) == 10**14  # a limit
    assert int((await _put(ws, max_gas_price=-1)).max_gas_price) == -1        # no limit
    error = await _refused(_put(ws, max_gas_price=-2))
    assert error.code == "GAS_STATION_INVALID_LIMITS"
    assert (await _put(ws, daily_budget=10**17)).daily_budget == 10**17
    assert (await _put(ws, daily_budget=-1)).daily_budget is None
    assert (await _refused(_put(ws, daily_budget=0))).code == "GAS_STATION_INVALID_LIMITS"


async def test_currencies_of_the_other_network_type_and_unsupported_ones(broker):
    ws = await workspace()  # testnet
    station = await vault_with_key(ws, name="Gas")
    await open_wallet(station, "DETH_TEST")
    # No station yet: GET and PUT answer GAS_STATION_NOT_FOUND
    error = await _refused(configuration.get_asset(principal=None, workspace_id=ws.id, currency_id="DETH_TEST"))
    assert (error.status, error.code) == (404, "GAS_STATION_NOT_FOUND")
    assert (await _refused(_put(ws, threshold=1))).code == "GAS_STATION_NOT_FOUND"
    await _assign(ws, station.vault)
    # A mainnet currency: GET 404 GAS_STATION_NOT_FOUND, PUT 400 GAS_STATION_NETWORK_MISMATCH (spec rule 7)
    error = await _refused(configuration.get_asset(principal=None, workspace_id=ws.id, currency_id="DETH"))
    assert (error.status, error.code) == (404, "GAS_STATION_NOT_FOUND")
    error = await _refused(_put(ws, "DETH", threshold=1, cap=2))
    assert (error.status, error.code) == (400, "GAS_STATION_NETWORK_MISMATCH")
    # A token, a UTXO coin: not refuelled (gas-model base assets only)
    for currency_id in ("DUSD_TEST", "DBTC_TEST"):
        error = await _refused(_put(ws, currency_id, threshold=1, cap=2))
        assert (error.status, error.code) == (400, "GAS_STATION_UNSUPPORTED_CURRENCY"), currency_id
    # An unknown currency
    assert (await _refused(_put(ws, "NOPE", threshold=1))).code == "CURRENCY_NOT_FOUND"


@pytest.fixture
def gas_defaults(settings, tmp_path):
    """Write a defaults file of the test's own and use it."""
    def apply(document: dict) -> None:
        path = tmp_path / "gas_station.json"
        path.write_text(json.dumps(document))
        configure(settings.with_overrides(gas_station_file=path))
    yield apply
    configure(settings)


async def test_with_no_default_the_configuration_starts_empty_until_set(broker, gas_defaults):
    gas_defaults({"testnet": {"DETH_TEST": {"threshold": None, "cap": None}}})
    ws = await workspace()
    station = await vault_with_key(ws, name="Gas")
    await open_wallet(station, "DETH_TEST")
    view = await _assign(ws, station.vault)
    assert [(a.threshold, a.cap, a.is_default) for a in view.assets] == [(None, None, True)]
    # A threshold alone is kept (the asset is still skipped until the cap is set too)
    row = await _put(ws, threshold=10**15)
    assert (int(row.threshold), row.cap) == (10**15, None)
    row = await _put(ws, cap=10**16)
    assert (int(row.threshold), int(row.cap), row.is_default) == (10**15, 10**16, False)


async def test_a_base_asset_absent_from_the_platform_configuration_is_never_refuelled(broker, gas_defaults):
    gas_defaults({"testnet": {}})
    ws = await workspace()
    station = await vault_with_key(ws, name="Gas")
    await open_wallet(station, "DETH_TEST")
    view = await _assign(ws, station.vault)
    assert view.assets == []
    assert (await _refused(_put(ws, threshold=1, cap=2))).code == "GAS_STATION_UNSUPPORTED_CURRENCY"


@pytest.mark.parametrize("document, message", [
    ({"testnet": {"DUSD_TEST": {"threshold": "1", "cap": "2"}}}, "only the native coin of a gas-model network"),
    ({"testnet": {"DBTC_TEST": {"threshold": "1", "cap": "2"}}}, "only the native coin of a gas-model network"),
    ({"testnet": {"DETH": {"threshold": "1", "cap": "2"}}}, "a mainnet currency"),
    ({"testnet": {"DETH_TEST": {"threshold": "3", "cap": "2"}}}, "cap must be at least threshold"),
    ({"testnet": {"DETH_TEST": {"threshold": "1", "cap": None}}}, "both set or both null"),
    ({"testnet": {"DETH_TEST": {"threshold": "0", "cap": "2"}}}, "at least 1"),
])
def test_the_defaults_file_is_checked_when_read(settings, document, message):
    with pytest.raises(RegistryError, match=message):
        parse_defaults(document)


def test_the_shipped_defaults_cover_both_network_types(settings):
    defaults = parse_defaults(json.loads((__import__("config").GAS_STATION_FILE).read_text()))
    assert set(defaults["mainnet"]) == {"DETH", "ETH"}
    assert set(defaults["testnet"]) == {"DETH_TEST", "ETH_TEST", "ETH_LOCAL"}
    assert defaults["testnet"]["DETH_TEST"].complete and defaults["testnet"]["ETH_LOCAL"].complete
    # Real Ethereum is listed without a default: its operator sets threshold and cap
    assert not defaults["mainnet"]["ETH"].complete and not defaults["testnet"]["ETH_TEST"].complete
