"""Withdrawals: move assets out of a vault (docs/withdrawals.md).

- the statuses and the one transition table are :mod:`domain.transaction_statuses` (a
  transaction's, deposits' included: domain.transactions reads them, and this package builds on it);
- :mod:`~domain.withdrawals.keys`: X-Idempotency-Key, X-Attempt-Key, X-Utxo-Intent-Key;
- :mod:`~domain.withdrawals.destinations`: internal, whitelisted or one-time destinations;
- :mod:`~domain.withdrawals.fees`: the fee limit per network family, and the gas check;
- :mod:`~domain.withdrawals.ledger`: what a withdrawal holds, releases and settles, and how every
  transition is written (change log, balance versions, audit log, webhook event);
- :mod:`~domain.withdrawals.create`: POST /transaction (reservation in the creating transaction);
- :mod:`~domain.withdrawals.checks`: the check stage the policy engine, AML and approvals plug into;
- :mod:`~domain.withdrawals.pipeline`: checks → signing → broadcast → confirmations (the actors' steps);
- :mod:`~domain.withdrawals.lifecycle`: freeze, unfreeze, cancel, expire.

The arrows run one way: this package builds on :mod:`domain.transactions` and
:mod:`domain.gas_station` (whether a vault's autofuel covers a token transfer), never the reverse;
the refuels, which are withdrawals the station makes, are :mod:`domain.withdrawals.refuels`.
"""
