"""Signing: the per-workspace signing policy, FROST signing sessions and their round data.

A :class:`SigningSession` is the coordinator's state in PostgreSQL: the message, the chosen
participants, their round-1 commitments (:class:`SigningCommitment`), their round-2 signature
shares (:class:`SigningShare`) and finally the aggregated, verified signature. A service
signer's secret nonces (:class:`SignerNonce`) are sealed with that signer's key and deleted in
the transaction that publishes its signature share.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class SigningPolicy(TimestampedModel):
    """How a workspace signs. Absent row = the defaults (service shares only)."""

    workspace = fields.OneToOneField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    #: True: every signature needs the client's co-signer share (participant 3).
    cosigner_required = fields.BooleanField(default=False)
    updated_by = fields.ForeignKeyField("models.User", related_name=False, null=True, on_delete=fields.SET_NULL)
    updated_by_id: uuid.UUID | None

    class Meta:
        table = "signing_policies"


class SigningSession(TimestampedModel):
    """One threshold signature over ``message`` with the key set of a vault.

    Status: ``round1`` (collecting commitments) -> ``round2`` (collecting signature shares)
    -> ``completed`` (``signature`` verified under the group key) | ``failed``.
    """

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT)
    vault_id: uuid.UUID
    key_set = fields.ForeignKeyField("models.KeySet", related_name=False, on_delete=fields.RESTRICT)
    key_set_id: uuid.UUID
    message = fields.BinaryField()
    #: Taproot schemes: sign for the output key of this script tree root (``b""``: key path only,
    #: what Bitcoin P2TR spends use); None: the key set's own key (every other scheme).
    merkle_root = fields.BinaryField(null=True, description="Taproot schemes: sign for the output key of this script tree root (empty: key path only); null: the key set's own key.")
    purpose = fields.CharField(max_length=200)
    #: Sorted participant identifiers taking part (at least the key set's threshold).
    participants = fields.JSONField()
    status = fields.CharField(max_length=10, default="round1", db_index=True)
    signature = fields.BinaryField(null=True)
    failed_participant = fields.SmallIntField(null=True)
    failure_reason = fields.TextField(null=True)
    requested_by = fields.UUIDField(null=True)
    completed_at = fields.DatetimeField(null=True)
    #: The actor woken with ``[session id, ...]`` after the commit that ends the session
    #: (completed or failed), so its requester need not poll; null: nobody.
    notify = fields.CharField(max_length=100, null=True)

    class Meta:
        table = "signing_sessions"


class SigningCommitment(TimestampedModel):
    """A participant's round-1 commitments (hiding ``D_i``, binding ``E_i``): public."""

    session = fields.ForeignKeyField("models.SigningSession", related_name="commitments", on_delete=fields.CASCADE)
    session_id: uuid.UUID
    participant = fields.SmallIntField()
    hiding = fields.BinaryField()
    binding = fields.BinaryField()

    class Meta:
        table = "signing_commitments"
        unique_together = (("session", "participant"),)


class SigningShare(TimestampedModel):
    """A participant's round-2 signature share ``z_i``: public once sent."""

    session = fields.ForeignKeyField("models.SigningSession", related_name="shares", on_delete=fields.CASCADE)
    session_id: uuid.UUID
    participant = fields.SmallIntField()
    share = fields.BinaryField()

    class Meta:
        table = "signing_shares"
        unique_together = (("session", "participant"),)


class SignerNonce(TimestampedModel):
    """A service signer's secret nonce pair for one session, sealed with its own key.

    Exists from the signer's round 1 until the transaction that stores its signature share;
    its absence next to a commitment means the nonce was used.
    """

    session = fields.ForeignKeyField("models.SigningSession", related_name=False, on_delete=fields.CASCADE)
    session_id: uuid.UUID
    participant = fields.SmallIntField()
    sealed_nonces = fields.BinaryField()

    class Meta:
        table = "signer_nonces"
        unique_together = (("session", "participant"),)
