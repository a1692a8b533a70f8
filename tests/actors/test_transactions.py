"""The change-log compaction actor (actors/transactions.py)."""

from __future__ import annotations

import asyncio

from actors.transactions import COMPACT_CHANGELOG
from domain import transactions
from models.transactions import Transaction
from tests.support.changelog import until_final
from tests.support.wallets import address_of, fund, open_wallet, vault_with_key, watch, workspace

UTXO = "devnet-utxo-testnet"


async def test_compaction_actor_covers_every_workspace(broker, worker, frozen_clock):
    # Given a workspace whose only change is a year old
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DBTC_TEST")
    await fund(UTXO, await address_of(wallet), 10_000)
    await watch(UTXO)
    await until_final()
    (deposit,) = await Transaction.filter(workspace_id=ws.id)
    frozen_clock.advance(days=365)
    # When the scheduled compaction runs
    await asyncio.to_thread(broker.get_actor(COMPACT_CHANGELOG).send)
    await worker.drain()
    # Then its min_cursor moved past it
    assert (await transactions.log_state(ws.id))[1] == deposit.seq
