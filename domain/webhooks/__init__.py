"""Webhooks: signed HTTP callbacks carrying events, with retries, disabling and replay.

- :mod:`~domain.webhooks.catalogue`: event types, statuses, limits, subscription parsing;
- :mod:`~domain.webhooks.management`: the API's service functions (create ... replay);
- :mod:`~domain.webhooks.events`: :func:`~domain.webhooks.events.emit_event` (what the rest of
  the service calls, in its own transaction) and the fan-out to subscribed webhooks;
- :mod:`~domain.webhooks.delivery`: one attempt (claim, send, record), retries, disabling, sweep;
- :mod:`~domain.webhooks.sender`: the outbound HTTP request, behind the SSRF guard;
- :mod:`~domain.webhooks.schedule`: the retry schedule and windows;
- :mod:`~domain.webhooks.signatures`: Standard Webhooks signatures;
- :mod:`~domain.webhooks.url_guard`: which URLs and addresses may be called.

docs/webhooks.md has the whole design.
"""
