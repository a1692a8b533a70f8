"""Webhook management rules (domain level): validation, the SSRF guard on create and update,
limits, what updates do, and how far a replay reaches back. The HTTP envelope of the same errors
is in tests/api/test_webhooks.py; the catalogue's subscription matching in test_catalogue.py."""

from __future__ import annotations

import pytest

from core.unit_of_work import unit_of_work
from domain.errors import Conflict, DomainError, NotFound, PermissionDenied
from domain.webhooks import catalogue, management
from models.audit import AuditEntry
from models.webhooks import Webhook, WebhookDelivery
from tests.support.callers import make_principal
from tests.support.webhooks import attempts_reach, create_webhook, delivery_of, emit, release_retry, workspace_of
from tests.support.worker import wait_for

URL = "http://127.0.0.1:9/hook"


async def _create(principal, **overrides):
    args = {"url": URL, "event_types": ["transaction.*"], "description": None, **overrides}
    async with unit_of_work():
        return await management.create_webhook(principal=principal, workspace_id=next(iter(principal.accesses)), **args)


async def _refusal(principal, **overrides) -> DomainError:
    with pytest.raises(DomainError) as refused:
        await _create(principal, **overrides)
    return refused.value


async def test_invalid_input_is_refused_naming_the_field_and_nothing_is_written(database):
    admin = await make_principal()
    cases = [
        ({"url": None}, "url", "INVALID_WEBHOOK_URL"),
        ({"url": "ftp://example.com/"}, "url", "INVALID_WEBHOOK_URL"),
        ({"url": "https://u:p@example.com/"}, "url", "INVALID_WEBHOOK_URL"),
        ({"event_types": None}, "event_types", "VALIDATION_ERROR"),
        ({"event_types": []}, "event_types", "VALIDATION_ERROR"),
        ({"event_types": "transaction.*"}, "event_types", "VALIDATION_ERROR"),
        ({"event_types": ["transaction.deleted"]}, "event_types", "INVALID_EVENT_TYPE"),
        ({"event_types": ["webhook.test"]}, "event_types", "INVALID_EVENT_TYPE"),
        ({"event_types": ["*"]}, "event_types", "INVALID_EVENT_TYPE"),
        ({"description": "x" * 256}, "description", "VALIDATION_ERROR"),
        ({"description": 5}, "description", "VALIDATION_ERROR"),
    ]
    for overrides, field, code in cases:
        error = await _refusal(admin, **overrides)
        assert (error.status, error.code, error.details["field"]) == (400, code, field), overrides
    assert await Webhook.all().count() == 0


async def test_forbidden_targets_are_refused_on_create_and_on_update(database, webhook_settings):
    admin = await make_principal()
    forbidden = {
        "https://10.0.0.1/": "private", "https://172.20.1.1/": "private", "https://192.168.0.10/": "private",
        "https://[fc00::5]/": "private", "https://169.254.169.254/latest/meta-data/": "metadata",
        "https://[fd00:ec2::254]/": "metadata", "https://100.64.0.9/": "shared", "https://169.254.10.10/": "link-local",
        "https://[fe80::1]/": "link-local", "https://224.0.0.9/": "multicast", "https://0.0.0.0/": "unspecified",
        "https://[::ffff:192.168.1.1]/": "private",
    }
    for url, category in forbidden.items():
        error = await _refusal(admin, url=url)
        assert error.code == "WEBHOOK_URL_FORBIDDEN" and category in error.details["reason"], url
    webhook, _ = await _create(admin)
    webhook_settings(webhook_allow_loopback=False)
    for url in ("https://127.0.0.1/", "https://[::1]/", "https://localhost/", "https://127.0.0.2:8443/x"):
        assert (await _refusal(admin, url=url)).code == "WEBHOOK_URL_FORBIDDEN", url
    with pytest.raises(DomainError) as on_update:
        async with unit_of_work():
            await management.update_webhook(principal=admin, workspace_id=webhook.workspace_id, webhook_id=webhook.id,
                                          changes={"url": "https://10.9.8.7/", "description": "changed"})
    assert on_update.value.code == "WEBHOOK_URL_FORBIDDEN"
    stored = await Webhook.get(id=webhook.id)
    assert stored.url == URL and stored.description == ""
    assert await Webhook.all().count() == 1


async def test_limits_and_permissions(database):
    admin = await make_principal()
    workspace_id = next(iter(admin.accesses))
    for _ in range(catalogue.MAX_WEBHOOKS_PER_WORKSPACE):
        await _create(admin)
    error = await _refusal(admin)
    assert isinstance(error, Conflict) and error.code == "WEBHOOK_LIMIT_REACHED"
    viewer = await make_principal(role="VIEWER", workspace_id=workspace_id)
    signer = await make_principal(role="SIGNER", workspace_id=workspace_id)
    with pytest.raises(PermissionDenied):
        await management.list_webhooks(principal=viewer, workspace_id=workspace_id, limit=10, offset=0)
    assert (await management.list_webhooks(principal=signer, workspace_id=workspace_id, limit=10, offset=0)).total == 20
    with pytest.raises(PermissionDenied):
        await _create(signer)


async def test_updates_are_validated_whole_before_anything_changes(database):
    admin = await make_principal()
    webhook, _ = await _create(admin)
    workspace_id = webhook.workspace_id

    async def update(**changes):
        async with unit_of_work():
            return await management.update_webhook(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id,
                                                 changes=changes)

    for changes, field in (({"status": "paused"}, "status"), ({"secret": "x"}, "secret"),
                           ({"description": "ok", "event_types": ["nope"]}, "event_types")):
        with pytest.raises(DomainError) as refused:
            await update(**changes)
        assert refused.value.details["field"] == field
    with pytest.raises(DomainError):
        await update()
    assert (await Webhook.get(id=webhook.id)).description == ""
    updated = await update(event_types=["transaction.created", "transaction.created", "transaction.updated"],
                           description=" sync ")
    assert updated.event_types == ["transaction.created", "transaction.updated"] and updated.description == "sync"
    # An update that changes nothing writes no audit entry.
    before = await AuditEntry.filter(action="webhook.updated").count()
    await update(description="sync")
    assert await AuditEntry.filter(action="webhook.updated").count() == before


async def test_deleted_webhooks_are_not_found(database):
    admin = await make_principal()
    webhook, _ = await _create(admin)
    async with unit_of_work():
        await management.delete_webhook(principal=admin, workspace_id=webhook.workspace_id, webhook_id=webhook.id)
    with pytest.raises(NotFound):
        await management.get_webhook(principal=admin, workspace_id=webhook.workspace_id, webhook_id=webhook.id)


async def test_replay_reaches_back_exactly_seven_days(database, worker, broker, receiver, frozen_clock):
    receiver.default = 500
    admin = await make_principal()
    workspace_id = workspace_of(admin)
    webhook, _ = await create_webhook(admin, receiver.url())
    (old,) = await emit(workspace_id)
    old_delivery = await delivery_of(old, webhook)
    await wait_for(attempts_reach(old_delivery.id, 1))
    # A day later its retry fails too, past the 24 hour window: the old delivery is failed for good
    frozen_clock.advance(days=1)
    await release_retry(broker, await WebhookDelivery.get(id=old_delivery.id))
    await wait_for(attempts_reach(old_delivery.id, 2))
    assert (await WebhookDelivery.get(id=old_delivery.id)).status == "failed"
    (recent,) = await emit(workspace_id)
    recent_delivery = await delivery_of(recent, webhook)
    await wait_for(attempts_reach(recent_delivery.id, 1))
    receiver.default = 200
    # 7 days and 1 second after the first event: only the second is inside the replay period
    frozen_clock.advance(days=6, seconds=1)
    async with unit_of_work():
        result = await management.replay(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id)
    assert result.queued == 1
    await worker.settle()
    assert (await WebhookDelivery.get(id=recent_delivery.id)).status == "succeeded"
    assert (await WebhookDelivery.get(id=old_delivery.id)).status == "failed"
    assert [r.event_id for r in receiver.received].count(str(old.id)) == 2
