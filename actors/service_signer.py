"""The service signers' actors: participant 1 on queue ``signer_1``, participant 2 on ``signer_2``.

Each actor reads only its own signer's key (domain.signing.signer_keys.signer_key) and its own rows, and
refuses to run in a process started for the other signer (domain.signing.signer_keys.require_participant).
All are outbox command actors: a redelivered message finds its command done and does nothing,
and each domain step also checks the protocol state, so a repeated *request* is harmless too.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

import dramatiq
from nacl.public import Box, PrivateKey, PublicKey

from core.channels import BoxedChannels, ChannelTampered, ChannelTimeout, broker_channels
from core.coalescing import Coalescer
from core.jobs import actor, command_actor
from core.outbox import Command
from core.slots import ConcurrencySlots
from core.unit_of_work import clear_nudge, unit_of_work
from domain.errors import Conflict, NotFound
from domain.signing import backups, keys, presignatures, service_signer, sessions
from domain.signing.signer_keys import require_participant, signer_key
from models.backups import Backup
from models.sessions import SigningShare
from threshold.errors import FrostError
from threshold.scheme import COSIGNER_PARTICIPANT, SERVICE_PARTICIPANTS

logger = logging.getLogger(__name__)

#: How long a signer's presignature run holds its key set's lock at most (a dead process's expires).
REFILL_LOCK_MS = 600_000


def _declare(participant: int) -> None:
    def name(step: str) -> str:
        return keys.signer_actor(participant, step)

    def key() -> bytes:
        require_participant(participant)
        return signer_key(participant)

    @command_actor(name("dkg_round1"))
    async def dkg_round1(*, command: Command, key_set_id: str) -> None:
        """DKG round 1: commitments, proof of knowledge, transport key."""
        await service_signer.dkg_round1(participant=participant, share_key=key(), key_set_id=uuid.UUID(key_set_id))

    @command_actor(name("dkg_round2"))
    async def dkg_round2(*, command: Command, key_set_id: str) -> None:
        """DKG round 2: verify proofs, send encrypted shares."""
        await service_signer.dkg_round2(participant=participant, share_key=key(), key_set_id=uuid.UUID(key_set_id))

    @command_actor(name("dkg_finalize"))
    async def dkg_finalize(*, command: Command, key_set_id: str) -> None:
        """DKG finalize: verify received shares, keep the key package sealed."""
        await service_signer.dkg_finalize(participant=participant, share_key=key(), key_set_id=uuid.UUID(key_set_id))

    @command_actor(name("commit"))
    async def commit(*, command: Command, session_id: str) -> None:
        """Signing round 1: a fresh sealed nonce pair and its commitments."""
        await service_signer.commit(participant=participant, share_key=key(), session_id=uuid.UUID(session_id))

    @command_actor(name("sign"))
    async def sign(*, command: Command, session_id: str) -> None:
        """Signing round 2: sign once with the stored nonce, which is deleted first."""
        try:
            await service_signer.sign(participant=participant, share_key=key(), session_id=uuid.UUID(session_id))
        except service_signer.NonceAlreadyUsed:
            if await SigningShare.exists(session_id=session_id, participant=participant):
                # A repeated request after the share was published: never sign a second time.
                logger.info("signer %d: session %s already signed; request ignored", participant, session_id)
                return
            session = await sessions.lock_session(session_id)
            if session is not None:
                await sessions.fail_session(session, participant=participant,
                                           reason=f"signer {participant} has no unused nonce for this session")
        except (NotFound, Conflict) as exc:
            # The session ended (completed, failed) or is gone: nothing left to do.
            logger.info("signer %d: session %s: %s", participant, session_id, exc.message)

    async def sign_batch(session_ids: list[str]) -> None:
        async with unit_of_work():
            await service_signer.sign_sessions(participant=participant, share_key=key(), session_ids=session_ids)
        if service_signer.spent_to_replace(participant):
            # Once the spending committed: as many fresh pairs as this process spent, stocked.
            async with unit_of_work():
                await service_signer.replace_spent_nonces(participant=participant, share_key=key())

    # The wake-ups that arrive while a batch is being signed are signed together after it, in
    # one transaction (core.coalescing): under load, fewer and larger batches.
    signing = Coalescer(sign_batch)

    @actor(name(sessions.SIGN_SESSIONS))
    async def sign_sessions(session_ids: list[str]) -> None:
        """Signing round 2 for a batch of sessions, with stocked nonces (no outbox row: the
        signing sweep wakes the signer again for a session a lost message left behind); done
        once a transaction that signed them with the other wake-ups of that moment committed."""
        await signing.run(session_ids)

    @actor(name(sessions.REFILL_NONCES))
    async def refill_nonces(scheme: str) -> None:
        """Top up this signer's stock of round-one nonces for ``scheme``, a chunk per transaction."""
        await asyncio.to_thread(clear_nudge, dramatiq.get_broker(), name(sessions.REFILL_NONCES), scheme)
        continuing = False
        while True:
            async with unit_of_work():
                added = await service_signer.refill_nonces(participant=participant, share_key=key(), scheme=scheme,
                                                           continuing=continuing)
            if added == 0:
                return
            continuing = True

    @actor(name(presignatures.REFILL_STEP), max_retries=0, time_limit=600_000)
    async def ecdsa_refill(key_set_id: str, run: str, count: int) -> None:
        """Make ``count`` threshold ECDSA presignatures with the other signer, which runs this same
        actor with the same ``run`` at the same time (both are nudged together): each part goes
        to the stock as soon as it is made, in a transaction of its own (not a command: nothing
        is lost when a run stops half way; the next top-up asks for more).

        One run per key set at a time in this signer (a Redis lock): a nudge that arrives while
        one runs is dropped, and so, after its wait, is the other signer's side of it."""
        share_key = key()
        broker = dramatiq.get_broker()
        clear_nudge(broker, name(presignatures.REFILL_STEP), key_set_id, run, count)
        # One run per key set and signer: a slot of one (released atomically by its holder only).
        running = ConcurrencySlots(broker.client, prefix=f"{broker.namespace}:ecdsa-refill:",  # type: ignore[attr-defined]
                                   limit=1, ttl_ms=REFILL_LOCK_MS)
        busy = f"{key_set_id}:{participant}"
        if not await running.take(busy, run):
            logger.info("signer %d: a presignature run for %s is already going; %s dropped", participant,
                        key_set_id, run)
            return
        channels = broker_channels()
        try:
            for index in range(int(count)):
                try:
                    presignature = await service_signer.make_presignature(
                        participant=participant, share_key=share_key, key_set_id=uuid.UUID(key_set_id),
                        run=f"{run}:{index}", channels=channels)
                except (FrostError, ChannelTimeout, NotFound) as exc:
                    logger.warning("signer %d: presignature run %s stopped: %s", participant, run, exc)
                    return
                async with unit_of_work():
                    await service_signer.store_presignature(participant=participant, share_key=share_key,
                                                            key_set_id=uuid.UUID(key_set_id),
                                                            presignature=presignature)
        finally:
            await running.release(busy, run)

    @actor(name(presignatures.COSIGNER_RUN_STEP), max_retries=0, time_limit=600_000)
    async def ecdsa_cosigner_presign(key_set_id: str, run: str) -> None:
        """Make one threshold ECDSA presignature with the co-signer, whose messages the API
        relays (it started the run: domain.signing.cosigner.start_presignature_run). This
        signer's part goes to the stock; the co-signer registers its own once it stored it.
        Not retried: a run that stops leaves at most a part without a partner (the sweep wipes it)."""
        share_key = key()
        channels = broker_channels(ttl_seconds=presignatures.COSIGNER_RUN_TTL_SECONDS)
        about = channels.description(run)
        if about is None or about.get("key_set_id") != key_set_id or about.get("signer") != participant:
            logger.warning("signer %d: co-signer presignature run %s is unknown or not this signer's", participant, run)
            return
        pair = presignatures.pair_of([participant, COSIGNER_PARTICIPANT])
        # Every message in a Box between this run's key and the co-signer's (the API and Redis
        # carry ciphertext); the co-signer reads this signer's run key from the API.
        run_key = PrivateKey.generate()
        channels.describe(f"{run}:signer", {"transport_public_key": bytes(run_key.public_key).hex()})
        boxed = BoxedChannels(channels, Box(run_key, PublicKey(bytes.fromhex(about["transport_public_key"]))))
        try:
            presignature = await service_signer.make_presignature(
                participant=participant, share_key=share_key, key_set_id=uuid.UUID(key_set_id), run=run,
                channels=boxed, pair=pair, timeout=presignatures.COSIGNER_MESSAGE_TIMEOUT_SECONDS)
        except (FrostError, ChannelTimeout, ChannelTampered, NotFound) as exc:
            logger.warning("signer %d: co-signer presignature run %s stopped: %s", participant, run, exc)
            return
        async with unit_of_work():
            await service_signer.store_presignature(participant=participant, share_key=share_key,
                                                    key_set_id=uuid.UUID(key_set_id), presignature=presignature,
                                                    pair=pair)

    @command_actor(name("export_backup"))
    async def export_backup(*, command: Command, backup_id: str) -> None:
        """Backup: seal each own share to the backup key."""
        try:
            await service_signer.export_backup(participant=participant, share_key=key(), backup_id=uuid.UUID(backup_id))
        except NotFound as exc:
            backup = await Backup.filter(id=backup_id).select_for_update(no_key=True).first()
            if backup is not None:
                await backups.fail(backup, f"signer {participant}: {exc.message}")


for _participant in SERVICE_PARTICIPANTS:
    _declare(_participant)
