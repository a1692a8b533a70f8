"""AML screening: the workspace's screener configuration and one screening record per transfer.

:class:`AmlSettings` is the workspace's configuration (domain/aml/settings.py): whether transfers
are screened, by which provider, and the built-in screener's address lists, risk categories and
thresholds (``config``, validated JSON). No row means screening is off.

:class:`AmlScreening` is one transfer's screening (the spec's "AML screening" fields): its
provider's reference, the risk found (level, score, exposure per category), and what the
service did with the transfer before and after the result (``pre_screening_action``,
``post_screening_action``). A withdrawal and a deposit have at most one each. The Transaction
row carries a copy of the record's public fields (``transactions.aml_screening``) so that
listing transactions needs no join; both are written in the same database transaction.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel, money_field


class AmlSettings(TimestampedModel):
    workspace = fields.OneToOneField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    enabled = fields.BooleanField(default=False)
    #: A provider name of domain.aml.providers' registry (``builtin`` by default).
    provider = fields.CharField(max_length=40, default="builtin")
    #: The built-in screener's lists, categories and thresholds (domain.aml.settings).
    config = fields.JSONField(default=dict)
    updated_by = fields.UUIDField(null=True)

    class Meta:
        table = "aml_settings"


class AmlScreening(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    transaction = fields.OneToOneField("models.Transaction", related_name=False, on_delete=fields.RESTRICT)
    transaction_id: uuid.UUID
    #: ``outgoing`` (a withdrawal, screened before signing) or ``incoming`` (a deposit, after detection).
    direction = fields.CharField(max_length=10)
    #: ``pending`` (the provider has not answered), ``completed``, ``bypassed`` (not screened),
    #: ``cancelled`` (the withdrawal ended before the result).
    status = fields.CharField(max_length=12)
    provider = fields.CharField(max_length=40)
    #: The provider's own id of the registered transfer (Chainalysis' externalId, Elliptic's id).
    provider_ref = fields.CharField(max_length=200, null=True)
    #: The address screened: the destination of a withdrawal, the sender of a deposit.
    counterparty_address = fields.CharField(max_length=100, null=True)
    currency_id = fields.CharField(max_length=40)
    network = fields.CharField(max_length=40)
    amount = money_field()
    #: low, medium, high, severe (null while pending).
    risk_level = fields.CharField(max_length=10, null=True)
    risk_score = fields.DecimalField(max_digits=7, decimal_places=2, null=True)
    #: ``[{category, category_label, exposure_percent}]`` (exposure_percent a decimal string).
    matched_risks = fields.JSONField(default=list)
    #: ``screen`` or ``bypass`` (Fireblocks' pre-screening policy: whether the transfer is screened).
    pre_screening_action = fields.CharField(max_length=16)
    #: allow, require_approval, block, freeze (null while pending).
    post_screening_action = fields.CharField(max_length=20, null=True)
    #: What decided: ``aml:<rule id>`` of the workspace's AML policy, or ``aml:default``.
    decision_source = fields.CharField(max_length=120, null=True)
    decision_reason = fields.TextField(null=True)
    #: ``require_approval``: ``{approver_user_ids, group_id, threshold, source}`` (the check's details).
    decision_approval = fields.JSONField(null=True)
    screened_at = fields.DatetimeField(null=True)
    #: Incoming: whether the deposit's amount is in the wallet's ``frozen`` part now.
    funds_frozen = fields.BooleanField(default=False)
    released_at = fields.DatetimeField(null=True)
    released_by = fields.UUIDField(null=True)
    #: Provider updates after the first result (re-screening), oldest first:
    #: ``[{at, risk_level, risk_score, matched_risks}]``.
    updates = fields.JSONField(default=list)

    class Meta:
        table = "aml_screenings"
        indexes = (("workspace_id", "created_at"), ("status", "created_at"), ("provider", "provider_ref"))
