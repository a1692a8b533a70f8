"""Reference client of the balance synchronization rules (custody wallet service spec, "Transactions").

Keeps a local copy of a workspace's wallet balances from three sources:

1. the balance snapshot ``GET /api/v1/asset/balances/currencies?wallets=true`` (truth + cursor);
2. transaction webhook events (absolute side balances, ordered by ``balance_version``);
3. the change log ``GET /api/v1/transactions/changes`` (catch-up from the saved cursor).

This module is self-contained (standard library only, no import of the service): copy it into
an integration or import it. Transport is yours: pass an async ``fetch(path, params)`` that
performs an authenticated GET (``Authorization`` and ``X-Workspace-Id`` headers) and returns
``(http_status, parsed_json_body)``.

Usage::

    sync = BalanceSync(fetch)
    await sync.reset()                          # rule 1 (also what rule 6 falls back to)
    ...
    sync.apply_event(event_id, transaction)     # rule 2, from your webhook handler
    ...
    in_sync = await sync.sync()                 # rules 3, 4, 6: reconcile, catch up, reconcile
    sync.totals()                               # {currency_id: {"total": int, ...}}

Balances are kept per (address, currency) as integers in atomic units. The cursor is opaque:
it is stored and sent back unchanged and never compared with ``balance_version`` (rule 5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping

SNAPSHOT_PATH = "/api/v1/asset/balances/currencies"
CHANGES_PATH = "/api/v1/transactions/changes"
PAGE_SIZE = 1000
#: Per-wallet balances per snapshot page (the service's maximum).
WALLETS_PAGE_SIZE = 1000
PARTS = ("available", "frozen", "held", "total")

Fetch = Callable[[str, Mapping[str, Any]], Awaitable[tuple[int, Any]]]


class SyncError(RuntimeError):
    """The server answered something the rules do not cover (status and body attached)."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"unexpected answer {status}: {body!r}")
        self.status, self.body = status, body


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
    fetch: Fetch
    cursor: Any = None
    balances: dict[tuple[str, str], LocalBalance] = field(default_factory=dict)
    #: Transactions by id in their newest known state (rule 4: "store items by id").
    transactions: dict[str, dict[str, Any]] = field(default_factory=dict)
    _seen_events: set[str] = field(default_factory=set)
    _seen_states: set[tuple[Any, ...]] = field(default_factory=set)
    resets: int = 0

    # --- rule 1: initial load ----------------------------------------------------------------

    def load_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        """Take the snapshot as truth and its cursor as the position."""
        if "wallet_balances" not in snapshot:
            raise ValueError("request the snapshot with wallets=true: per-wallet balances seed the local copy")
        self.balances = {}
        for wallet in snapshot["wallet_balances"]:
            self._seed(wallet)
        self.cursor = snapshot["cursor"]

    def _seed(self, w: Mapping[str, Any]) -> None:
        self.balances[(w["address"], w["currency_id"])] = LocalBalance(
            address=w["address"], currency_id=w["currency_id"], parts=_atomic(w["balance"]),
            balance_version=w.get("balance_version"), block_height=w.get("block_height"))

    async def reset(self) -> Mapping[str, Any]:
        """Rules 1 and 6: a fresh snapshot becomes the truth; continue from its cursor.

        The per-wallet balances come in pages; each page is a state of its own. Every wallet is
        seeded from its page, and the change log is continued from the *first* page's cursor:
        a change replayed onto a wallet seeded later carries a balance_version it already has.
        """
        params: dict[str, Any] = {"wallets": "true", "wallets_limit": WALLETS_PAGE_SIZE}
        status, snapshot = await self.fetch(SNAPSHOT_PATH, params)
        if status != 200:
            raise SyncError(status, snapshot)
        self.load_snapshot(snapshot)
        page = snapshot
        while page.get("next_wallets_after"):
            status, page = await self.fetch(SNAPSHOT_PATH, {**params, "wallets_after": page["next_wallets_after"]})
            if status != 200:
                raise SyncError(status, page)
            for wallet in page["wallet_balances"]:
                self._seed(wallet)
        self.resets += 1
        return snapshot

    # --- rule 2: live events -----------------------------------------------------------------

    def apply_event(self, event_id: str, transaction: Mapping[str, Any]) -> bool:
        """A webhook event (dedup key: X-Webhook-Event-Id). Returns False for a repeat."""
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
        for side in (tx.get("from"), tx.get("to")):
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
        while True:
            status, page = await self.fetch(CHANGES_PATH, {"since_cursor": self.cursor, "limit": PAGE_SIZE})
            if status == 410:
                await self.reset()  # rule 6: the log cannot restore what was missed
                return
            if status != 200:
                raise SyncError(status, page)
            for item in page["items"]:
                self.apply_transaction(item)
            self.cursor = page["next_cursor"]
            if not page["has_more"]:
                return

    async def sync(self) -> bool:
        """Reconcile; on a mismatch catch up and reconcile again. True when in sync (else retry later)."""
        status, snapshot = await self.fetch(SNAPSHOT_PATH, {})
        if status != 200:
            raise SyncError(status, snapshot)
        if not self.differences(snapshot):
            return True
        await self.catch_up()
        status, snapshot = await self.fetch(SNAPSHOT_PATH, {})
        if status != 200:
            raise SyncError(status, snapshot)
        return not self.differences(snapshot)


def _newer_or_same(incoming: Mapping[str, Any], known: Mapping[str, Any]) -> bool:
    if incoming.get("seq") is not None and known.get("seq") is not None:
        return incoming["seq"] >= known["seq"]
    return str(incoming.get("updated_at") or "") >= str(known.get("updated_at") or "")
