"""The pipeline's steps (domain/withdrawals/pipeline.py) on the devnet: signing lane, broadcast,
confirmations, finality, network refusals, internal transfers, and steps that run twice."""

from __future__ import annotations

import json
import re

import pytest

from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import balances, transactions, vaults
from domain.currencies import registry
from domain.networks.registry import get_adapter
from domain.signing import sessions
from domain.withdrawals import lifecycle, pipeline
from models.audit import AuditEntry
from models.devnet import DevnetBlock, DevnetTransaction
from models.sessions import SigningSession
from models.transactions import Transaction
from models.vaults import Vault
from models.wallets import Wallet
from models.webhooks import WebhookEvent
from models.workspaces import Workspace
from tests.support.environment import TEST_NAMESPACE
from tests.support.statements import statements_sent
from tests.support.wallets import address_of, mine_block, open_wallet, reload, send, vault_with_key, watch, workspace
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    EVM,
    UTXO,
    allow_one_time_addresses,
    confirm,
    confirmations_required,
    external_utxo_address,
    funded_wallet,
    sign_with_test_key,
    step,
    to_broadcast,
    withdraw,
)

GWEI = 10**9
FEE = 21_000 * GWEI


async def _setup(currency: str = "DETH_TEST", amount: int = 2 * ETH):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    return ws, tv, await funded_wallet(tv, currency, amount)


async def _events(tx: Transaction) -> list[str]:
    """The transaction's event types in the order of the changes they report (by ``seq``)."""
    rows = await WebhookEvent.filter(payload__contains=f'"id":"{tx.id}"')
    return [row.type for row in sorted(rows, key=lambda row: json.loads(row.payload)["data"]["seq"])]


async def test_a_withdrawal_counts_confirmations_until_final_then_takes_amount_and_fee(broker, settings, tmp_path):
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 2)).transaction
    with confirmations_required(settings, tmp_path, EVM, 3):
        # Given a signed and broadcast withdrawal on a network that needs 3 confirmations
        tx = await to_broadcast(tx, tv.key)
        assert (tx.status, tx.confirmations, tx.tx_hash is not None) == ("broadcast", 0, True)
        assert transactions.to_resource(tx)["external_link"].endswith(tx.tx_hash)
        # When blocks come, each new confirmation is written, and nothing moves before the third
        seen = []
        for _ in range(3):
            tx = await confirm(tx)
            seen.append((tx.status, tx.confirmations))
        assert seen == [("broadcast", 1), ("broadcast", 2), ("finished", 3)]
        assert transactions.to_resource(tx)["required_confirmations"] == 3
    # Then the amount and the actual fee left the wallet and nothing is held any more
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.held, int(tx.fee), tx.block_height) == (2 * ETH - ETH // 2 - FEE, 0, FEE, 2)
    # (the chain agrees: the address holds exactly that)
    assert parts.total == await get_adapter(EVM).balance_of(address=await address_of(wallet),
                                                             currency=registry().currency("DETH_TEST"))
    # And every transition wrote the log, the audit log and one event, in order
    assert await _events(tx) == ["transaction.created"] + ["transaction.updated"] * 7 + ["transaction.finished"]
    actions = await AuditEntry.filter(object_id=str(tx.id)).values_list("action", flat=True)
    assert sorted(actions) == sorted(["withdrawal.created", "withdrawal.checks", "withdrawal.approved",
                                      "withdrawal.signing", "withdrawal.awaiting_broadcast", "withdrawal.broadcast",
                                      "withdrawal.confirmations", "withdrawal.confirmations", "withdrawal.finished"])
    assert tx.seq == max(t.seq for t in await Transaction.filter(workspace_id=tx.workspace_id))  # the last change
    assert tx.from_side["balance"]["total_atomic"] == str(parts.total)
    assert tx.balance_version == 3  # deposit, hold, then the final release and debit (one change)


async def test_the_tracker_takes_the_block_time_from_the_transfer_status_and_settles_in_one_change(broker):
    # Given a broadcast withdrawal of a wallet that pays its own fee, and the block that holds it
    ws, tv, wallet = await _setup()
    tx = await to_broadcast((await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 2)).transaction, tv.key)
    await mine_block(tx.network)
    block = await DevnetBlock.get(network=tx.network, height=(await DevnetTransaction.get(tx_hash=tx.tx_hash)).block_height)
    # When the tracker finishes it
    with statements_sent() as sent:
        tx = await step(pipeline.track, tx)
    # Then the withdrawal has the block's time, read with the transfer's status: the block's
    # transfers are not read
    assert (tx.status, tx.block_time) == ("finished", block.produced_at)
    assert not [s for s in sent if s.startswith('SELECT') and '"block_height"=$' in s]
    # And the hold given back and the debit are one update of the wallet
    assert len([s for s in sent if "UPDATE wallets" in s]) == 1
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.held) == (2 * ETH - ETH // 2 - FEE, 0)


async def test_an_internal_transfer_credits_the_target_exactly_once_and_is_no_deposit(broker):
    ws = await workspace()
    treasury, savings = await vault_with_key(ws, name="Treasury"), await vault_with_key(ws, name="Savings")
    wallet = await funded_wallet(treasury, "DBTC_TEST", 1_000_000)
    target = await open_wallet(savings, "DBTC_TEST")
    tx = (await withdraw(ws, wallet, await address_of(target), 300_000, target_wallet_id=target.id)).transaction
    tx = await confirm(await to_broadcast(tx, treasury.key))
    assert tx.status == "finished"
    # The target is credited once, by the withdrawal: the watcher sees the block and records no deposit
    assert await watch(UTXO) == []
    for _ in range(2):
        await step(pipeline.track, tx)
    target_parts = balances.parts_of(await reload(target))
    assert (target_parts.total, target_parts.held) == (300_000, 0)
    assert balances.parts_of(await reload(wallet)).total == 1_000_000 - 300_000 - int(tx.fee)
    assert await Transaction.filter(direction="deposit", wallet_id=target.id).count() == 0
    # Its to side is the target wallet's absolute balance after the credit
    side = transactions.to_resource(await Transaction.get(id=tx.id))["to"]
    assert (side["external"], side["balance"]["total_atomic"], side["vault_name"]) == (False, "300000", "Savings")
    assert side["balance_version"] == 1


async def test_a_transfer_the_network_refuses_fails_with_the_networks_reason_and_releases(broker):
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 2)).transaction
    await step(pipeline.run_checks, tx)
    await step(pipeline.start_signing, tx)
    await sign_with_test_key(tx, tv.key)
    signed = await step(pipeline.collect_signature, tx)
    assert signed.status == "awaiting_broadcast"
    # Meanwhile the address's nonce was used by another transfer (its key spent outside the pipeline)
    await send(tv, "DETH_TEST", ELSEWHERE_EVM, 1000)
    row = await step(pipeline.broadcast, tx)
    assert (row.status, row.error_code, row.holding) == ("failed", "NONCE_MISMATCH", False)
    assert "nonce" in row.error_message
    assert balances.parts_of(await reload(wallet)).held == 0
    assert await _events(row) == ["transaction.created"] + ["transaction.updated"] * 4 + ["transaction.failed"]


async def test_a_transfer_reverted_in_its_block_pays_the_fee_but_moves_nothing(broker):
    ws, tv, wallet = await _setup()
    tx = await to_broadcast((await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 2)).transaction, tv.key)
    await mine_block(EVM)
    # The network reports the transfer included but failed (as a reverted contract call would be)
    await DevnetTransaction.filter(tx_hash=tx.tx_hash).update(status="failed", error="execution reverted")
    row = await step(pipeline.track, tx)
    assert (row.status, row.error_code, row.error_message, int(row.fee)) == (
        "failed", "EXECUTION_FAILED", "execution reverted", FEE)
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.held) == (2 * ETH - FEE, 0)


async def test_a_dropped_transfer_fails_and_releases(broker):
    ws, tv, wallet = await _setup()
    tx = await to_broadcast((await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction, tv.key)
    await DevnetTransaction.filter(tx_hash=tx.tx_hash).update(status="dropped", error="nonce or gas no longer valid")
    row = await step(pipeline.track, tx)
    assert (row.status, row.error_code) == ("failed", "DROPPED")
    assert balances.parts_of(await reload(wallet)) == balances.BalanceParts(total=2 * ETH, block_height=1)


async def _both_checked_first_signing():
    """Two withdrawals of one address that both passed their checks, the first signing (it holds
    the lane). (keyed vault, first, second)"""
    ws, tv, wallet = await _setup()
    first = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    second = (await withdraw(ws, wallet, ELSEWHERE_EVM, 2000)).transaction
    for tx in (first, second):
        await step(pipeline.run_checks, tx)
    assert (await step(pipeline.start_signing, first)).status == "signing"
    return tv, first, second


async def test_one_withdrawal_per_address_is_built_and_signed_at_a_time(broker):
    tv, first, second = await _both_checked_first_signing()
    # The second waits in approved while the first holds the lane (its nonce is not in the mempool yet)
    assert (await step(pipeline.start_signing, second)).status == "approved"
    await sign_with_test_key(first, tv.key)
    await step(pipeline.collect_signature, first)
    assert (await step(pipeline.start_signing, second)).status == "approved"
    # When the first is broadcast, the second is started (a sign command is queued for it)
    await step(pipeline.broadcast, first)
    assert await Command.filter(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(second.id)},
                                status="pending").count() >= 1
    second = await to_broadcast_from_approved(second, tv)
    assert [body["nonce"] for body in await _bodies(first, second)] == [0, 1]
    await mine_block(EVM)
    for tx in (first, second):
        assert (await step(pipeline.track, tx)).status == "finished"


async def _signed() -> tuple[Wallet, Transaction]:
    """A withdrawal whose sign step built its transfer (with the source address's public key)
    and whose signing session completed (the test key): its wallet and its row."""
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    await step(pipeline.run_checks, tx)
    assert (await step(pipeline.start_signing, tx)).status == "signing"
    await sign_with_test_key(tx, tv.key)
    return wallet, tx


async def _first_in_lane_second_pending():
    """Two withdrawals of one address: the first passed its checks and holds the lane (signing),
    the second is pending. (workspace, keyed vault, first, second)"""
    ws, tv, wallet = await _setup()
    first = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    second = (await withdraw(ws, wallet, ELSEWHERE_EVM, 2000)).transaction
    await step(pipeline.run_checks, first)
    assert (await step(pipeline.start_signing, first)).status == "signing"
    return ws, tv, first, second


async def test_the_signature_check_does_not_read_the_address_key_the_build_step_read(broker):
    # Given the sign step built the transfer with the source address's public key, and it was signed
    wallet, tx = await _signed()
    # When the signature is collected and checked against that key
    with statements_sent() as sent:
        row = await step(pipeline.collect_signature, tx)
    # Then it is checked without reading the address again (its key never changes)
    assert row.status == "awaiting_broadcast"
    assert [s for s in sent if 'FROM "wallet_addresses"' in s] == []
    # And the change is written without reading the wallet first (write_change reads its balance)
    assert [s for s in sent if 'FROM "wallets"' in s] == []
    assert row.from_side["balance"] == (await _wallet_side(wallet))["balance"]


async def test_the_wake_up_locks_the_withdrawal_and_reads_its_signing_session_in_one_statement(broker):
    # Given a withdrawal whose signing session completed
    _, tx = await _signed()
    # When its wake-up collects the signature (the step locks the row itself: no command's claim did)
    with statements_sent() as sent:
        row = await step(pipeline.collect_signature, tx)
    # Then the row's lock and the session's read are one statement
    assert row.status == "awaiting_broadcast" and row.signature is not None
    reads = [s for s in sent if "signing_sessions" in s]
    assert len(reads) == 1 and "FOR UPDATE" in reads[0], reads
    assert [s for s in sent if re.search(r'FROM "?transactions"?.* FOR UPDATE', s)] == reads


async def test_the_steps_that_issue_the_next_step_write_its_command_with_their_change(broker):
    # Given the first holds the lane and the second waits in approved
    tv, first, second = await _both_checked_first_signing()
    with statements_sent() as sign_sent:
        assert (await step(pipeline.start_signing, second)).status == "approved"
    await sign_with_test_key(first, tv.key)
    # When the first's signature is collected (issuing its broadcast) and it is broadcast (freeing
    # the lane: the second's sign step is issued)
    with statements_sent() as collect_sent:
        assert (await step(pipeline.collect_signature, first)).status == "awaiting_broadcast"
    with statements_sent() as broadcast_sent:
        assert (await step(pipeline.broadcast, first)).status == "broadcast"
    # Then each issued command went into the change's one statement: no INSERT of its own
    for sent in (collect_sent, broadcast_sent):
        assert [s for s in sent if s.startswith('INSERT INTO "outbox_commands"')] == []
    assert await Command.filter(actor_name=pipeline.BROADCAST, payload__contains={"transaction_id": str(first.id)},
                                status="pending").exists()
    assert await Command.filter(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(second.id)},
                                status="pending").exists()
    # And the lane is asked about in one statement, each time (the sign step's with the vault's freeze)
    lane_reads = [[s for s in sent if re.search(r'FROM "?transactions\b.* WHERE .*from_address"? ?= ?\$', s)]
                  for sent in (sign_sent, broadcast_sent)]
    assert [len(reads) for reads in lane_reads] == [1, 1]
    assert not [s for s in sign_sent if 'FROM "vaults"' in s]


async def test_a_withdrawal_approved_while_its_lane_is_held_waits_for_the_lane_without_a_sign_step(broker):
    _, tv, first, second = await _first_in_lane_second_pending()
    # When the second passes its checks while the first holds the lane
    with statements_sent() as sent:
        assert (await step(pipeline.run_checks, second)).status == "approved"
    # Then no sign step is issued for it (it would only find the lane held)
    sign_steps = Command.filter(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(second.id)})
    assert not await sign_steps.exists()
    # (the lane was read with the vault the checks see, in one statement)
    assert len([s for s in sent if re.search(r'FROM "?vaults"? v?\b', s)]) == 1
    # And when the first leaves the lane, the second's sign step is issued and starts it
    await sign_with_test_key(first, tv.key)
    await step(pipeline.collect_signature, first)
    await step(pipeline.broadcast, first)
    assert await sign_steps.filter(status="pending").count() == 1
    assert (await step(pipeline.start_signing, second)).status == "signing"


async def test_a_withdrawal_approved_in_a_frozen_vault_still_gets_its_sign_step_which_freezes_it(broker):
    ws, tv, _, second = await _first_in_lane_second_pending()
    async with unit_of_work():
        await vaults.set_frozen(principal=None, workspace_id=ws.id, vault_id=tv.vault.id, frozen=True)
    # When the second passes its checks while the lane is held and the vault is frozen
    assert (await step(pipeline.run_checks, second)).status == "approved"
    # Then its sign step is issued all the same, and freezes it at once
    assert await Command.filter(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(second.id)},
                                status="pending").exists()
    assert (await step(pipeline.start_signing, second)).status == "frozen"


async def _wallet_side(wallet: Wallet) -> dict:
    row = await reload(wallet)
    state = (await transactions.wallet_states_and_position([row.id])).states[row.id]
    return transactions.wallet_side(state=state, vault=await Vault.get(id=row.vault_id),
                                    workspace=await Workspace.get(id=row.workspace_id),
                                    currency=registry().currency(row.currency_id))


async def test_the_wake_up_of_an_ended_session_names_its_purpose_so_nothing_is_read_to_find_the_withdrawal(
        broker, redis_client):
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    await step(pipeline.run_checks, tx)
    tx = await step(pipeline.start_signing, tx)
    # When its session ends (here: it fails)
    async with unit_of_work():
        session = await sessions.lock_session(tx.signing_session_id)
        await sessions.fail_session(session, participant=None, reason="a signer refused")
    # Then the wake-up names the session and its purpose
    woken = [message["args"][0] for key in redis_client.scan_iter(match=f"{TEST_NAMESPACE}:*.msgs")
             for message in map(json.loads, redis_client.hvals(key)) if message["actor_name"] == pipeline.SIGNED]
    assert woken == [[[str(session.id), f"withdrawal:{tx.id}"]]]
    # And the withdrawal is found from it without a statement
    with statements_sent() as sent:
        assert await pipeline.withdrawals_signed(session_ids=woken[0]) == [tx.id]
    assert sent == []


async def to_broadcast_from_approved(tx: Transaction, tv) -> Transaction:
    await step(pipeline.start_signing, tx)
    await sign_with_test_key(tx, tv.key)
    await step(pipeline.collect_signature, tx)
    return await step(pipeline.broadcast, tx)


async def _bodies(*txs: Transaction) -> list[dict]:
    return [(await Transaction.get(id=tx.id)).transfer for tx in txs]  # type: ignore[misc]


async def test_a_utxo_withdrawal_waits_for_the_change_of_the_one_before(broker):
    ws, tv, wallet = await _setup("DBTC_TEST", 1_000_000)  # one output
    to = external_utxo_address()
    first = await to_broadcast((await withdraw(ws, wallet, to, 100_000)).transaction, tv.key)
    second = (await withdraw(ws, wallet, to, 200_000)).transaction
    await step(pipeline.run_checks, second)
    # The only output is spent by the first (in the mempool): the second waits instead of failing
    assert (await step(pipeline.start_signing, second)).status == "approved"
    # When the first confirms, its change output is spendable and the second is started
    first = await confirm(first)
    assert first.status == "finished"
    assert await Command.filter(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(second.id)},
                                status="pending").exists()
    second = await confirm(await to_broadcast_from_approved(second, tv))
    assert second.status == "finished"
    assert balances.parts_of(await reload(wallet)).total == 1_000_000 - 300_000 - int(first.fee) - int(second.fee)


async def test_a_failed_signing_session_fails_the_withdrawal_and_frees_the_lane(broker):
    ws, tv, wallet = await _setup()
    first = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    second = (await withdraw(ws, wallet, ELSEWHERE_EVM, 2000)).transaction
    for tx in (first, second):
        await step(pipeline.run_checks, tx)
    first = await step(pipeline.start_signing, first)
    await step(pipeline.start_signing, second)
    async with unit_of_work():
        session = await sessions.lock_session(first.signing_session_id)  # type: ignore[arg-type]
        await sessions.fail_session(session, participant=2, reason="signer 2 is gone")  # type: ignore[arg-type]
    row = await step(pipeline.collect_signature, first)
    assert (row.status, row.error_code) == ("failed", "SIGNING_FAILED")
    assert "signer 2 is gone" in row.error_message
    assert await Command.filter(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(second.id)},
                                status="pending").exists()
    assert balances.parts_of(await reload(wallet)).held == 2000 + FEE


async def test_a_transfer_costing_more_than_its_fee_limit_is_not_signed(broker):
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    await step(pipeline.run_checks, tx)
    await Transaction.filter(id=tx.id).update(fee_limit=FEE - 1)  # as if the network's price rose since
    row = await step(pipeline.start_signing, tx)
    assert (row.status, row.error_code, row.signing_session_id) == ("failed", "FEE_LIMIT_EXCEEDED", None)
    assert await SigningSession.all().count() == 0


async def test_steps_run_twice_change_nothing_and_nothing_is_signed_or_broadcast_twice(broker):
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    await step(pipeline.run_checks, tx)
    signing = await step(pipeline.start_signing, tx)
    # The sign step again (a redelivered or repeated command): still one session
    await step(pipeline.start_signing, tx)
    assert await SigningSession.all().count() == 1
    await sign_with_test_key(tx, tv.key)
    await step(pipeline.collect_signature, tx)
    await step(pipeline.collect_signature, tx)
    signed = await Transaction.get(id=tx.id)
    # As if the first broadcast reached the network but its worker died before recording it:
    async with unit_of_work():
        assert await get_adapter(EVM).submit_transfer(body=signed.transfer, signature=signed.signature) == signed.tx_hash
    # the broadcast step submits the same signed bytes again: the network knows them, one transfer
    await step(pipeline.broadcast, tx)
    await step(pipeline.broadcast, tx)
    finished = await confirm(await Transaction.get(id=tx.id))
    assert finished.status == "finished" and finished.signing_session_id == signing.signing_session_id
    # Every step once more after the end: no new position, event, session or transfer
    seq, events = finished.seq, await WebhookEvent.all().count()
    for run in (pipeline.run_checks, pipeline.start_signing, pipeline.collect_signature, pipeline.broadcast,
                pipeline.track):
        await step(run, tx)
    async with unit_of_work():
        await lifecycle.expire(transaction_id=tx.id)
    after = await Transaction.get(id=tx.id)
    assert (after.seq, after.status, await WebhookEvent.all().count()) == (seq, "finished", events)
    assert await SigningSession.all().count() == 1
    assert await DevnetTransaction.filter(kind="transfer").count() == 1
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.held) == (2 * ETH - 1000 - FEE, 0)


async def test_a_transition_and_everything_it_writes_commit_or_roll_back_together(broker):
    ws, _, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    counts = (await AuditEntry.all().count(), await WebhookEvent.all().count(), await Command.all().count())
    with pytest.raises(RuntimeError):
        async with unit_of_work():
            await lifecycle.freeze(principal=None, workspace_id=ws.id, transaction_id=tx.id)
            raise RuntimeError("the worker dies before commit")
    row = await Transaction.get(id=tx.id)
    assert (row.status, row.seq, row.holding) == ("pending", tx.seq, True)
    assert (await AuditEntry.all().count(), await WebhookEvent.all().count(), await Command.all().count()) == counts
    assert balances.parts_of(await Wallet.get(id=wallet.id)).held == 1000 + FEE


async def test_a_signing_session_that_ends_wakes_its_withdrawal_instead_of_a_poll(broker):
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    await step(pipeline.run_checks, tx)
    # Given a withdrawal in signing: its session names the actor to wake when it ends
    tx = await step(pipeline.start_signing, tx)
    session = await SigningSession.get(id=tx.signing_session_id)
    assert session.notify == pipeline.SIGNED
    # When the session completes and the wake-up names it
    await sign_with_test_key(tx, tv.key)
    assert await pipeline.withdrawals_signed(session_ids=[str(session.id), str(session.id)]) == [tx.id]
    # Then collecting at once moves the withdrawal on, with no further poll queued
    polls_before = await Command.filter(actor_name=pipeline.COLLECT_SIGNATURE).count()
    assert (await step(pipeline.collect_signature, tx, reschedule=False)).status == "awaiting_broadcast"
    assert await Command.filter(actor_name=pipeline.COLLECT_SIGNATURE).count() == polls_before
    # And the poll that was the backstop finds nothing left to do
    assert (await step(pipeline.collect_signature, tx, poll=0)).status == "awaiting_broadcast"
