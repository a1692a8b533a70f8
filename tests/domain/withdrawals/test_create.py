"""Creating a withdrawal (domain/withdrawals/create.py): reservation in the creating transaction,
fees per network family, the gas check, destinations, and refusals that leave nothing behind."""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest

from core.unit_of_work import unit_of_work
from domain import balances, transactions, vaults, whitelist
from domain.errors import DomainError
from domain.withdrawals import fees
from models.audit import AuditEntry
from models.transactions import Transaction
from models.wallets import Wallet, WalletAddress
from models.webhooks import WebhookEvent
from tests.support.changelog import until_final
from tests.support.statements import statements_sent
from tests.support.wallets import address_of, fund, open_wallet, reload, vault_with_key, watch, workspace
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    EVM,
    allow_one_time_addresses,
    external_utxo_address,
    funded_wallet,
    withdraw,
)

GWEI = 10**9


async def _refused(coro) -> DomainError:
    with pytest.raises(DomainError) as refused:
        await coro
    return refused.value


async def test_creation_holds_amount_and_fee_limit_and_writes_everything_in_one_transaction(broker):
    # Given a funded DETH wallet in a workspace that allows one-time addresses
    ws = await workspace()
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", 2 * ETH)
    await allow_one_time_addresses(ws.id)
    # When a withdrawal of 0.5 DETH is created
    created = await withdraw(ws, wallet, ELSEWHERE_EVM.upper().replace("0X", "0x"), ETH // 2)
    tx = created.transaction
    # Then it is pending and the amount plus the fee limit (21,000 gas at 1 gwei) are held
    fee_limit = 21_000 * GWEI
    assert (tx.status, created.replayed, tx.holding) == ("pending", False, True)
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.held, parts.available) == (2 * ETH, ETH // 2 + fee_limit, 2 * ETH - ETH // 2 - fee_limit)
    # And the resource carries every required field and the optional ones that apply
    resource = transactions.to_resource(tx)
    assert {"amount", "created_at", "decimals", "fee", "fee_limit", "formatted_amount", "formatted_fee", "from",
            "id", "status", "symbol", "to", "updated_at"} <= set(resource)
    assert (resource["amount"], resource["formatted_amount"], resource["fee_limit"], resource["formatted_fee_limit"],
            resource["fee"], resource["fee_asset_id"]) == (str(ETH // 2), "0.5", str(fee_limit), "0.000021", "0",
                                                            "DETH_TEST")
    assert (resource["amount_usdt"], resource["blockchain_name"], resource["descriptor"], resource["symbol"]) == (
        "1500.00", "Devnet EVM Testnet", "Devnet Ether Testnet", "tDETH")
    assert resource["to"]["address"] == ELSEWHERE_EVM and resource["destination_type"] == "one_time"
    # The from side is the wallet's absolute balance after the hold, with its address's version
    assert resource["from"]["balance"]["held_atomic"] == str(ETH // 2 + fee_limit)
    assert resource["from"]["balance_version"] == resource["balance_version"] == 2  # deposit, then the hold
    (funding,) = await Transaction.filter(workspace_id=ws.id, direction="deposit")
    assert resource["seq"] > funding.seq and resource["expires_at"] is not None and resource["external_link"] is None
    # And the change log, the audit log, the webhook event and the check command were written with it
    await until_final()
    page = await transactions.changes(principal=None, workspace_id=ws.id, since_cursor=funding.seq)
    assert [item.id for item in page.items] == [tx.id]
    assert await AuditEntry.filter(action="withdrawal.created", object_id=str(tx.id)).count() == 1
    (event,) = [e for e in await WebhookEvent.filter(workspace_id=ws.id, type="transaction.created")
                if f'"id":"{tx.id}"' in e.payload]
    assert '"status":"pending"' in event.payload and f'"seq":{resource["seq"]}' in event.payload


async def test_a_token_withdrawal_holds_its_fee_on_the_native_wallet_and_needs_gas(broker):
    ws = await workspace()
    tv = await vault_with_key(ws)
    await allow_one_time_addresses(ws.id)
    token = await funded_wallet(tv, "DUSD_TEST", 50_000_000)
    native = await Wallet.get(vault_id=tv.vault.id, currency_id="DETH_TEST")
    # Given no native gas at the vault's address: a token withdrawal is refused with a clear code
    refused = await _refused(withdraw(ws, token, ELSEWHERE_EVM, 1_000_000))
    assert (refused.code, refused.status) == ("INSUFFICIENT_GAS", 409)
    assert refused.details["fee_asset_id"] == "DETH_TEST" and refused.details["needed_atomic"] == str(65_000 * GWEI)
    assert await Transaction.filter(direction="withdrawal").count() == 0
    assert balances.parts_of(await reload(token)).held == 0
    # When gas arrives, the amount is held on the token wallet and the fee limit on the native one
    await fund(EVM, await address_of(native), ETH)
    await watch(EVM)
    tx = (await withdraw(ws, token, ELSEWHERE_EVM, 1_000_000)).transaction
    assert (int(tx.fee_limit), tx.fee_currency_id) == (65_000 * GWEI, "DETH_TEST")
    assert balances.parts_of(await reload(token)).held == 1_000_000
    assert balances.parts_of(await reload(native)).held == 65_000 * GWEI
    # And the resource names the fee payer with its absolute balance (sync clients need it)
    resource = transactions.to_resource(tx)
    assert resource["fee_payer"]["currency_id"] == "DETH_TEST"
    assert resource["fee_payer"]["balance"]["held_atomic"] == str(65_000 * GWEI)
    assert resource["fee_payer"]["address"] == resource["from"]["address"]


async def test_the_gas_check_is_one_named_function_the_gas_station_can_replace(broker):
    # The gas station work plugs in here: today it refuses, naming what is missing
    ws = await workspace()
    tv = await vault_with_key(ws)
    native = await open_wallet(tv, "DETH_TEST")
    with pytest.raises(fees.InsufficientGas) as refused:
        fees.require_gas_for_token_transfer(fee_wallet=native, fee_limit=5, address="0xabc")
    assert refused.value.details == {"fee_asset_id": "DETH_TEST", "address": "0xabc", "needed_atomic": "5",
                                     "available_atomic": "0"}


async def test_a_thousand_concurrent_withdrawals_never_overdraw_a_balance_of_100(broker):
    # Given a token wallet holding 100 atomic units (and plenty of gas)
    ws = await workspace()
    tv = await vault_with_key(ws)
    await allow_one_time_addresses(ws.id)
    token = await funded_wallet(tv, "DUSD_TEST", 100, gas=ETH)
    rng = random.Random(7)
    amounts = [rng.choice((1, 2, 3)) for _ in range(1000)]

    async def one(amount: int) -> str:
        try:
            await withdraw(ws, token, ELSEWHERE_EVM, amount)
            return "accepted"
        except DomainError as exc:
            return exc.code

    # When 1,000 withdrawals race for it
    outcomes = await asyncio.gather(*(one(amount) for amount in amounts))
    # Then what was accepted sums to at most 100, the rest was refused for the balance, and the
    # wallet's held equals exactly the accepted amounts
    accepted = [amount for amount, outcome in zip(amounts, outcomes) if outcome == "accepted"]
    assert set(outcomes) <= {"accepted", "INSUFFICIENT_BALANCE"}
    assert 98 <= sum(accepted) <= 100
    parts = balances.parts_of(await reload(token))
    assert (parts.total, parts.held, parts.available) == (100, sum(accepted), 100 - sum(accepted))
    assert await Transaction.filter(direction="withdrawal").count() == len(accepted)
    native = balances.parts_of(await Wallet.get(vault_id=tv.vault.id, currency_id="DETH_TEST"))
    assert native.held == len(accepted) * 65_000 * GWEI


async def test_a_native_withdrawal_is_locked_and_held_in_one_statement_and_racing_ones_never_overdraw(broker):
    # Given a DETH wallet holding exactly three withdrawals of 0.1 DETH with their fee limits
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    each = ETH // 10 + 21_000 * GWEI
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", 3 * each)
    version_before = (await WalletAddress.get(id=wallet.address_id)).balance_version
    # When one is created, the statements it sends are counted
    with statements_sent() as sent:
        first = (await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 10)).transaction
    # Then BEGIN, the source wallet with what the target address is, the lock with the hold and the
    # change-log position, the rows, and COMMIT: no lock of its own, no lookup of the address
    assert len(sent) == 5, sent
    assert not [q for q in sent if "FOR NO KEY UPDATE" in q or ("whitelisted_wallets" in q and "JOIN vaults" not in q)]
    # When ten more race for the two that are left
    async def one() -> str:
        try:
            await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 10)
            return "accepted"
        except DomainError as exc:
            return exc.code
    outcomes = await asyncio.gather(*(one() for _ in range(10)))
    # Then two are accepted and eight refused for the balance, and what is held is exactly theirs
    assert sorted(outcomes) == ["INSUFFICIENT_BALANCE"] * 8 + ["accepted"] * 2
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.held, parts.available) == (3 * each, 3 * each, 0)
    # And each accepted one raised the address's balance version once, the refused ones not at all
    versions = sorted(tx.balance_version for tx in await Transaction.filter(direction="withdrawal"))
    assert versions == [version_before + 1, version_before + 2, version_before + 3]
    assert first.balance_version == version_before + 1
    assert (await WalletAddress.get(id=wallet.address_id)).balance_version == version_before + 3
    # And a refusal says what was available, like any other
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1))
    assert (refused.code, refused.details["available_atomic"]) == ("INSUFFICIENT_BALANCE", "0")

async def test_utxo_fees_follow_the_rate_with_headroom_or_the_callers_limit(broker):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    wallet = await funded_wallet(await vault_with_key(ws), "DBTC_TEST", 1_000_000)
    to = external_utxo_address()
    # Default: the coin selection's fee at the network's 2 sat/vB (1 input, 2 outputs = 141 vB), plus half
    tx = (await withdraw(ws, wallet, to, 10_000)).transaction
    assert (int(tx.fee_limit), tx.fee_currency_id, int(tx.fee_rate)) == (423, "DBTC_TEST", 2)
    assert balances.parts_of(await reload(wallet)).held == 10_000 + 423
    # A caller's rate and limit are used as given when they cover the estimate
    tx = (await withdraw(ws, wallet, to, 20_000, fee_rate_sat_per_vb=5, fee=1_000)).transaction
    assert (int(tx.fee_limit), int(tx.fee_rate)) == (1_000, 5)
    # A limit below the estimate, a rate below the minimum, dust: refused with their own codes
    assert (await _refused(withdraw(ws, wallet, to, 30_000, fee=100))).code == "FEE_TOO_LOW"
    assert (await _refused(withdraw(ws, wallet, to, 30_000, fee_rate_sat_per_vb=0))).code == "FEE_RATE_TOO_LOW"
    assert (await _refused(withdraw(ws, wallet, to, 545))).code == "AMOUNT_BELOW_DUST"


async def test_gas_network_fees_take_a_limit_and_refuse_a_rate(broker):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", ETH)
    # A fee limit sets the gas price (fee // 21,000 gas), never below the network's price
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, fee=21_000 * 3 * GWEI + 5)).transaction
    assert (int(tx.fee_limit), int(tx.fee_rate)) == (21_000 * 3 * GWEI, 3 * GWEI)
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000, fee=21_000 * GWEI - 1))
    assert (refused.code, refused.details["minimum_fee"]) == ("FEE_TOO_LOW", str(21_000 * GWEI))
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000, fee_rate_sat_per_vb=5))
    assert (refused.code, refused.details["field"]) == ("FEE_RATE_NOT_APPLICABLE", "fee_rate_sat_per_vb")
    # Beyond the available balance (amount plus fee limit): refused, nothing held
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, ETH))
    assert refused.code == "INSUFFICIENT_BALANCE"
    assert balances.parts_of(await reload(wallet)).held == 1000 + 21_000 * 3 * GWEI


async def test_destinations_internal_whitelisted_or_one_time(broker):
    ws = await workspace()
    treasury, savings = await vault_with_key(ws, name="Treasury"), await vault_with_key(ws, name="Savings")
    wallet = await funded_wallet(treasury, "DETH_TEST", ETH)
    target = await open_wallet(savings, "DETH_TEST")
    target_address = await address_of(target)
    # One-time addresses are forbidden by default
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000))
    assert (refused.code, refused.status) == ("ONE_TIME_ADDRESS_NOT_ALLOWED", 403)
    # A whitelisted address is accepted, by id or by its address alone, and named on the to side
    async with unit_of_work():
        entry = await whitelist.add_wallet(principal=None, workspace=ws, name="Exchange", currency_id="DETH_TEST",
                                           address=ELSEWHERE_EVM)
    by_id = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, target_whitelisted_asset_id=entry.id)).transaction
    by_address = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1001)).transaction
    for tx in (by_id, by_address):
        assert (tx.destination_type, tx.whitelisted_wallet_id) == ("whitelisted", entry.id)  # type: ignore[attr-defined]
        assert transactions.to_resource(tx)["to"]["whitelisted_wallet_name"] == "Exchange"
    # An internal wallet, by id or by address: its side shows its own balance
    for fields in ({"target_wallet_id": target.id}, {}):
        tx = (await withdraw(ws, wallet, target_address, 1002, **fields)).transaction
        assert (tx.destination_type, tx.target_wallet_id) == ("internal", target.id)  # type: ignore[attr-defined]
        side = transactions.to_resource(tx)["to"]
        assert (side["external"], side["vault_name"], side["wallet_id"]) == (False, "Savings", str(target.id))
        assert side["balance"]["total_atomic"] == "0"
    # Ambiguous or contradictory destinations are refused
    cases = [
        (dict(target_wallet_id=target.id, target_whitelisted_asset_id=entry.id), target_address, "TARGET_AMBIGUOUS"),
        (dict(target_wallet_id=target.id), ELSEWHERE_EVM, "TARGET_ADDRESS_MISMATCH"),
        (dict(target_whitelisted_asset_id=entry.id), target_address, "TARGET_ADDRESS_MISMATCH"),
        (dict(target_wallet_id=uuid.uuid4()), target_address, "TARGET_WALLET_NOT_FOUND"),
        (dict(target_whitelisted_asset_id=uuid.uuid4()), ELSEWHERE_EVM, "WHITELISTED_WALLET_NOT_FOUND"),
        ({}, await address_of(wallet), "SAME_SOURCE_AND_TARGET"),
        ({}, "0x1234", "INVALID_ADDRESS"),
        ({}, external_utxo_address(), "INVALID_ADDRESS"),
        # Text that is no address of any network never reaches SQL unvalidated (a NUL, a lone surrogate)
        ({}, ELSEWHERE_EVM + "\x00", "INVALID_ADDRESS"),
        ({}, ELSEWHERE_EVM[:-1] + "\ud800", "INVALID_ADDRESS"),
    ]
    for fields, to, code in cases:
        assert (await _refused(withdraw(ws, wallet, to, 1000, **fields))).code == code, (fields, to)
    # A wallet of another currency is not a target; an own address without a wallet of the currency neither
    token_target = await open_wallet(await vault_with_key(ws, name="Tokens"), "DUSD_TEST")
    refused = await _refused(withdraw(ws, wallet, await address_of(token_target), 1000,
                                      target_wallet_id=token_target.id))
    assert refused.code == "TARGET_CURRENCY_MISMATCH"
    # A deleted whitelist entry no longer resolves
    async with unit_of_work():
        await whitelist.remove_wallet(principal=None, workspace_id=ws.id, wallet_id=entry.id)
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000, target_whitelisted_asset_id=entry.id))
    assert refused.code == "WHITELISTED_WALLET_NOT_FOUND"


async def test_an_own_address_without_a_wallet_of_the_currency_is_refused(broker):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    token_vault = await vault_with_key(ws, name="Tokens")
    token = await funded_wallet(token_vault, "DUSD_TEST", 1_000_000, gas=ETH)
    eth_only = await open_wallet(await vault_with_key(ws, name="Gas"), "DETH_TEST")
    # Sending DUSD to a vault whose address has no DUSD wallet would not be credited: refused
    refused = await _refused(withdraw(ws, token, await address_of(eth_only), 1000))
    assert (refused.code, refused.status) == ("TARGET_WALLET_NOT_FOUND", 409)


async def test_a_frozen_vault_accepts_no_new_withdrawal_and_other_workspaces_see_nothing(broker):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", ETH)
    async with unit_of_work():
        await vaults.set_frozen(principal=None, workspace_id=ws.id, vault_id=tv.vault.id, frozen=True)
    assert (await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000))).code == "VAULT_FROZEN"
    # Another workspace's wallet is not found, exactly like a missing one
    other = await workspace()
    await allow_one_time_addresses(other.id)
    assert (await _refused(withdraw(other, wallet, ELSEWHERE_EVM, 1000))).code == "WALLET_NOT_FOUND"
    assert await Transaction.filter(direction="withdrawal").count() == 0
