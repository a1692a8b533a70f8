"""The withdrawal pipeline's steps, each run by an outbox command actor (actors/withdrawals.py).

::

    withdrawals.check              pending → checks → approved | awaiting_approvals | declined | frozen
    withdrawals.sign               approved → signing: build the transfer, request the signature
    withdrawals.signed             the signing session ended: collect at once (woken by the
                                   session, no outbox row: the polls below are the backstop)
    withdrawals.collect_signature  signing → awaiting_broadcast (polls the signing session)
    withdrawals.broadcast          awaiting_broadcast → broadcast (or failed with the network's code)
    withdrawals.track (scheduled)  broadcast → broadcast (confirmations) → finished | failed;
                                   the network is asked first, with no transaction open
                                   (:func:`observe`), and only a change is written under the
                                   lock (:func:`track`); an EVM transfer unmined too long is
                                   replaced with a higher fee (domain.withdrawals.replacement:
                                   its own sign, collect and broadcast steps; the status stays
                                   broadcast)

Every step locks the withdrawal row and checks its status first (the tracker: before it writes),
so a redelivered, repeated or late command does nothing: the pipeline moves forward only along the table of
domain.transaction_statuses.

Never signed twice, never broadcast twice
    A withdrawal gets one signing session, recorded (``signing_session_id``, unique) in the same
    database transaction that requests it; the sign step runs only from ``approved`` without a
    session. The signature and the transfer's hash are stored (``awaiting_broadcast``) before
    anything is submitted, and the broadcast step submits exactly those signed bytes; a network
    treats the same signed transfer as one transaction (a re-submission returns the same hash),
    so a broadcast interrupted at any point (a killed worker, a redelivered message) is
    completed by submitting the same bytes again, never by signing anew.

The signing lane
    A transfer is built when it is signed: the nonce (gas networks) or the inputs (UTXO
    networks) are chosen then, so a second transfer from the same address must be built after
    the first is in the network's mempool. A withdrawal in ``signing`` or
    ``awaiting_broadcast`` holds its source address's lane; an approved one whose lane is held
    waits in ``approved`` and is started (:func:`kick_lane`) when the lane frees, oldest first.
    All lane decisions are made under the source address's row lock; the check stage issues the
    sign step only when the lane is free (else the withdrawal waits for :func:`kick_lane`).

Waiting for gas
    A token withdrawal of a vault with autofuel on may be accepted without the gas for its fee
    (``awaiting_gas``, domain.withdrawals.fees): it goes through the checks like any other and
    waits in ``approved``; its sign step holds the fee once the gas is there, and
    :func:`resume_awaiting_gas` issues that step when a refuel (an internal native transfer) is
    final at its address. Expiry still applies to it.

Several payloads, several curves
    A transfer may need several signatures (a Bitcoin spend: one BIP-340 signature per input,
    each a Taproot key-path signature by the vault's secp256k1 key set). The sign step requests
    one session per payload of ``signing_payloads(unsigned)``, each with the payload's scheme
    and merkle root, all in the same database transaction (``signing_session_ids``, in order;
    ``signing_session_id`` is the first); the signatures are checked with the chain's own
    primitive, stored together (``signature``: the 64-byte signatures concatenated in payload
    order) and submitted with ``submit_signed``.

UTXO inputs
    A UTXO transfer reserves its inputs under the withdrawal's intent key
    (``withdrawal:<id>``) when it is built; a withdrawal that fails before its spend is
    recorded gives them back (``release_inputs``), so nothing stays reserved for a payment
    that was given up.

An expired Solana blockhash
    A Solana transfer names a recent blockhash and can never land once it expired. A broadcast
    refused with ``BLOCKHASH_EXPIRED`` (a slow co-signer, a queue backlog) is therefore built and
    signed again (awaiting_broadcast → signing, new sessions): the old signed bytes cannot be
    executed, so this is no double payment. At most :data:`MAX_SIGNINGS` signings per withdrawal.
"""

from __future__ import annotations

import functools
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from tortoise import connections
from tortoise.exceptions import DoesNotExist
from tortoise.models import Model

from core import clock
from core.faults import crash_point
from core.outbox import Command, keep_back
from domain import transaction_statuses as statuses
from domain.errors import DomainError
from domain.networks.base import (
    InsufficientFunds,
    NetworkAdapter,
    TransferRejected,
    TransferStatus,
    signing_payloads,
    submit_signed,
)
from domain.networks.registry import get_adapter
from domain.signing import sessions
from domain.withdrawals import checks, ledger, replacement
from domain.withdrawals.create import CHECK
from models.sessions import SigningSession
from models.transactions import Transaction
from models.vaults import Vault
from threshold.suites import suite_of

logger = logging.getLogger(__name__)

SIGN = "withdrawals.sign"
COLLECT_SIGNATURE = "withdrawals.collect_signature"
SIGNED = ledger.SIGNED
BROADCAST = "withdrawals.broadcast"
#: Scheduled actors: confirmations and finality (every WITHDRAWAL_TRACK_INTERVAL_SECONDS), and
#: expiry plus the sweep of stalled steps (every WITHDRAWAL_EXPIRE_INTERVAL_SECONDS).
TRACK = "withdrawals.track"
EXPIRE = "withdrawals.expire"

#: Polling of the signing session, the backstop of its wake-up (``withdrawals.signed``, sent when
#: the session ends): 1 s, growing by half per look up to 5 s for about ten minutes, then every
#: 15 s (a co-signer that is offline or waits for a person).
FIRST_POLL = timedelta(seconds=1)
FAST_POLL_CAP = timedelta(seconds=5)
FAST_POLLS = 120
SLOW_POLL = timedelta(seconds=15)


def poll_delay(poll: int) -> timedelta:
    """How long to wait before look number ``poll`` (0-based) at the signing session."""
    if poll >= FAST_POLLS:
        return SLOW_POLL
    return min(FIRST_POLL * 1.5 ** min(poll, 20), FAST_POLL_CAP)
#: The crash point between submitting a signed transfer and recording it (core.faults).
AFTER_SUBMIT = "withdrawals.broadcast.submitted"
#: Every signature of a payload is this long (Ed25519 and BIP-340 alike): how the stored
#: concatenation is split again.
SIGNATURE_SIZE = 64
#: How often one withdrawal may be built and signed (more than once only after an expired
#: Solana blockhash refused the previous signed transfer).
MAX_SIGNINGS = 3
BLOCKHASH_EXPIRED = "BLOCKHASH_EXPIRED"


def intent_key(tx: Transaction) -> str:
    """The UTXO intent key a withdrawal reserves its inputs under (one per withdrawal)."""
    return str((tx.transfer or {}).get("intent_key") or f"withdrawal:{tx.id}")


async def release_inputs(tx: Transaction) -> None:
    """Give back the UTXO inputs the withdrawal reserved (networks with an intent key only).

    Outputs already recorded as spent by our submission stay spent: only reservations of a
    payment that never left are freed."""
    adapter = get_adapter(tx.network)
    release = getattr(adapter, "release_inputs", None)
    if release is not None:
        freed = await release(intent_key=intent_key(tx))
        if freed:
            logger.info("withdrawal %s: %d reserved input(s) released", tx.id, freed)


def split_signatures(signature: bytes) -> list[bytes]:
    """The stored signatures, one per payload (see the module)."""
    return [signature[i:i + SIGNATURE_SIZE] for i in range(0, len(signature), SIGNATURE_SIZE)]


def session_ids(tx: Transaction) -> list[uuid.UUID]:
    """Every signing session of the withdrawal's current transfer, in payload order."""
    if tx.signing_session_ids:
        return [uuid.UUID(str(i)) for i in tx.signing_session_ids]
    return [tx.signing_session_id] if tx.signing_session_id else []


lock_withdrawal = ledger.lock_withdrawal
_command = ledger.add_step


def carried_step(issued: Command | None, carried: bool) -> Command | None:
    """``issued``, the step a step returns to its caller; ``carried``: that caller runs it in this
    process once this unit of work commits (actors.withdrawals.carry_on), so it is kept back from
    the enqueue (core.outbox.keep_back) before its row is written: written unstamped, never sent
    unless that run fails."""
    if carried and issued is not None:
        keep_back(issued)
    return issued


async def fail(parties: ledger.Parties, *, code: str, message: str, actor_id: uuid.UUID | None = None,
               details: dict | None = None) -> None:
    """End the withdrawal ``failed`` with ``code``, releasing what it holds (wallets locked) and
    the UTXO inputs it reserved."""
    await ledger.release(parties)
    await release_inputs(parties.tx)
    parties.tx.error_code, parties.tx.error_message = code[:64], message[:2000]
    await ledger.write_change(parties, status=statuses.FAILED, actor_id=actor_id,
                              details={"error_code": code, **(details or {})})


# --------------------------------------------------------------------------------------------
# The check stage
# --------------------------------------------------------------------------------------------


async def run_checks(*, transaction_id: uuid.UUID | str, carried: bool = False) -> Command | None:
    """pending → checks, run the registered checks (domain.withdrawals.checks), act on the outcome.

    Returns the sign step's command when it issued one (approved, the lane free); ``carried``:
    its caller runs it once this commits (see :func:`carried_step`)."""
    tx = await lock_withdrawal(transaction_id)
    if tx is None or tx.status not in (statuses.PENDING, statuses.CHECKS):
        return None
    # Lock order (domain.withdrawals.ledger): the withdrawal row, then its wallets, before the
    # checks take the policy windows' locks; a block or a freeze releases under these locks.
    parties = await ledger.load(tx, lock=True)
    if tx.status == statuses.PENDING:
        await ledger.write_change(parties, status=statuses.CHECKS, actor_id=None)
    vault, lane_busy = await _vault_and_lane(tx)  # (the lane: for the sign step, below)
    subject = checks.CheckSubject(
        transaction=tx, workspace_id=tx.workspace_id, vault=vault,
        source_wallet=parties.source, currency=parties.currency, amount=int(tx.amount),
        destination_type=tx.destination_type or "", target_address=tx.to_address or "",
        target_wallet_id=tx.target_wallet_id, whitelisted_wallet_id=tx.whitelisted_wallet_id,
        amount_usdt=tx.amount_usdt)
    outcome = await checks.run_checks(subject)
    tx.checks = [r.to_dict() for r in outcome.results]
    results = {"checks": tx.checks}
    if outcome.verdict is checks.Verdict.DEFER:
        await tx.save(update_fields=["checks"])
        await _command(CHECK, tx, delay=outcome.retry_after)
    elif outcome.verdict is checks.Verdict.BLOCK:
        decisive = outcome.decisive
        assert decisive is not None
        await ledger.release(parties)
        tx.error_code = (decisive.code or f"{decisive.check.upper()}_BLOCKED")[:64]
        tx.error_message = decisive.reason or f"blocked by the {decisive.check} check"
        await ledger.write_change(parties, status=statuses.DECLINED, actor_id=None, details=results)
    elif outcome.verdict is checks.Verdict.FREEZE:
        # Frozen by the system, like lifecycle.freeze with no principal; the status to resume at
        # is what the other verdicts lead to, so an unfreeze is the release (checks.py).
        decisive = outcome.decisive
        assert decisive is not None
        await ledger.release(parties)
        wants_approval = any(r.verdict is checks.Verdict.REQUIRE_APPROVAL for r in outcome.results)
        tx.frozen_from = statuses.AWAITING_APPROVALS if wants_approval else statuses.APPROVED
        tx.frozen_at = clock.now()
        await ledger.write_change(parties, status=statuses.FROZEN, actor_id=None,
                                  details={**results, "reason": decisive.code or f"{decisive.check}_freeze",
                                           "frozen_by": decisive.check, "frozen_from": tx.frozen_from})
    elif outcome.verdict is checks.Verdict.REQUIRE_APPROVAL:
        await ledger.write_change(parties, status=statuses.AWAITING_APPROVALS, actor_id=None, details=results)
    else:
        # The sign step, unless it would only find the lane held (the signing lane, above): then the
        # withdrawal waits in approved and kick_lane starts it when the lane frees. Both are decided
        # under the source address's lock, held here since ledger.load; a frozen vault's sign step
        # is issued at once (it freezes the withdrawal).
        following = None
        if vault.is_frozen or not lane_busy:
            following = carried_step(await _command(SIGN, tx), carried)  # written with the change
        await ledger.write_change(parties, status=statuses.APPROVED, actor_id=None, details=results)
        return following
    return None


async def resolve_approvals(*, transaction_id: uuid.UUID | str, approved: bool, actor_id: uuid.UUID | None = None,
                            reason: str | None = None) -> Transaction | None:
    """The approvals of an ``awaiting_approvals`` withdrawal are complete: approved → signing
    follows; rejected → declined (hold released, ``error_code`` APPROVAL_REJECTED).

    The hook of the transaction-approvals work; anything but ``awaiting_approvals`` is left as is.
    """
    tx = await lock_withdrawal(transaction_id)
    if tx is None or tx.status != statuses.AWAITING_APPROVALS:
        return tx
    if approved:
        await _command(SIGN, tx)  # written with the change (ledger.add_step)
        await ledger.write_change(await ledger.for_change(tx), status=statuses.APPROVED, actor_id=actor_id,
                                  details={"reason": reason})
        return tx
    parties = await ledger.load(tx, lock=True)
    await ledger.release(parties)
    tx.error_code, tx.error_message = "APPROVAL_REJECTED", reason or "rejected by an approver"
    await ledger.write_change(parties, status=statuses.DECLINED, actor_id=actor_id, details={"reason": reason})
    return tx


# --------------------------------------------------------------------------------------------
# The signing lane, building and signing
# --------------------------------------------------------------------------------------------


@functools.cache
def _vault_and_lane_sql() -> str:
    """The withdrawal's vault (every column), and whether another withdrawal holds its source
    address's lane, in one statement: what the check stage and the sign step ask before they issue
    or build the transfer. (Made on first use: tortoise knows every column once it is set up.)"""
    columns = ", ".join(f'v."{column}"' for column in Vault._meta.fields_db_projection.values())  # noqa: SLF001
    return f"""
SELECT {columns},
       EXISTS (SELECT 1 FROM transactions t WHERE t.network = $3 AND t.from_address = $4
               AND t.status = ANY($5::text[]) AND t.id <> $6) AS "lane__busy"
FROM vaults v WHERE v.id = $1 AND v.workspace_id = $2
"""


async def _vault_and_lane(tx: Transaction) -> tuple[Vault, bool]:
    """(the withdrawal's vault, whether a withdrawal other than ``tx`` holds ``tx``'s source
    address's lane); call with the source address locked (ledger.load), which every lane
    decision is made under."""
    rows = await connections.get("default").execute_query_dict(
        _vault_and_lane_sql(), [tx.vault_id, tx.workspace_id, tx.network, tx.from_address, sorted(statuses.IN_LANE), tx.id])
    if not rows:
        raise DoesNotExist(Vault)
    row = rows[0]
    lane_busy = bool(row.pop("lane__busy"))
    return Vault._init_from_db(**row), lane_busy  # noqa: SLF001  (tortoise's own row -> model)


async def _unconfirmed_in_lane(tx: Transaction) -> bool:
    return await Transaction.filter(network=tx.network, from_address=tx.from_address,
                                    status=statuses.BROADCAST).exclude(id=tx.id).exists()


#: The oldest approved withdrawal of an address waiting for its lane (other than ``$3``), when the
#: lane is free: one statement for :func:`kick_lane`'s two questions. ``{besides}``: whether ``$3``
#: itself is left out of the lane's holders (it is leaving the lane in this transaction).
_NEXT_IN_LANE = """
SELECT t.id, t.workspace_id FROM transactions t
WHERE t.network = $1 AND t.from_address = $2 AND t.status = $4 AND t.signing_session_id IS NULL AND t.id <> $3
  AND NOT EXISTS (SELECT 1 FROM transactions h WHERE h.network = $1 AND h.from_address = $2
                  AND h.status = ANY($5::text[]){besides})
ORDER BY t.created_at, t.id LIMIT 1
"""
_NEXT_IN_LANE_SQL = {False: _NEXT_IN_LANE.format(besides=""), True: _NEXT_IN_LANE.format(besides=" AND h.id <> $3")}


@dataclass(frozen=True)
class _Waiting:
    """A withdrawal waiting in ``approved`` for its lane: what its sign step's command names."""

    id: uuid.UUID
    workspace_id: uuid.UUID


async def kick_lane(tx: Transaction, *, leaving: bool = False) -> Command | None:
    """Start the oldest approved withdrawal of ``tx``'s source address if its lane is free
    (call with the address locked, after ``tx`` left the lane or confirmed); returns the sign
    step's command when one was issued.

    ``leaving``: ``tx`` is still in the lane in the database but leaves it with the change its
    caller writes next (in this transaction): it does not count as holding the lane, and the
    sign step's command is written with that change (ledger.add_step: issue it first)."""
    rows = await connections.get("default").execute_query_dict(
        _NEXT_IN_LANE_SQL[leaving], [tx.network, tx.from_address, tx.id, statuses.APPROVED, sorted(statuses.IN_LANE)])
    if rows:
        return await _command(SIGN, _Waiting(id=rows[0]["id"], workspace_id=rows[0]["workspace_id"]))  # type: ignore[arg-type]  # add_step reads id and workspace_id
    return None


async def resume_awaiting_gas(*, network: str, address: str) -> bool:
    """Gas arrived at ``address`` (a refuel finished, or the scheduler saw it): start the oldest
    token withdrawal there that waits for gas in ``approved`` (its sign step holds the fee, or
    waits again when it is still short). Returns whether a step was issued."""
    waiting = await Transaction.filter(direction="withdrawal", network=network, from_address=address,
                                       status=statuses.APPROVED, awaiting_gas=True,
                                       signing_session_id__isnull=True).order_by("created_at", "id").first()
    if waiting is None:
        return False
    await _command(SIGN, waiting)
    return True


async def start_signing(*, transaction_id: uuid.UUID | str) -> None:
    """approved → signing: build the transfer (lane permitting) and request its one signature."""
    tx = await lock_withdrawal(transaction_id)
    if tx is None or tx.status != statuses.APPROVED or tx.signing_session_id is not None:
        return
    parties = await ledger.load(tx, lock=True)  # the source address's lock guards the lane
    vault, lane_busy = await _vault_and_lane(tx)
    if vault.is_frozen:
        # A frozen vault signs nothing: hold the withdrawal like a manual freeze would.
        await ledger.release(parties)
        tx.frozen_from, tx.frozen_at = statuses.APPROVED, clock.now()
        await ledger.write_change(parties, status=statuses.FROZEN, actor_id=None, details={"reason": "vault_frozen"})
        return
    if lane_busy:
        return  # started by kick_lane when the withdrawal holding the lane leaves it
    if tx.awaiting_gas:
        if not await ledger.hold_gas(parties):
            return  # the gas station's refuel has not landed yet: resume_awaiting_gas starts it again
        await tx.save(update_fields=["awaiting_gas"])
    await _build_and_sign(tx, parties)


async def _build_and_sign(tx: Transaction, parties: ledger.Parties, *, details: dict | None = None) -> None:
    """Build the transfer and request one signing session per payload (approved or, after an
    expired blockhash, awaiting_broadcast → signing); fail the withdrawal when that is refused."""
    adapter = get_adapter(tx.network)
    public_key = await ledger.public_key_of(tx)
    extra = {"intent_key": intent_key(tx)} if hasattr(adapter, "release_inputs") else {}
    try:
        unsigned = await adapter.build_transfer(currency=parties.currency, from_address=tx.from_address or "",
                                                public_key=public_key, to_address=tx.to_address or "",
                                                amount=int(tx.amount),
                                                fee_rate=None if tx.fee_rate is None else int(tx.fee_rate),
                                                **extra)
    except TransferRejected as exc:
        if isinstance(exc, InsufficientFunds) and await _unconfirmed_in_lane(tx) and tx.status == statuses.APPROVED:
            return  # outputs are in the mempool (UTXO change): built again when they confirm
        await fail(parties, code=exc.code, message=exc.message, details={"step": "build"})
        await kick_lane(tx)
        return
    if unsigned.fee_limit > int(tx.fee_limit):
        await fail(parties, code="FEE_LIMIT_EXCEEDED",
                   message=f"the transfer would cost up to {unsigned.fee_limit}, above the fee limit {tx.fee_limit}",
                   details={"needed_fee_limit": str(unsigned.fee_limit)})
        await kick_lane(tx)
        return
    payloads = signing_payloads(unsigned)
    requested: list[SigningSession] = []
    try:
        for index, payload in enumerate(payloads):
            purpose = f"withdrawal:{tx.id}" if len(payloads) == 1 else f"withdrawal:{tx.id}:payload:{index}"
            requested.append(await sessions.request_signature(
                workspace_id=tx.workspace_id, vault_id=tx.vault_id, message=payload.message,
                purpose=purpose, scheme=payload.scheme, merkle_root=payload.merkle_root, notify=SIGNED))
    except DomainError as exc:
        await fail(parties, code=exc.code, message=exc.message, details={"step": "sign"})
        await kick_lane(tx)
        return
    tx.transfer, tx.signing_session_id = unsigned.body, requested[0].id
    tx.signing_session_ids = [str(s.id) for s in requested]
    tx.signature, tx.tx_hash = None, None
    await _command(COLLECT_SIGNATURE, tx, delay=poll_delay(0), poll=0)  # written with the change
    await ledger.write_change(parties, status=statuses.SIGNING, actor_id=None,
                              details={"signing_session_id": str(requested[0].id),
                                       "signing_session_ids": tx.signing_session_ids,
                                       "participants": requested[0].participants, **(details or {})})


async def withdrawals_signed(*, session_ids: list[str] | list[list[str]]) -> list[uuid.UUID]:
    """The withdrawals whose signing sessions among ``session_ids`` ended (their purpose names
    them: ``withdrawal:<id>[:payload:<n>]``). Each is ``[session id, purpose]``, as the sessions'
    wake-up sends it (domain.signing.sessions), or a session id alone (a wake-up sent before they
    carried the purpose: its purpose is read)."""
    purposes = [item[1] for item in session_ids if not isinstance(item, str)]
    bare = [item for item in session_ids if isinstance(item, str)]
    if bare:
        purposes += [str(purpose) for purpose in await SigningSession.filter(id__in=bare).values_list(
            "purpose", flat=True)]
    found = []
    for purpose in purposes:
        kind, _, rest = str(purpose).partition(":")
        if kind == "withdrawal":
            transaction_id = uuid.UUID(rest.split(":")[0])
            if transaction_id not in found:
                found.append(transaction_id)
    return found


@functools.cache
def _lock_with_session_sql() -> str:
    """:func:`_lock_with_session`'s statement: the withdrawal's row locked, and its signing session
    (``signing_session_id``, in its workspace) joined; the session's columns after the row's."""
    def names(model: type[Model], alias: str) -> str:
        return ", ".join(f'{alias}."{column}"' for column in model._meta.fields_db_projection.values())  # noqa: SLF001
    return (f"SELECT {names(Transaction, 't')}, {names(SigningSession, 's')} FROM transactions t"
            " LEFT JOIN signing_sessions s ON s.id = t.signing_session_id AND s.workspace_id = t.workspace_id"
            " WHERE t.id = $1 AND t.direction = 'withdrawal' LIMIT 1 FOR UPDATE OF t")


async def _lock_with_session(transaction_id: uuid.UUID | str) -> tuple[Transaction | None, SigningSession | None]:
    """:func:`lock_withdrawal` and the withdrawal's (first) signing session, read in the same
    statement when this step locks the row itself (the wake-up, ``withdrawals.signed``); when the
    command's claim locked it, the row alone (the session is read as before). The session is
    only used when it is the row's ``signing_session_id`` as locked (a row changed while the
    statement waited for its lock reads its sessions again)."""
    locked = ledger.take_locked_withdrawal(transaction_id)
    if locked is not None:
        return locked, None
    _, rows = await connections.get("default").execute_query(_lock_with_session_sql(), [transaction_id])
    if not rows:
        return None, None
    values = list(rows[0].values())
    columns = list(Transaction._meta.fields_db_projection.values())  # noqa: SLF001
    tx = Transaction._init_from_db(**dict(zip(columns, values[:len(columns)])))  # noqa: SLF001
    session = dict(zip(SigningSession._meta.fields_db_projection.values(), values[len(columns):]))  # noqa: SLF001
    if session[SigningSession._meta.db_pk_column] is None:  # noqa: SLF001  (no such session: read as before)
        return tx, None
    return tx, SigningSession._init_from_db(**session)  # noqa: SLF001


async def collect_signature(*, transaction_id: uuid.UUID | str, poll: int = 0,
                            reschedule: bool = True, carried: bool = False) -> Command | None:
    """signing → awaiting_broadcast once the session completed (the signature and the transfer's
    hash are stored before anything is submitted); failed if the session failed; else look again
    (``reschedule``: the polls; a wake-up of one of several sessions leaves that to them).

    Returns the broadcast step's command when it issued one (its caller may run it at once once
    this commits: :func:`actors.withdrawals.signed`); ``carried``: the caller will (see
    :func:`carried_step`)."""
    tx, read = await _lock_with_session(transaction_id)
    if tx is not None and tx.status == statuses.BROADCAST:
        await replacement.collect(tx, reschedule=False)  # a stuck transfer's replacement was signed
        return None
    if tx is None or tx.status != statuses.SIGNING or tx.signing_session_id is None:
        return None
    found = []
    for session_id in session_ids(tx):
        found.append(read if read is not None and read.id == session_id else await sessions.get_session(
            workspace_id=tx.workspace_id, session_id=session_id))
    failed = next((s for s in found if s.status == "failed"), None)
    session = failed or found[0]
    if failed is None and all(s.status == "completed" for s in found):
        signatures = [bytes(s.signature) for s in found]  # type: ignore[arg-type]  # set once signed
        parties = await ledger.for_change(tx)
        public_key = await ledger.public_key_of(tx)
        for s, signature in zip(found, signatures):
            # Checked with the chain's own primitive (RFC 8032, or BIP-340 for the Taproot output
            # key of the address), against the address's key: not only the key set's word for it.
            scheme = (await sessions.ready_key_sets([s.key_set_id]))[s.key_set_id].scheme  # cached once ready
            merkle_root = None if s.merkle_root is None else bytes(s.merkle_root)
            if len(signature) != SIGNATURE_SIZE or not suite_of(scheme).verify(
                    public_key, bytes(s.message), signature, merkle_root):
                parties = await ledger.load(tx, lock=True)
                await fail(parties, code="SIGNING_FAILED",
                           message="the signature does not verify under the vault's key")
                await kick_lane(tx)
                return None
        tx.signature = b"".join(signatures)
        tx.tx_hash = get_adapter(tx.network).transaction_hash(body=tx.transfer or {}, signature=signatures[0])
        following = carried_step(await _command(BROADCAST, tx), carried)  # written with the change
        await ledger.write_change(parties, status=statuses.AWAITING_BROADCAST, actor_id=None,
                                  details={"tx_hash": tx.tx_hash})
        return following
    elif session.status == "failed":
        parties = await ledger.load(tx, lock=True)
        await fail(parties, code="SIGNING_FAILED", message=f"threshold signing failed: {session.failure_reason}",
                   details={"participant": session.failed_participant})
        await kick_lane(tx)
    elif reschedule:
        await _command(COLLECT_SIGNATURE, tx, delay=poll_delay(poll + 1), poll=poll + 1)
    return None


# --------------------------------------------------------------------------------------------
# Broadcast and confirmations
# --------------------------------------------------------------------------------------------


async def broadcast(*, transaction_id: uuid.UUID | str, carried: bool = False) -> Command | None:
    """awaiting_broadcast → broadcast: submit the stored signed transfer (exactly those bytes).

    A network refusal ends the withdrawal ``failed`` with the network's code and message; a
    network that cannot be reached raises (the command is retried, then the sweep re-issues it).
    Returns the sign step's command of the next withdrawal of the lane, when one was issued;
    ``carried``: its caller runs it (see :func:`carried_step`).
    """
    tx = await lock_withdrawal(transaction_id)
    if tx is None or tx.status != statuses.AWAITING_BROADCAST:
        return None
    parties = await ledger.load(tx, lock=True)
    adapter = get_adapter(tx.network)
    try:
        tx_hash = await submit_signed(adapter, body=tx.transfer or {},
                                      signatures=split_signatures(bytes(tx.signature or b"")))
    except TransferRejected as exc:
        if exc.code == BLOCKHASH_EXPIRED and await _signings(tx) < MAX_SIGNINGS:
            # The signed transfer can never land now: build and sign it again (see the module).
            await _build_and_sign(tx, parties, details={"resigned_after": BLOCKHASH_EXPIRED,
                                                        "expired_tx_hash": tx.tx_hash})
            return None
        await fail(parties, code=exc.code, message=exc.message, details={"step": "broadcast", **exc.details})
        return carried_step(await kick_lane(tx), carried)
    crash_point(AFTER_SUBMIT)
    if tx_hash != tx.tx_hash:
        logger.warning("withdrawal %s: the network named its transfer %s, not %s", tx.id, tx_hash, tx.tx_hash)
        tx.tx_hash = tx_hash
    tx.broadcast_at, tx.confirmations = clock.now(), 0
    following = carried_step(await kick_lane(tx, leaving=True), carried)  # written with the change
    await ledger.write_change(parties, status=statuses.BROADCAST, actor_id=None, details={"tx_hash": tx_hash})
    return following


def settled_fee(tx: Transaction, reported: int, *, success: bool) -> int:
    """What the withdrawal paid in fees: the network's word when it gives one (the devnets),
    else the fee fixed when the transfer was built (a Bitcoin spend's inputs minus outputs; a
    Solana transfer's signature and priority fee, plus the rent of the recipient's token
    account it created: that SOL left the vault's address too)."""
    if reported:
        return reported
    body = tx.transfer or {}
    fee = int(body.get("fee") or 0)
    if success:
        fee += int(body.get("account_creation_fee") or 0)
    return fee


async def _signings(tx: Transaction) -> int:
    """How many times the withdrawal's transfer was signed (sessions per payload count once)."""
    payloads = max(len(session_ids(tx)), 1)
    return await SigningSession.filter(purpose__startswith=f"withdrawal:{tx.id}").count() // payloads


@dataclass(frozen=True)
class Tracked:
    """A broadcast withdrawal as the tracker's list read it (no lock): what :func:`observe` needs."""

    id: uuid.UUID
    network: str
    tx_hash: str
    confirmations: int
    block_height: int | None
    #: When its current attempt was broadcast, and whether that attempt is a replacement (a
    #: replaceable network's: :func:`domain.withdrawals.replacement.looks_under_lock`).
    broadcast_at: datetime | None
    replacement: bool


@dataclass(frozen=True)
class Observation:
    """What :func:`observe` read of a tracked withdrawal's transfer, for :func:`track` to write
    under the lock: ``state`` (None: to be read under the lock) and the network's height then."""

    tx_hash: str
    state: TransferStatus | None = None
    latest_height: int | None = None


#: :func:`tracked_withdrawals`' read: the transfer's ``replacement`` mark alone (a JSON boolean,
#: domain.networks.evm), not the transfer.
_TRACKED_SQL = """
SELECT id, network, tx_hash, confirmations, block_height, broadcast_at,
       coalesce(transfer -> 'replacement' = 'true'::jsonb, false) AS replacement
FROM transactions WHERE direction = 'withdrawal' AND status = $1 AND tx_hash IS NOT NULL
ORDER BY broadcast_at LIMIT $2
"""


async def tracked_withdrawals(*, limit: int = 1000) -> list[Tracked]:
    """The withdrawals the tracker follows (broadcast, oldest first), read without a lock."""
    rows = await connections.get("default").execute_query_dict(_TRACKED_SQL, [statuses.BROADCAST, limit])
    return [Tracked(id=row["id"], network=row["network"], tx_hash=row["tx_hash"],
                    confirmations=int(row["confirmations"] or 0), block_height=row["block_height"],
                    broadcast_at=row["broadcast_at"], replacement=row["replacement"])
            for row in rows]


async def observe(withdrawal: Tracked) -> Observation | None:
    """Where a tracked withdrawal's transfer stands, read with no transaction open and no row
    locked (a network's answer may be slow, and nothing should wait on the withdrawal meanwhile).

    None when there is nothing to write: the transfer is still in the mempool (or unknown), or
    included with no new confirmation and not final yet; :func:`track` then runs for nothing, and
    a poll of a pending transfer costs one read. On a network whose stuck transfers are replaced
    (domain.withdrawals.replacement), a withdrawal whose attempts must be looked at (dropped, a
    replacement, or due to be replaced: ``looks_under_lock``) is read again under the lock,
    where the attempts are: an observation without a state."""
    adapter = get_adapter(withdrawal.network)
    state = await adapter.transfer_status(withdrawal.tx_hash)
    if replacement.replaceable(adapter) and replacement.looks_under_lock(
            adapter, state=state.state, broadcast_at=withdrawal.broadcast_at, replacement=withdrawal.replacement):
        return Observation(tx_hash=withdrawal.tx_hash)
    if state.state in ("pending", "unknown"):
        return None
    latest = None
    if state.state == "included":
        latest = await adapter.latest_height()
        height = int(state.block_height or 0)
        confirmations = max(latest - height + 1, 0)
        if confirmations < adapter.confirmations_required() and (confirmations, height) == (
                withdrawal.confirmations, withdrawal.block_height):
            return None
    return Observation(tx_hash=withdrawal.tx_hash, state=state, latest_height=latest)


async def track(*, transaction_id: uuid.UUID | str, observed: Observation | None = None) -> None:
    """Count a broadcast withdrawal's confirmations; when final, finish it (or fail it).

    ``observed``: what :func:`observe` read of its transfer before this transaction; a transfer
    replaced since (another hash) is left to the next tick. Without it, the status is read here."""
    tx = await lock_withdrawal(transaction_id)
    if tx is None or tx.status != statuses.BROADCAST or not tx.tx_hash:
        return
    if observed is not None and observed.tx_hash != tx.tx_hash:
        return
    adapter = get_adapter(tx.network)
    state = (observed.state if observed is not None else None) or await adapter.transfer_status(tx.tx_hash)
    replaces = replacement.replaceable(adapter)
    if replaces:  # the earlier attempts of a replaced transfer: whichever was mined is the one
        state = await replacement.mined_attempt(tx, adapter, state)
    if state.state in ("pending", "unknown"):
        if replaces and state.state == "pending":
            await replacement.replace_if_stuck(tx, adapter)  # waited too long: a higher fee
        return
    if state.state == "dropped":
        parties = await ledger.load(tx, lock=True)
        await fail(parties, code=state.reason_code or "DROPPED",
                   message=state.reason or "the network dropped the transfer without including it")
        await kick_lane(tx)
        return
    height = int(state.block_height or 0)
    latest = observed.latest_height if observed is not None else None
    confirmations = max((latest if latest is not None else await adapter.latest_height()) - height + 1, 0)
    required = adapter.confirmations_required()
    if confirmations < required:
        if confirmations != tx.confirmations or height != tx.block_height:
            if height != tx.block_height:
                tx.block_time = await _block_time(adapter, state) or tx.block_time
            tx.block_height, tx.confirmations = height, confirmations
            await ledger.write_change(await ledger.for_change(tx), status=statuses.BROADCAST, actor_id=None,
                                      details={"confirmations": confirmations, "block_height": height})
        return
    parties = await ledger.load(tx, lock=True)
    if height != tx.block_height or tx.block_time is None:
        tx.block_time = await _block_time(adapter, state)
    fee = settled_fee(tx, state.fee, success=state.success)
    tx.block_height, tx.confirmations, tx.fee = height, confirmations, fee
    await ledger.settle(parties, moved=state.success, fee=fee, block_height=height)
    if state.success:
        await ledger.write_change(parties, status=statuses.FINISHED, actor_id=None,
                                  details={"confirmations": confirmations, "fee": str(fee)})
    else:
        tx.error_code = state.reason_code or "EXECUTION_FAILED"
        tx.error_message = state.reason or "the network included the transfer but it did not execute"
        await ledger.write_change(parties, status=statuses.FAILED, actor_id=None,
                                  details={"error_code": tx.error_code, "fee": str(fee)})
    if replaces:
        await replacement.abandon_in_flight(tx)
    await kick_lane(tx)  # UTXO: the change output is spendable now
    if state.success and parties.target is not None and parties.currency.is_native and tx.to_address:
        # Gas reached a vault of the workspace (a gas station refuel): token withdrawals waiting
        # for it there go on.
        await resume_awaiting_gas(network=tx.network, address=tx.to_address)


async def _block_time(adapter: NetworkAdapter, state: TransferStatus) -> datetime | None:
    """The time of the block holding a transfer: given with its status where the network gives
    it, else read with the block (None: the network has no such block now)."""
    if state.block_time is not None:
        return state.block_time
    block = await adapter.read_block(int(state.block_height or 0))
    return block.time if block is not None else None
