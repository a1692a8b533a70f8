"""Threshold key sets: one per vault, created by distributed key generation (DKG).

A key set is FROST(Ed25519, SHA-512) ``min_signers``-of-``max_signers`` (2 of 3 by default):
participants 1 and 2 are the service's signer processes, participant 3 the client's co-signer
(a headless co-signer or a paired mobile device). No table holds a group secret: it never exists.

Public protocol data (round-1 broadcasts, round-2 packages encrypted to their recipient, each
participant's reported outcome) lives in :class:`DkgPackage` and :class:`DkgResult`. What only a
service signer may read lives in :class:`SignerDkgState` and :class:`SignerKeyShare`, sealed with
that signer's own SecretBox key; every query on them is filtered by ``participant``.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class KeySet(TimestampedModel):
    """The threshold key of one vault and the state of the DKG that creates it.

    Status: ``round1`` (collecting commitments and proofs of knowledge) -> ``round2``
    (collecting encrypted shares) -> ``finalize`` (participants verify their shares; the
    co-signer registers and commits its part) -> ``ready``; any step may end in ``failed``
    (``failed_participant`` names the participant at fault when one is known).
    """

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT)
    vault_id: uuid.UUID
    #: The threshold scheme (threshold.scheme), e.g. FROST-ED25519-SHA512-v1.
    scheme = fields.CharField(max_length=40)
    min_signers = fields.SmallIntField(default=2)
    max_signers = fields.SmallIntField(default=3)
    #: DKG session context bound into every proof of knowledge (replays from other sessions fail).
    context = fields.BinaryField()
    status = fields.CharField(max_length=10, default="round1", db_index=True)
    #: RFC 8032 encoding of the group public key (32 bytes) once ready.
    group_public_key = fields.BinaryField(null=True)
    #: ``{"1": hex, "2": hex, "3": hex}``: each participant's public verifying share once ready.
    verifying_shares = fields.JSONField(null=True)
    #: The client principal that took the co-signer seat (participant 3) by sending round 1.
    cosigner_user = fields.ForeignKeyField("models.User", related_name=False, null=True, on_delete=fields.SET_NULL)
    cosigner_user_id: uuid.UUID | None
    cosigner_device = fields.ForeignKeyField("models.Device", related_name=False, null=True,
                                             on_delete=fields.SET_NULL)
    cosigner_device_id: uuid.UUID | None
    failed_participant = fields.SmallIntField(null=True)
    failure_reason = fields.TextField(null=True)
    ready_at = fields.DatetimeField(null=True)

    class Meta:
        table = "key_sets"


class DkgPackage(TimestampedModel):
    """One DKG message: a round-1 broadcast (``recipient`` 0) or a round-2 package.

    Round 1 ``payload``: ``{"package": Round1Package.to_dict(), "transport_public_key": hex}``.
    Round 2 ``payload``: ``{"ciphertext": base64}``: the Round2Package JSON in a NaCl Box from the
    sender's to the recipient's transport key (the service cannot read it).
    """

    key_set = fields.ForeignKeyField("models.KeySet", related_name="packages", on_delete=fields.CASCADE)
    key_set_id: uuid.UUID
    round = fields.SmallIntField()
    sender = fields.SmallIntField()
    recipient = fields.SmallIntField(default=0)
    payload = fields.JSONField()

    class Meta:
        table = "dkg_packages"
        unique_together = (("key_set", "round", "sender", "recipient"),)


class DkgResult(TimestampedModel):
    """A service signer's public outcome of finalize; the coordinator compares all of them."""

    key_set = fields.ForeignKeyField("models.KeySet", related_name="results", on_delete=fields.CASCADE)
    key_set_id: uuid.UUID
    participant = fields.SmallIntField()
    #: PublicKeyPackage.to_dict() as this participant derived it.
    public_key_package = fields.JSONField()

    class Meta:
        table = "dkg_results"
        unique_together = (("key_set", "participant"),)


class SignerDkgState(TimestampedModel):
    """A service signer's secret DKG state between rounds, sealed with its own key.

    Deleted when the signer finalizes (or the key set fails).
    """

    key_set = fields.ForeignKeyField("models.KeySet", related_name=False, on_delete=fields.CASCADE)
    key_set_id: uuid.UUID
    participant = fields.SmallIntField()
    round = fields.SmallIntField()
    sealed_state = fields.BinaryField()

    class Meta:
        table = "signer_dkg_states"
        unique_together = (("key_set", "participant"),)


class SignerKeyShare(TimestampedModel):
    """A service signer's long-lived key package (signing share), sealed with its own key."""

    key_set = fields.ForeignKeyField("models.KeySet", related_name=False, on_delete=fields.CASCADE)
    key_set_id: uuid.UUID
    participant = fields.SmallIntField()
    sealed_key_package = fields.BinaryField()
    verifying_share = fields.BinaryField()

    class Meta:
        table = "signer_key_shares"
        unique_together = (("key_set", "participant"),)
