"""Change approvals: administrative changes confirmed by the owner, an administrator quorum or a group.

Modules (docs/change-approvals.md has the whole design):

- :mod:`.registry`: the gated actions (key, operations, display snapshot, validate, apply) and
  the names every layer shares (modes, statuses, error classes);
- :mod:`.pools`: who may confirm (owner, administrators, a group's active members) and the
  approver sets a rule composes from them;
- :mod:`.gate`: what a gated service calls: nothing happens for a change that needs no approval,
  otherwise the request is registered and 403 QUORUM_APPROVAL_REQUIRED answered;
- :mod:`.requests`: the lifecycle (votes, cancel, apply by the actor, expiry), lists and cards;
- :mod:`.rules`: the approval settings (per-action rules, the administrator threshold);
- :mod:`.notify`: WebSocket events, push notifications through a provider, webhook events;
- :mod:`.stream`: what a WebSocket stream sends.

The gated services (users, groups, tags, whitelist, policies, and the approval settings in
:mod:`.rules`) register their actions with :mod:`.registry` and call :mod:`.gate`; nothing here
imports them, so the imports run one way (pyproject.toml [tool.importlinter]). This package file
imports nothing.
"""
