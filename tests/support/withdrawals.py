"""Helpers of the withdrawal tests: funded wallets, creating withdrawals, driving the pipeline.

Two ways to get a signature, as for the wallets tests (tests/support/wallets.py):

* most tests give the vault a *test key* (``vault_with_key``) and run the pipeline's steps
  themselves; :func:`sign_with_test_key` then stands in for the service signers: it completes
  the withdrawal's one signing session with the test key's Ed25519 signature of the session's
  message, exactly what the coordinator stores (a FROST group signature is a plain Ed25519
  signature), so everything around signing runs as in production;
* the end-to-end tests (tests/actors/test_withdrawals.py, tests/api/test_withdrawals.py) use a
  vault whose key came from the real DKG (``tests.support.signing.ready_vault``) and let the
  worker run every step through the real signer actors.
"""

from __future__ import annotations

import json
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator

from nacl.signing import SigningKey

from config import CURRENCIES_FILE
from core import clock
from core.settings import Settings, configure
from core.unit_of_work import unit_of_work
from domain import whitelist
from domain.auth import Principal
from domain.currencies import registry
from domain.networks.registry import get_adapter
from domain.withdrawals import create, lifecycle, pipeline
from domain.withdrawals.create import WithdrawalRequest
from domain.withdrawals.keys import RequestKeys
from models.sessions import SigningSession
from models.transactions import Transaction
from models.wallets import Wallet
from models.workspaces import Workspace
from tests.support.wallets import KeyedVault, address_of, fund, mine_block, open_wallet, reload, watch
from tests.support.worker import wait_for

EVM = "devnet-evm-testnet"
UTXO = "devnet-utxo-testnet"
ETH = 10**18
#: A devnet account address nobody in the tests holds a key for.
ELSEWHERE_EVM = "0x" + "ab" * 20


def external_utxo_address() -> str:
    """A valid testnet UTXO address of a key no test holds."""
    return get_adapter(UTXO).address_from_public_key(bytes(SigningKey.generate().verify_key))


async def funded_wallet(tv: KeyedVault, currency_id: str, amount: int, *, gas: int = 0) -> Wallet:
    """A wallet of ``currency_id`` in the vault holding ``amount`` (deposited on the devnet and seen
    by the watcher); for a token, ``gas`` of the native coin lands at the same address too."""
    wallet = await open_wallet(tv, currency_id)
    currency = registry().currency(currency_id)
    network = currency.network.id
    address = await address_of(wallet)
    if amount:
        await fund(network, address, amount, currency_id=currency_id, mine=False)
    if gas:
        await fund(network, address, gas, mine=False)
    await mine_block(network)
    await watch(network)
    return await reload(wallet)


async def allow_one_time_addresses(workspace_id: uuid.UUID, allowed: bool = True) -> None:
    async with unit_of_work():
        await whitelist.set_settings(principal=None, workspace_id=workspace_id, one_time_addresses_allowed=allowed)


async def withdraw(ws: Workspace, wallet: Wallet, to: str, amount: int, *, principal: Principal | None = None,
                   keys: RequestKeys | None = None, **fields: Any) -> create.Created:
    """POST /transaction through the domain service, in its own unit of work."""
    request = WithdrawalRequest(amount=amount, source_wallet_id=wallet.id, target_address=to, **fields)
    async with unit_of_work():
        return await create.create_withdrawal(principal=principal, workspace=ws, request=request,
                                              keys=keys or RequestKeys())


async def step(run: Callable[..., Awaitable[Any]], tx: Transaction | uuid.UUID, **kwargs: Any) -> Transaction:
    """Run one pipeline step in its own unit of work (as its actor would); the row afterwards."""
    transaction_id = tx.id if isinstance(tx, Transaction) else tx
    async with unit_of_work():
        await run(transaction_id=transaction_id, **kwargs)
    return await Transaction.get(id=transaction_id)


async def sign_with_test_key(tx: Transaction, key: SigningKey) -> None:
    """Complete the withdrawal's signing session with the test key (see the module docstring)."""
    row = await Transaction.get(id=tx.id)
    async with unit_of_work():
        session = await SigningSession.filter(id=row.signing_session_id).select_for_update().first()
        assert session is not None and session.status == "round1"
        session.status, session.signature = "completed", key.sign(bytes(session.message)).signature
        session.completed_at = clock.now()
        await session.save()


async def to_broadcast(tx: Transaction, key: SigningKey) -> Transaction:
    """Checks, signing (with the test key), signature collection and broadcast."""
    await step(pipeline.run_checks, tx)
    signing = await step(pipeline.start_signing, tx)
    assert signing.status == "signing", (signing.status, signing.error_code, signing.error_message)
    await sign_with_test_key(signing, key)
    await step(pipeline.collect_signature, tx)
    return await step(pipeline.broadcast, tx)


async def confirm(tx: Transaction, *, blocks: int = 1) -> Transaction:
    """Mine ``blocks`` blocks on the withdrawal's network and run the tracker once."""
    for _ in range(blocks):
        await mine_block(tx.network)
    return await step(pipeline.track, tx)


async def expire_due() -> int:
    expired = 0
    for transaction_id in await lifecycle.due_for_expiry():
        async with unit_of_work():
            expired += await lifecycle.expire(transaction_id=transaction_id)
    return expired


async def until_status(transaction_id: uuid.UUID, *statuses: str, network: str | None = None,
                       timeout: float = 30.0, on_wait: Callable[[], Awaitable[Any]] | None = None) -> Transaction:
    """Let the worker run the pipeline while this test mines blocks and runs the tracker (the
    scheduler's jobs) until the withdrawal reaches one of ``statuses``."""
    async def reached() -> Transaction | None:
        tx = await Transaction.get(id=transaction_id)
        if tx.status in statuses:
            return tx
        if on_wait is not None:
            await on_wait()
        if tx.status == "broadcast" and network:
            await mine_block(network)
            await step(pipeline.track, tx)
        return None

    return await wait_for(reached, timeout=timeout, interval=0.02)


@contextmanager
def confirmations_required(settings: Settings, folder: Path, network_id: str, confirmations: int) -> Iterator[None]:
    """Within the block, ``network_id`` needs ``confirmations`` blocks (a registry file of its own)."""
    document = json.loads(CURRENCIES_FILE.read_text())
    for network in document["networks"]:
        if network["id"] == network_id:
            network["confirmations"] = confirmations
    path = folder / "currencies.json"
    path.write_text(json.dumps(document))
    configure(settings.with_overrides(currencies_file=path))
    try:
        yield
    finally:
        configure(settings)
