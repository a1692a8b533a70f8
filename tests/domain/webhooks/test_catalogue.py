"""The event catalogue (domain/webhooks/catalogue.py): which subscriptions match an event type."""

from __future__ import annotations

from domain.webhooks import catalogue


def test_subscription_matching():
    assert catalogue.is_subscribed(["transaction.*"], "transaction.updated")
    assert catalogue.is_subscribed(["transaction.created"], "transaction.created")
    assert not catalogue.is_subscribed(["transaction.created"], "transaction.updated")
    assert not catalogue.is_subscribed(["transaction.*"], "webhook.test")
