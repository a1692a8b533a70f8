"""Withdrawals: move assets out of a vault (docs/withdrawals.md).

- :mod:`~domain.withdrawals.statuses`: the statuses and the one transition table;
- :mod:`~domain.withdrawals.keys`: X-Idempotency-Key, X-Attempt-Key, X-Utxo-Intent-Key;
- :mod:`~domain.withdrawals.destinations`: internal, whitelisted or one-time destinations;
- :mod:`~domain.withdrawals.fees`: the fee limit per network family, and the gas check;
- :mod:`~domain.withdrawals.ledger`: what a withdrawal holds, releases and settles, and how every
  transition is written (change log, balance versions, audit log, webhook event);
- :mod:`~domain.withdrawals.create`: POST /transaction (reservation in the creating transaction);
- :mod:`~domain.withdrawals.checks`: the check stage the policy engine, AML and approvals plug into;
- :mod:`~domain.withdrawals.pipeline`: checks → signing → broadcast → confirmations (the actors' steps);
- :mod:`~domain.withdrawals.lifecycle`: freeze, unfreeze, cancel, expire.

This package does not import :mod:`domain.transactions` from its ``__init__`` (that module uses
the statuses), so importing a submodule never cycles.
"""
