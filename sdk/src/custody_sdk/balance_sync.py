"""A local copy of a workspace's wallet balances, kept by the spec's balance synchronization rules
(custody wallet service spec, "Transactions"; docs/wallets.md):

1. **Initial load**: the balance snapshot ``GET /api/v1/asset/balances/currencies?wallets=true``
   is the truth, and its ``cursor`` the position (:meth:`BalanceSync.reset`).
2. **Live**: each ``transaction.*`` webhook event overwrites the balance of each side it carries
   (``from``, ``to``, and ``fee_payer`` when a token withdrawal's fee comes from another wallet;
   absolute, never added), ordered per address by ``balance_version`` (by ``block_height``
   where a network has no version); repeated events (same event id) and repeated transaction
   states are dropped (:meth:`BalanceSync.apply_webhook`).
3. **Reconcile**: compare the snapshot's per-currency balances with the local totals; the snapshot
   is the authority (:meth:`BalanceSync.sync`).
4. **Catch up** on a mismatch: page the change log from the saved cursor while ``has_more``,
   storing transactions by id, applying their sides as in rule 2, advancing the cursor; then
   reconcile again (:meth:`BalanceSync.catch_up`).
5. The cursor is opaque: stored and sent back, never compared with ``balance_version``.
6. A cursor the log was compacted past (410 ``CURSOR_EXPIRED``) means the log cannot restore
   what was missed: take a fresh snapshot as truth and continue from its cursor.

::

    sync = BalanceSync(custody)
    await sync.reset()                              # rule 1
    sync.apply_webhook(verifier.verify(body, headers))   # rule 2, in the webhook receiver
    in_sync = await sync.sync()                     # rules 3, 4, 6 (periodically; False: retry later)
    sync.totals()                                   # {currency_id: {"available": int, ...}}

Balances are integers of atomic units per (address, currency). Everything works on the wire
form of the resources (dicts), so events and change-log items are handled alike.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Mapping

from custody_sdk.client import Custody
from custody_sdk.errors import CursorExpired
from custody_sdk.openapi.api.balances import balance_snapshot
from custody_sdk.webhooks import TRANSACTION_EVENTS, WebhookEvent

PAGE_SIZE = 1000
#: Per-wallet balances per snapshot page (the service's maximum).
WALLETS_PAGE_SIZE = 1000
PARTS = ("available", "frozen", "held", "total")


@dataclass
class LocalBalance:
    """One wallet's balance parts (atomic units) and what orders updates to it."""

    address: str
    currency_id: str
    parts: dict[str, int]
    balance_version: int | None = None
    block_height: int | None = None


def _atomic(balance: Mapping[str, Any]) -> dict[str, int]:
    return {part: int(balance[f"{part}_atomic"]) for part in PARTS}


@dataclass
class BalanceSync:
    """The local copy and the rules that keep it (see the module docstring).

    :param custody: The client that reads the snapshot and the change log.
    :param workspace_id: The workspace to follow (the client's when None).
    """

    custody: Custody
    workspace_id: str | uuid.UUID | None = None
    page_size: int = PAGE_SIZE
    cursor: int | str | None = None
    balances: dict[tuple[str, str], LocalBalance] = field(default_factory=dict)
    #: Transactions by id in their newest known state (rule 4: "store items by id").
    transactions: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Snapshots taken (the first load, and each reset of rule 6).
    resets: int = 0
    _seen_events: set[str] = field(default_factory=set)
    _seen_states: set[tuple[Any, ...]] = field(default_factory=set)

    # --- rule 1: initial load ----------------------------------------------------------------

    async def _snapshot(self, *, wallets: bool, wallets_after: str | None = None) -> dict[str, Any]:
        arguments: dict[str, Any] = {"wallets": wallets, "workspace_id": self.workspace_id}
        if wallets:
            arguments["wallets_limit"] = WALLETS_PAGE_SIZE
            if wallets_after is not None:
                arguments["wallets_after"] = uuid.UUID(str(wallets_after))
        snapshot = await self.custody.call(balance_snapshot, **arguments)
        return dict(snapshot.to_dict())

    def load_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        """Take a snapshot (wire form, with ``wallet_balances``) as truth and its cursor as the position."""
        if snapshot.get("wallet_balances") is None:
            raise ValueError("request the snapshot with wallets=true: per-wallet balances seed the local copy")
        self.balances = {}
        for wallet in snapshot["wallet_balances"]:
            self._seed(wallet)
        self.cursor = snapshot["cursor"]

    def _seed(self, w: Mapping[str, Any]) -> None:
        self.balances[(w["address"], w["currency_id"])] = LocalBalance(
            address=w["address"], currency_id=w["currency_id"], parts=_atomic(w["balance"]),
            balance_version=w.get("balance_version"), block_height=w.get("block_height"))

    async def reset(self) -> dict[str, Any]:
        """Rules 1 and 6: a fresh snapshot becomes the truth; continue from its cursor.

        The per-wallet balances come in pages; each page is a state of its own. Every wallet is
        seeded from its page, and the change log is continued from the *first* page's cursor:
        a change replayed onto a wallet seeded later carries a balance_version it already has.
        """
        snapshot = await self._snapshot(wallets=True)
        self.load_snapshot(snapshot)
        page = snapshot
        while page.get("next_wallets_after"):
            page = await self._snapshot(wallets=True, wallets_after=page["next_wallets_after"])
            for wallet in page["wallet_balances"]:
                self._seed(wallet)
        self.resets += 1
        return snapshot

    # --- rule 2: live events -----------------------------------------------------------------

    def apply_webhook(self, event: WebhookEvent) -> bool:
        """A verified webhook event: ``transaction.*`` events are applied (False for a repeat),
        others are not about balances (False)."""
        if not event.type.startswith(TRANSACTION_EVENTS):
            return False
        return self.apply_event(event.id, event.data)

    def apply_event(self, event_id: str, transaction: Mapping[str, Any]) -> bool:
        """A transaction event (dedup key: the event id, ``webhook-id``). False for a repeat."""
        if event_id in self._seen_events:
            return False
        self._seen_events.add(event_id)
        return self.apply_transaction(transaction)

    def apply_transaction(self, tx: Mapping[str, Any]) -> bool:
        """Apply a transaction's sides; a transaction already seen in this state is dropped."""
        state = (tx["id"], tx.get("seq"), tx.get("status"), tx.get("updated_at"), tx.get("balance_version"))
        if state in self._seen_states:
            return False
        self._seen_states.add(state)
        known = self.transactions.get(tx["id"])
        if known is None or _newer_or_same(tx, known):
            self.transactions[tx["id"]] = dict(tx)
        # ``fee_payer``: the wallet paying the fee when it is not ``from`` (a token withdrawal's
        # native coin wallet); it carries an absolute balance like the two sides.
        for side in (tx.get("from"), tx.get("to"), tx.get("fee_payer")):
            if side and not side.get("external") and side.get("balance") is not None:
                self._apply_side(side, tx)
        return True

    def _apply_side(self, side: Mapping[str, Any], tx: Mapping[str, Any]) -> None:
        """Overwrite with the absolute side balance unless it is older than what we hold."""
        key = (side["address"], side.get("currency_id") or tx["currency_id"])
        version = side.get("balance_version", tx.get("balance_version"))
        height = side.get("block_height", tx.get("block_height"))
        current = self.balances.get(key)
        if current is not None:
            if version is not None and current.balance_version is not None:
                if version < current.balance_version:
                    return  # an older state of this address arrived late
            elif height is not None and current.block_height is not None and height < current.block_height:
                return  # no version (possible on UTXO networks): last write by block height wins
        self.balances[key] = LocalBalance(address=key[0], currency_id=key[1], parts=_atomic(side["balance"]),
                                          balance_version=version, block_height=height)

    # --- rule 3: reconcile -------------------------------------------------------------------

    def totals(self) -> dict[str, dict[str, int]]:
        """Local balances summed per currency id."""
        sums: dict[str, dict[str, int]] = {}
        for balance in self.balances.values():
            target = sums.setdefault(balance.currency_id, dict.fromkeys(PARTS, 0))
            for part in PARTS:
                target[part] += balance.parts[part]
        return sums

    def differences(self, snapshot: Mapping[str, Any]) -> dict[str, tuple[dict[str, int], dict[str, int]]]:
        """Currencies whose snapshot balance differs from the local totals: {id: (server, local)}."""
        local = self.totals()
        server = {c["currency"]["id"]: _atomic(c) for c in snapshot["currency_balances"]}
        zero = dict.fromkeys(PARTS, 0)
        return {cid: (server.get(cid, zero), local.get(cid, zero))
                for cid in set(local) | set(server) if server.get(cid, zero) != local.get(cid, zero)}

    # --- rules 4 and 6: catch up -------------------------------------------------------------

    async def catch_up(self) -> None:
        """Page the change log from the saved cursor; reset from a snapshot when it expired."""
        try:
            async for page in self.custody.changes(since_cursor=self.cursor, page_size=self.page_size,
                                                   workspace_id=self.workspace_id):
                for item in page.items:
                    self.apply_transaction(item.to_dict())
                self.cursor = page.next_cursor
        except CursorExpired:
            await self.reset()  # rule 6: the log cannot restore what was missed

    async def sync(self) -> bool:
        """Reconcile; on a mismatch catch up and reconcile again. True when in sync (else retry later)."""
        if not self.differences(await self._snapshot(wallets=False)):
            return True
        await self.catch_up()
        return not self.differences(await self._snapshot(wallets=False))


def _newer_or_same(incoming: Mapping[str, Any], known: Mapping[str, Any]) -> bool:
    if incoming.get("seq") is not None and known.get("seq") is not None:
        return int(incoming["seq"]) >= int(known["seq"])
    return str(incoming.get("updated_at") or "") >= str(known.get("updated_at") or "")
