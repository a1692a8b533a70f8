"""The SDK's iterators (custody_sdk.client: ``pages``, ``items``, ``changes``) over the real
service's offset/limit lists and its change log, across more than one page."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.unit_of_work import unit_of_work
from custody_sdk import CursorExpired, items_of
from custody_sdk.openapi.api.vaults import create_vault, list_vaults
from custody_sdk.openapi.api.wallets import list_assets
from custody_sdk.openapi.api.webhooks import create_webhook, list_webhooks
from custody_sdk.openapi.api.workspaces import current_workspace
from custody_sdk.openapi.models import VaultCreate, WebhookCreate
from domain import transactions
from models.workspaces import Workspace
from tests.support.callers import make_api_user
from tests.support.changelog import until_final
from tests.support.sdk import faulty, sdk_for
from tests.support.wallets import fund, open_wallet, vault_with_key, watch

EVM = "devnet-evm-testnet"


async def test_offset_lists_are_iterated_page_by_page_to_their_total(client):
    # Given five vaults and three webhooks (two lists with differently named item fields)
    caller = await make_api_user(role="ADMIN")
    transport = faulty(client)
    async with sdk_for(client, caller, transport=transport) as custody:
        for number in range(5):
            await custody.call(create_vault, body=VaultCreate(name=f"Vault {number}"))
        for number in range(3):
            await custody.call(create_webhook, body=WebhookCreate(url=f"http://127.0.0.1:9/hook{number}",
                                                                  event_types=["transaction.*"]))
        # When they are read two at a time
        vaults = [vault async for vault in custody.items(list_vaults, page_size=2)]
        pages = [page async for page in custody.pages(list_vaults, page_size=2)]
        webhooks = [webhook async for webhook in custody.items(list_webhooks, page_size=2)]
        # ...and from an offset
        tail = [vault async for vault in custody.items(list_vaults, page_size=2, offset=3)]
        in_one_page = (await custody.call(list_vaults, limit=100)).accounts
        webhooks_in_one_page = (await custody.call(list_webhooks, limit=100)).items
    # Then every item came once, in the list's order, over as many pages as it takes
    assert [v.id for v in vaults] == [v.id for v in in_one_page]
    assert sorted(v.name for v in vaults) == [f"Vault {n}" for n in range(5)]
    assert [len(items_of(page)) for page in pages] == [2, 2, 1] and {page.total for page in pages} == {5}
    assert [w.id for w in webhooks] == [w.id for w in webhooks_in_one_page] and len(webhooks) == 3
    assert [v.id for v in tail] == [v.id for v in in_one_page[3:]]
    assert [s.path for s in transport.sent].count("/api/v1/vault/accounts") == 5 + 3 + 3 + 1 + 1


async def test_an_empty_list_is_one_page_and_a_non_list_is_refused(client):
    caller = await make_api_user()
    async with sdk_for(client, caller) as custody:
        assert [asset async for asset in custody.items(list_assets)] == []
        with pytest.raises(TypeError, match="not a page"):
            items_of(await custody.call(current_workspace))


async def test_the_change_log_is_paged_until_has_more_is_false(client, frozen_clock):
    # Given three deposits to a wallet of the workspace
    caller = await make_api_user(role="ADMIN")
    workspace = await Workspace.get(id=caller.workspace_id)
    wallet = await open_wallet(await vault_with_key(workspace), "DETH_TEST")
    await wallet.fetch_related("address")
    for amount in (1, 2, 3):
        await fund(EVM, wallet.address.address, amount * 10**18)
        await watch(EVM)
    await until_final()
    async with sdk_for(client, caller) as custody:
        # When the change log is read two at a time from its start
        pages = [page async for page in custody.changes(page_size=2)]
        # ...and from the last page's cursor
        after = [page async for page in custody.changes(since_cursor=pages[-1].next_cursor)]
        # Then it took two pages, the last saying there is no more, and nothing follows
        assert [len(page.items) for page in pages] == [2, 1]
        assert [page.has_more for page in pages] == [True, False]
        assert sorted(int(tx.amount) for page in pages for tx in page.items) == [10**18, 2 * 10**18, 3 * 10**18]
        assert len(after) == 1 and after[0].items == [] and after[0].has_more is False
        # When the log is compacted past a saved cursor
        frozen_clock.advance(days=400)
        async with unit_of_work():
            assert await transactions.compact(workspace_id=workspace.id, retention=timedelta(days=90)) > pages[0].next_cursor
        # Then reading from it raises the typed 410
        with pytest.raises(CursorExpired) as expired:
            [page async for page in custody.changes(since_cursor=pages[0].next_cursor)]
    assert expired.value.code == "CURSOR_EXPIRED" and expired.value.status == 410
