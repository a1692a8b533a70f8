"""Money columns take 78 digits (NUMERIC(78,0)) exactly, in Python as in PostgreSQL, and every
endpoint that takes money answers a 79-digit amount with a 400, never a 500."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.unit_of_work import unit_of_work
from custody.faucet import faucet_command
from models.base import MONEY_MAX, exact_integer
from models.transactions import Transaction
from models.wallets import Wallet
from models.workspaces import Workspace
from tests.support.callers import make_caller
from tests.support.wallets import Api, address_of, open_wallet, reload, vault_with_key, watch
from tests.support.withdrawals import ELSEWHERE_EVM, EVM, allow_one_time_addresses

#: 78 digits, above Python's default decimal precision (28) by far; and one digit more.
DIGITS_78 = "9" * 60 + "8" * 17 + "7"
DIGITS_79 = "1" + "0" * 78


def test_amounts_convert_exactly_or_not_at_all():
    # Given amounts of up to 78 digits in every form a column may meet
    assert exact_integer(Decimal(DIGITS_78)) == int(DIGITS_78)
    assert exact_integer(DIGITS_78) == int(DIGITS_78)
    assert exact_integer(Decimal("1E+77")) == 10**77
    assert exact_integer(MONEY_MAX) == MONEY_MAX
    # Then a fraction, a float or a bool is refused rather than rounded
    for bad in (Decimal("1.5"), "2.5", 1.0, True, Decimal("NaN"), "x"):
        with pytest.raises((ValueError, ArithmeticError)):
            exact_integer(bad)


async def test_a_wallet_reads_and_writes_a_78_digit_balance_exactly(database):
    caller = await make_caller(role="ADMIN")
    wallet = await open_wallet(await vault_with_key(await Workspace.get(id=caller.workspace_id)), "DETH_TEST")
    # When the balance is set to 78 digits
    async with unit_of_work():
        await Wallet.filter(id=wallet.id).update(total=MONEY_MAX)
    # Then it reads back to the unit, as an int
    stored = await reload(wallet)
    assert stored.total == MONEY_MAX and isinstance(stored.total, int)
    # And a value beyond 78 digits never reaches PostgreSQL
    with pytest.raises(Exception, match="78 digits"):
        await Wallet.filter(id=wallet.id).update(total=MONEY_MAX + 1)


async def test_a_withdrawal_of_78_digits_is_taken_and_79_digits_is_a_400(client, broker):
    # Given a wallet funded with the faucet beyond 28 digits
    caller = await make_caller(role="ADMIN")
    ws = await Workspace.get(id=caller.workspace_id)
    await allow_one_time_addresses(ws.id)
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    await faucet_command(network=EVM, address=await address_of(wallet), amount=str(MONEY_MAX), atomic=True,
                         mine=True)
    await watch(EVM)
    api = Api(client, caller)
    status, balances = await api.get(f"/api/v1/asset/{wallet.id}")
    assert status == 200, balances
    # And a published policy whose window counts what passes (its USD value has more than 60 digits)
    window = {"seconds": 3600, "max_amount": str(MONEY_MAX), "match": "within"}
    status, policy = await api.request("PUT", f"/api/v2/admin/tenants/{ws.id}/policies/transfer",
                                       json={"rules": [{"id": "window", "name": "Window", "action": "allow",
                                                        "asset": {"currency_ids": ["DETH_TEST"]},
                                                        "window": window}]})
    assert status == 201, policy
    # When a withdrawal of 78 digits is sent
    body = {"amount": DIGITS_78, "source_wallet_id": str(wallet.id), "target_address": ELSEWHERE_EVM}
    status, created = await api.post("/api/v1/transaction", body)
    # Then it is accepted and reads back to the unit
    assert status == 201, created
    assert created["amount"] == DIGITS_78
    assert (await Transaction.get(id=created["id"])).amount == int(DIGITS_78)
    status, read = await api.get(f"/api/v1/transactions/{created['id']}")
    assert (status, read["amount"]) == (200, DIGITS_78)
    # And 79 digits is a 400 naming the field
    status, error = await api.post("/api/v1/transaction", {**body, "amount": DIGITS_79})
    assert (status, error["code"], error["details"]["field"]) == (400, "INVALID_AMOUNT", "amount")


async def test_gas_station_limits_take_78_digits_and_refuse_79(client, broker):
    caller = await make_caller(role="ADMIN")
    ws = await Workspace.get(id=caller.workspace_id)
    station = await vault_with_key(ws, name="Gas")
    await open_wallet(station, "DETH_TEST")
    api = Api(client, caller)
    await api.post(f"/api/v1/gas_station/vault/{station.vault.id}")
    path = "/api/v1/gas_station/configuration/currency/DETH_TEST"
    # When every limit is set to 78 digits
    limits = {"cap": DIGITS_78, "threshold": DIGITS_78, "max_gas_price": DIGITS_78, "daily_budget": DIGITS_78}
    status, body = await api.request("PUT", path, json=limits)
    # Then they are kept to the unit
    assert status == 200, body
    assert {k: body[k] for k in limits} == limits
    assert await api.get("/api/v1/gas_station/DETH_TEST") == (200, body)
    # And each one of 79 digits is a 400
    for name in limits:
        status, error = await api.request("PUT", path, json={name: DIGITS_79})
        assert (status, error["code"], error["details"]["field"]) == (400, "INVALID_AMOUNT", name)


async def test_policy_amounts_and_the_explained_withdrawal_take_78_digits_and_refuse_79(client, broker):
    owner = await make_caller(role="ADMIN")  # MANAGE_POLICIES (an API user is never the owner)
    ws = await Workspace.get(id=owner.workspace_id)
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    api = Api(client, owner)
    base = f"/api/v2/admin/tenants/{ws.id}/policies/transfer"
    asset = {"currency_ids": ["DETH_TEST"]}
    rules = [{"id": "huge", "name": "Huge", "action": "block", "asset": asset, "amount": {"min": DIGITS_78}},
             {"id": "window", "name": "Window", "action": "allow", "asset": asset,
              "window": {"seconds": 3600, "max_amount": MONEY_MAX.__str__(), "match": "within"}}]
    # When a policy's bounds are 78 digits
    status, published = await api.request("PUT", base, json={"rules": rules})
    assert status == 201, published
    assert published["rules"][0]["amount"]["min"] == DIGITS_78
    # And a withdrawal of 78 digits is explained against it
    withdrawal = {"amount": DIGITS_78, "source_wallet_id": str(wallet.id), "target_address": ELSEWHERE_EVM}
    status, explained = await api.post(f"{base}/explain", {"withdrawal": withdrawal})
    # Then the rule matches to the unit
    assert status == 200, explained
    assert (explained["action"], explained["matched_rule"]["rule_id"]) == ("block", "huge")
    status, below = await api.post(f"{base}/explain", {"withdrawal": {**withdrawal, "amount": str(int(DIGITS_78) - 1)}})
    assert (status, below["matched_rule"]["rule_id"]) == (200, "window")
    # And 79 digits is a 400, in a rule as in the explained withdrawal
    status, error = await api.request("PUT", base, json={"rules": [{**rules[0], "amount": {"min": DIGITS_79}}]})
    assert (status, error["code"], error["details"]["field"]) == (400, "INVALID_POLICY_RULE", "rules[0].amount.min")
    status, error = await api.post(f"{base}/explain", {"withdrawal": {**withdrawal, "amount": DIGITS_79}})
    assert (status, error["code"]) == (400, "INVALID_AMOUNT"), error
