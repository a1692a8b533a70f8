"""Helpers of the wallets/networks/balances tests: vaults with a key, wallets, the devnet, the watcher.

Most tests give a vault a *test key*: the vault is created as the service creates it (its DKG is
requested), then its key set is marked ready with the public key of a plain Ed25519 key pair the
test holds. A FROST(Ed25519) group signature is a plain Ed25519 signature under the group key,
so the devnet cannot tell the difference, and the test can sign transfers itself without running
the three-party DKG each time. The end-to-end test (tests/api/test_wallets.py) and the threshold
signature test (tests/domain/networks/test_devnet.py) run the real DKG.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from nacl.signing import SigningKey

from core import clock
from core.unit_of_work import unit_of_work
from domain import deposits, vaults, wallets
from domain.currencies import registry
from domain.networks import devnet_chain
from domain.networks.registry import get_adapter
from models.keys import KeySet
from models.vaults import Vault
from models.wallets import Wallet
from models.workspaces import Workspace
from tests.support.callers import Caller, make_workspace
from tests.support.client import AppClient
from threshold.scheme import ED25519_SCHEME


async def workspace(network_type: str = "testnet") -> Workspace:
    """A new company with one workspace."""
    return await make_workspace(network_type=network_type)


async def give_test_key(vault_id: uuid.UUID | str) -> SigningKey:
    """Mark the vault's key set ready under a test-held Ed25519 key (see the module docstring)."""
    key = SigningKey.generate()
    async with unit_of_work():
        key_set = await KeySet.filter(vault_id=vault_id, scheme=ED25519_SCHEME).order_by("-created_at") \
            .select_for_update().first()
        assert key_set is not None
        key_set.status = "ready"
        key_set.group_public_key = bytes(key.verify_key)
        key_set.verifying_shares = {}
        key_set.ready_at = clock.now()
        await key_set.save()
    return key


@dataclass
class KeyedVault:
    vault: Vault
    key: SigningKey
    workspace: Workspace

    @property
    def public_key(self) -> bytes:
        return bytes(self.key.verify_key)


async def vault_with_key(ws: Workspace, *, name: str = "Treasury") -> KeyedVault:
    async with unit_of_work():
        view = await vaults.create_vault(principal=None, workspace_id=ws.id, name=name)
    key = await give_test_key(view.vault.id)
    return KeyedVault(view.vault, key, ws)


async def open_wallet(tv: KeyedVault, currency_id: str) -> Wallet:
    async with unit_of_work():
        created = await wallets.create_wallet(principal=None, workspace=tv.workspace, vault_id=tv.vault.id,
                                              currency_id=currency_id)
    return created[0].wallet


async def address_of(wallet: Wallet) -> str:
    await wallet.fetch_related("address")
    return wallet.address.address


async def fund(network_id: str, address: str, amount: int, *, currency_id: str | None = None,
               mine: bool = True) -> str:
    """Faucet ``amount`` to ``address`` (and mine a block)."""
    async with unit_of_work():
        tx_hash = await devnet_chain.faucet(network_id=network_id, address=address, amount=amount, currency_id=currency_id)
    if mine:
        await mine_block(network_id)
    return tx_hash


async def mine_block(network_id: str) -> int:
    async with unit_of_work():
        return await devnet_chain.produce_block(network_id=network_id)


async def watch(network_id: str) -> list:
    """Run the chain watcher over every final block of the network; returns the deposits."""
    found = []
    while True:
        async with unit_of_work():
            scanned = await deposits.scan_next_block(network_id=network_id)
        if scanned is None:
            return found
        found.extend(scanned.deposits)


async def send(tv: KeyedVault, currency_id: str, to_address: str, amount: int, *, fee_rate: int | None = None) -> str:
    """Build, sign with the vault's test key, and submit a devnet transfer from the vault's address."""
    currency = registry().currency(currency_id)
    adapter = get_adapter(currency.network.id)
    sender = adapter.address_from_public_key(tv.public_key)
    async with unit_of_work():
        unsigned = await adapter.build_transfer(currency=currency, from_address=sender, public_key=tv.public_key,
                                                to_address=to_address, amount=amount, fee_rate=fee_rate)
        signature = tv.key.sign(unsigned.signing_payload).signature
        return await adapter.submit_transfer(body=unsigned.body, signature=signature)


async def reload(wallet: Wallet) -> Wallet:
    return await Wallet.get(id=wallet.id)


class Holder:
    """A key and its address on a network (stands in for a vault's group key)."""

    def __init__(self, network_id: str) -> None:
        self.key = SigningKey.generate()
        self.adapter = get_adapter(network_id)
        self.address = self.adapter.address_from_public_key(bytes(self.key.verify_key))

    async def build(self, currency_id: str, to: str, amount: int, **kwargs: Any) -> Any:
        async with unit_of_work():
            return await self.adapter.build_transfer(currency=registry().currency(currency_id),
                                                     from_address=self.address,
                                                     public_key=bytes(self.key.verify_key),
                                                     to_address=to, amount=amount, **kwargs)

    async def submit(self, unsigned: Any, *, key: SigningKey | None = None) -> str:
        signature = (key or self.key).sign(unsigned.signing_payload).signature
        async with unit_of_work():
            return await self.adapter.submit_transfer(body=unsigned.body, signature=signature)

    async def send(self, currency_id: str, to: str, amount: int, **kwargs: Any) -> str:
        return await self.submit(await self.build(currency_id, to, amount, **kwargs))

    async def balance(self, currency_id: str) -> int:
        return await self.adapter.balance_of(address=self.address, currency=registry().currency(currency_id))


class Api:
    """Calls into the app as ``caller``, answering ``(status, json)``: for tests that make many calls."""

    def __init__(self, client: AppClient, caller: Caller) -> None:
        self.client, self.caller = client, caller

    async def request(self, method: str, path: str, *, json: Any = None, params: dict | None = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        headers = headers if headers is not None else self.caller.headers()
        _, response = await self.client.request(method, path, json=json, params=params, headers=headers)
        return response.status, response.json

    async def get(self, path: str, **params: Any) -> tuple[int, Any]:
        return await self.request("GET", path, params={k: v for k, v in params.items() if v is not None})

    async def post(self, path: str, json: Any = None) -> tuple[int, Any]:
        return await self.request("POST", path, json=json if json is not None else {})
