"""A broadcast withdrawal that waits too long is replaced with a higher fee (EVM networks).

An EVM transaction whose max fee the network no longer takes (the base fee rose) waits in the
node's pool and may never be mined. Its payment is then sent again as a **replacement**: the
same nonce (so at most one of the two can ever execute), both fees at the current price and at
least 110% of the last attempt's (what nodes require), signed anew. The steps, each under the
withdrawal's row lock and only while it is ``broadcast`` (its status does not change):

1. **Stuck** (:func:`replace_if_stuck`, from the scheduled ``withdrawals.track``): the current
   attempt is still unmined ``params.replace_after_seconds`` (per network, from the injectable
   clock) after it was broadcast (or after the last try that was not sent); a network without
   that setting is never replaced, nor an adapter without ``build_replacement``.
2. **Build** (the adapter's ``build_replacement``: gas estimated without the replaced
   transaction and never below its gas): refused with ``FEE_CAP_REACHED`` when the
   bumped max fee per gas would pass the network's cap (``params.replacement_max_fee_per_gas``,
   else :data:`DEFAULT_MAX_FEE_PER_GAS`): the withdrawal keeps waiting with its current attempt
   and is not tried again (a bump is relative to the last attempt, so it could only grow).
   The client's own max fee (``fee`` at creation) is the first attempt's, not a cap: a
   replacement must outbid it.
3. **Hold**: the fee limit held is raised to the replacement's (``gas x maxFeePerGas``, the
   worst case). When the fee wallet's available balance cannot cover the rise (or the node says
   the address cannot pay it), nothing is signed: the withdrawal keeps waiting and the try is
   recorded ``deferred`` with its reason (an audit entry and a ``transaction`` event), to be
   tried again one interval later.
4. **Sign**: a new signing session (purpose ``withdrawal:<id>:replacement:<n>``), so a new
   presignature from the single-use stock; never the original's. Its wake-up (the same
   ``withdrawals.signed``) or the :data:`COLLECT_REPLACEMENT` polls store the signature and the
   hash before anything is sent (``signed``).
5. **Broadcast** (:data:`BROADCAST_REPLACEMENT`): exactly the stored signed bytes; a repeat
   submits the same bytes again (the node answers with the same hash). Accepted, the
   replacement becomes the withdrawal's attempt (``tx_hash``, ``transfer``, ``signature``,
   signing sessions, ``broadcast_at``) and the one it replaced is kept on its row. Refused
   (the original was mined meanwhile: ``NONCE_USED``; underpriced; no funds), the bytes can
   never execute: the row is ``refused`` and the raised hold is lowered back.
6. **Mined** (:func:`mined_attempt`, from ``withdrawals.track``): every attempt that reached
   the node is looked at; whichever was mined is the withdrawal's (it switches back to an
   earlier attempt if that one won), and its receipt's fee is debited once when it is final.

Rows: :class:`models.replacements.WithdrawalReplacement`. docs/networks.md, "Stuck transactions".
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta
from typing import Any

from core import clock
from domain import balances
from domain import transaction_statuses as statuses
from domain.currencies import Network
from domain.errors import DomainError
from domain.networks.base import TransferRejected, TransferStatus, signing_payloads, submit_signed
from domain.networks.registry import get_adapter
from domain.signing import sessions
from domain.withdrawals import ledger
from models import replacements as rows
from models.replacements import WithdrawalReplacement
from models.transactions import Transaction
from models.wallets import WalletAddress
from threshold.suites import suite_of

logger = logging.getLogger(__name__)

COLLECT_REPLACEMENT = "withdrawals.collect_replacement"
BROADCAST_REPLACEMENT = "withdrawals.broadcast_replacement"
#: The cap on a replacement's max fee per gas where the network names none: 500 gwei.
DEFAULT_MAX_FEE_PER_GAS = 500 * 10**9
FIRST_POLL = timedelta(seconds=1)
POLL_CAP = timedelta(seconds=15)


def replace_after(network: Network) -> timedelta | None:
    """How long an attempt may wait unmined before it is replaced (None: never, on this network)."""
    seconds = network.params.get("replace_after_seconds")
    return None if seconds in (None, "", 0) else timedelta(seconds=int(seconds))


def looks_under_lock(adapter: Any, *, state: str, broadcast_at: datetime | None, replacement: bool) -> bool:
    """Whether the tracker must look at a broadcast withdrawal of a replaceable network under its
    row lock, where its attempts are (:func:`mined_attempt`, :func:`replace_if_stuck`), given
    the ``state`` of its current attempt as read with no lock held.

    Yes when that attempt was dropped (another may have been mined), when it is a replacement
    not mined yet (its earlier attempt may be the one mined), or when it has waited
    ``replace_after`` since its broadcast (it may be replaced now; a replacement already in
    flight or refused only waits longer). No otherwise: an included attempt is the mined one,
    and a pending original not due for replacement is left to wait, so the network's answer,
    however slow, holds no lock and no connection."""
    if state == "included":
        return False
    if state == "dropped" or replacement:
        return True
    after = replace_after(adapter.network)
    return state == "pending" and after is not None and broadcast_at is not None and clock.now() >= broadcast_at + after


def fee_cap(network: Network) -> int:
    """The highest max fee per gas a replacement may offer on ``network``."""
    return int(network.params.get("replacement_max_fee_per_gas") or DEFAULT_MAX_FEE_PER_GAS)


def replaceable(adapter: Any) -> bool:
    return hasattr(adapter, "build_replacement") and replace_after(adapter.network) is not None


def _poll_delay(poll: int) -> timedelta:
    return min(FIRST_POLL * 1.5 ** min(poll, 20), POLL_CAP)


async def _latest(tx: Transaction, *, lock: bool = False) -> WithdrawalReplacement | None:
    query = WithdrawalReplacement.filter(transaction_id=tx.id, workspace_id=tx.workspace_id).order_by("-number")
    return await (query.select_for_update() if lock else query).first()


def _current_attempt(tx: Transaction) -> dict[str, Any]:
    return {"tx_hash": tx.tx_hash, "transfer": tx.transfer,
            "signature": bytes(tx.signature or b"").hex(), "signing_session_id": str(tx.signing_session_id),
            "signing_session_ids": tx.signing_session_ids,
            "broadcast_at": clock.rfc3339(tx.broadcast_at)}


def _take_attempt(tx: Transaction, attempt: dict[str, Any]) -> None:
    tx.tx_hash, tx.transfer = attempt["tx_hash"], attempt["transfer"]
    tx.signature = bytes.fromhex(attempt["signature"]) if attempt.get("signature") else None
    tx.signing_session_id = uuid.UUID(attempt["signing_session_id"])
    tx.signing_session_ids = attempt.get("signing_session_ids")


# --------------------------------------------------------------------------------------------
# 1-4: stuck → build, hold, sign
# --------------------------------------------------------------------------------------------


async def replace_if_stuck(tx: Transaction, adapter: Any) -> WithdrawalReplacement | None:
    """Start a replacement of the locked, broadcast ``tx`` whose attempt is pending, when it
    waited long enough (see the module). Returns the row written, if any."""
    after = replace_after(adapter.network)
    if after is None or tx.broadcast_at is None or clock.now() < tx.broadcast_at + after:
        return None  # (no query while the attempt is young: the tracker looks every few seconds)
    last = await _latest(tx)
    if last is not None and last.state in rows.IN_FLIGHT:
        if clock.now() >= last.updated_at + after:
            # Its step made no progress for an interval (a command whose retries were spent):
            # issue it again; both steps are idempotent.
            last.updated_at = clock.now()
            await last.save(update_fields=["updated_at"])
            await ledger.add_step(COLLECT_REPLACEMENT if last.state == rows.SIGNING else BROADCAST_REPLACEMENT, tx)
        return None
    if last is not None and last.state == rows.CAPPED:
        return None
    since = tx.broadcast_at
    if last is not None and last.state in (rows.DEFERRED, rows.REFUSED, rows.ABANDONED):
        since = max(since, last.updated_at)
    if clock.now() < since + after:
        return None
    number = (last.number if last is not None else 0) + 1
    parties = await ledger.load(tx, lock=True)
    public_key = await ledger.public_key_of(tx)
    key = str((tx.transfer or {}).get("intent_key") or f"withdrawal:{tx.id}")
    try:
        unsigned = await adapter.build_replacement(
            currency=parties.currency, from_address=tx.from_address or "", public_key=public_key,
            to_address=tx.to_address or "", amount=int(tx.amount), intent_key=key,
            max_fee_cap=fee_cap(adapter.network), replaced_gas=int((tx.transfer or {}).get("gas") or 0))
    except TransferRejected as exc:
        if exc.code == "ALREADY_EXECUTED":
            return None  # an attempt was mined: the tracker's next look finds it
        state = rows.CAPPED if exc.code == "FEE_CAP_REACHED" else rows.DEFERRED
        return await _not_sent(parties, number, state, exc.code, exc.message, exc.details)
    previous_limit = int(tx.fee_limit)
    if not await ledger.change_fee_limit(parties, max(unsigned.fee_limit, previous_limit)):
        return await _not_sent(parties, number, rows.DEFERRED, "INSUFFICIENT_BALANCE",
                               f"the fee wallet cannot hold the replacement's fee limit of {unsigned.fee_limit} "
                               f"(held now: {previous_limit})",
                               {"needed_fee_limit": unsigned.fee_limit, "held_fee_limit": previous_limit,
                                "available": balances.parts_of(parties.fee_wallet).available})
    payloads = signing_payloads(unsigned)
    if len(payloads) != 1:
        raise RuntimeError("a replacement is one signature (an EVM transaction)")
    payload = payloads[0]
    try:
        session = await sessions.request_signature(
            workspace_id=tx.workspace_id, vault_id=tx.vault_id, message=payload.message,
            purpose=f"withdrawal:{tx.id}:replacement:{number}", scheme=payload.scheme,
            merkle_root=payload.merkle_root, notify=ledger.SIGNED)
    except DomainError as exc:
        await ledger.change_fee_limit(parties, previous_limit)
        return await _not_sent(parties, number, rows.DEFERRED, exc.code, exc.message, {})
    row = await WithdrawalReplacement.create(
        workspace_id=tx.workspace_id, transaction_id=tx.id, number=number, state=rows.SIGNING,
        replaced=_current_attempt(tx), transfer=unsigned.body, fee_limit=int(tx.fee_limit),
        previous_fee_limit=previous_limit, signing_session_id=session.id)
    await ledger.write_change(parties, status=statuses.BROADCAST, actor_id=None, action="withdrawal.replacing",
                              details={"replacement": number, "replaces_tx_hash": tx.tx_hash,
                                       "signing_session_id": str(session.id),
                                       "max_fee_per_gas": unsigned.body.get("max_fee_per_gas"),
                                       "fee_limit": str(tx.fee_limit), "previous_fee_limit": str(previous_limit)})
    await ledger.add_step(COLLECT_REPLACEMENT, tx, delay=_poll_delay(0), poll=0)
    return row


async def _not_sent(parties: ledger.Parties, number: int, state: str, code: str, message: str,
                    details: dict[str, Any]) -> WithdrawalReplacement:
    """Record a replacement not sent (the withdrawal keeps waiting with its attempt)."""
    tx = parties.tx
    row = await WithdrawalReplacement.create(workspace_id=tx.workspace_id, transaction_id=tx.id, number=number,
                                             state=state, reason_code=code[:64], reason=message[:2000])
    logger.info("withdrawal %s: replacement %d not sent (%s): %s", tx.id, number, code, message)
    await ledger.write_change(parties, status=statuses.BROADCAST, actor_id=None,
                              action=f"withdrawal.replacement_{state}",
                              details={"replacement": number, "reason_code": code, "reason": message,
                                       "tx_hash": tx.tx_hash, **{k: str(v) for k, v in details.items()}})
    return row


# --------------------------------------------------------------------------------------------
# 4-5: the signature, then the broadcast
# --------------------------------------------------------------------------------------------


async def collect(tx: Transaction, *, poll: int = 0, reschedule: bool = True) -> None:
    """The locked withdrawal's replacement in signing: store its signature and hash once the
    session completed (then broadcast it), give it up if the session failed, else look again."""
    row = await _latest(tx, lock=True)
    if row is None or row.state != rows.SIGNING or row.signing_session_id is None:
        return
    if tx.status != statuses.BROADCAST:
        row.state = rows.ABANDONED
        await row.save(update_fields=["state", "updated_at"])
        return
    session = await sessions.get_session(workspace_id=tx.workspace_id, session_id=row.signing_session_id)
    if session.status == "completed":
        signature = bytes(session.signature or b"")
        # The sending address is the session's vault's on this network (one per vault and
        # network); its key is what the signature must verify under. No change is written here,
        # so the withdrawal's parties are not loaded.
        address = await WalletAddress.get(workspace_id=tx.workspace_id, vault_id=session.vault_id,
                                          network=tx.network)
        scheme = (await sessions.ready_key_sets([session.key_set_id]))[session.key_set_id].scheme
        merkle_root = None if session.merkle_root is None else bytes(session.merkle_root)
        if not suite_of(scheme).verify(bytes(address.public_key), bytes(session.message), signature, merkle_root):
            await _refused(tx, row, "SIGNING_FAILED", "the replacement's signature does not verify under the vault's key")
            return
        row.signature = signature
        row.tx_hash = get_adapter(tx.network).transaction_hash(body=row.transfer or {}, signature=signature)
        row.state = rows.SIGNED
        await row.save(update_fields=["signature", "tx_hash", "state", "updated_at"])
        await ledger.add_step(BROADCAST_REPLACEMENT, tx)
    elif session.status == "failed":
        await _refused(tx, row, "SIGNING_FAILED", f"threshold signing failed: {session.failure_reason}")
    elif reschedule:
        await ledger.add_step(COLLECT_REPLACEMENT, tx, delay=_poll_delay(poll + 1), poll=poll + 1)


async def collect_replacement(*, transaction_id: uuid.UUID | str, poll: int = 0) -> None:
    """The :data:`COLLECT_REPLACEMENT` step (a poll, the backstop of the session's wake-up)."""
    tx = await ledger.lock_withdrawal(transaction_id)
    if tx is not None:
        await collect(tx, poll=poll)


async def broadcast_replacement(*, transaction_id: uuid.UUID | str) -> None:
    """Submit the stored signed replacement (see the module, step 5)."""
    tx = await ledger.lock_withdrawal(transaction_id)
    if tx is None:
        return
    row = await _latest(tx, lock=True)
    if row is None or row.state != rows.SIGNED:
        return
    if tx.status != statuses.BROADCAST or (row.replaced or {}).get("tx_hash") != tx.tx_hash:
        # The withdrawal ended (an attempt was mined and final), or moved on: never sent.
        row.state = rows.ABANDONED
        await row.save(update_fields=["state", "updated_at"])
        return
    adapter = get_adapter(tx.network)
    parties = await ledger.load(tx, lock=True)  # the wallets before the nonce ledger, as the broadcast step
    try:
        tx_hash = await submit_signed(adapter, body=row.transfer or {}, signatures=[bytes(row.signature or b"")])
    except TransferRejected as exc:
        await _refused(tx, row, exc.code, exc.message, parties=parties)
        return
    row.state, row.tx_hash, row.broadcast_at = rows.BROADCAST, tx_hash, clock.now()
    await row.save(update_fields=["state", "tx_hash", "broadcast_at", "updated_at"])
    replaced = tx.tx_hash
    tx.tx_hash, tx.transfer, tx.signature = tx_hash, row.transfer, bytes(row.signature or b"")
    tx.signing_session_id, tx.signing_session_ids = row.signing_session_id, [str(row.signing_session_id)]
    tx.broadcast_at = row.broadcast_at
    await ledger.write_change(parties, status=statuses.BROADCAST, actor_id=None, action="withdrawal.replaced",
                              details={"replacement": row.number, "tx_hash": tx_hash, "replaced_tx_hash": replaced,
                                       "max_fee_per_gas": (row.transfer or {}).get("max_fee_per_gas"),
                                       "max_priority_fee_per_gas": (row.transfer or {}).get("max_priority_fee_per_gas"),
                                       "fee_limit": str(tx.fee_limit)})


async def _refused(tx: Transaction, row: WithdrawalReplacement, code: str, message: str, *,
                   parties: ledger.Parties | None = None) -> None:
    """The replacement can never execute (refused by the node, or never signed): give up the
    raised hold, keep waiting with the current attempt."""
    parties = parties or await ledger.load(tx, lock=True)
    if row.previous_fee_limit is not None and int(tx.fee_limit) == int(row.fee_limit or 0):
        await ledger.change_fee_limit(parties, int(row.previous_fee_limit))
    row.state, row.reason_code, row.reason = rows.REFUSED, code[:64], message[:2000]
    await row.save(update_fields=["state", "reason_code", "reason", "updated_at"])
    logger.info("withdrawal %s: replacement %d refused (%s): %s", tx.id, row.number, code, message)
    await ledger.write_change(parties, status=statuses.BROADCAST, actor_id=None,
                              action="withdrawal.replacement_refused",
                              details={"replacement": row.number, "reason_code": code, "reason": message,
                                       "tx_hash": tx.tx_hash, "fee_limit": str(tx.fee_limit)})


# --------------------------------------------------------------------------------------------
# 6: which attempt was mined
# --------------------------------------------------------------------------------------------


async def mined_attempt(tx: Transaction, adapter: Any, current: TransferStatus) -> TransferStatus:
    """``current`` (the status of ``tx.tx_hash``) unless another attempt of the withdrawal was
    mined instead: then ``tx`` takes that attempt (hash, transfer, signature, sessions) and its
    status is returned. Other attempts exist once a replacement was signed; they are looked at
    while the current one is a replacement, or when the current one was dropped (its nonce
    used: a replacement submitted just before a crash, not recorded yet, may be the one)."""
    if current.state == "included":
        return current
    if current.state != "dropped" and not (tx.transfer or {}).get("replacement"):
        return current
    signed = await WithdrawalReplacement.filter(transaction_id=tx.id, workspace_id=tx.workspace_id,
                                                state__in=[rows.BROADCAST, rows.SIGNED]).order_by("-number")
    candidates: list[tuple[str, dict[str, Any], WithdrawalReplacement]] = []
    for row in signed:
        own = {"tx_hash": row.tx_hash, "transfer": row.transfer, "signature": bytes(row.signature or b"").hex(),
               "signing_session_id": str(row.signing_session_id),
               "signing_session_ids": [str(row.signing_session_id)]}
        for attempt in (own, row.replaced or {}):
            tx_hash = attempt.get("tx_hash")
            if tx_hash and tx_hash != tx.tx_hash and tx_hash not in (c[0] for c in candidates):
                candidates.append((tx_hash, attempt, row))
    for tx_hash, attempt, row in candidates:
        status = await adapter.transfer_status(tx_hash)
        if status.state == "included":
            logger.info("withdrawal %s: its attempt %s was mined, not %s", tx.id, tx_hash, tx.tx_hash)
            _take_attempt(tx, attempt)
            if row.state == rows.SIGNED and tx_hash == row.tx_hash:  # sent before a crash: it was broadcast
                row.state, row.broadcast_at = rows.BROADCAST, clock.now()
                await row.save(update_fields=["state", "broadcast_at", "updated_at"])
            return status
    return current


async def abandon_in_flight(tx: Transaction) -> None:
    """The withdrawal ended: a replacement still being signed is never sent."""
    await WithdrawalReplacement.filter(transaction_id=tx.id, workspace_id=tx.workspace_id,
                                       state__in=list(rows.IN_FLIGHT)).update(state=rows.ABANDONED,
                                                                              updated_at=clock.now())
