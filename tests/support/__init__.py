"""What the tests share that is not a test: helpers imported normally, and one pytest plugin.

- ``environment``: the suite's own database, data folder and Redis namespace (per checkout), and
  removing them when the run ends.
- ``database``: emptying the tables between tests.
- ``client``: the in-process HTTP client of the ``client`` fixture.
- ``callers``: API users and their tokens, principals.
- ``worker``: the in-process dramatiq worker of the ``worker`` fixture; waiting for conditions.
- ``signing``: vaults with a real DKG, an in-process co-signer, backups.
- ``key_pool``: DKGs of every FROST scheme run ahead (rounds 1 and 2, checked), served once, that
  the service's participants finalize: the vault keys of the end-to-end tests.
- ``wallets``: vaults with a test key, wallets, the devnet, the chain watcher.
- ``webhooks``: webhooks, events, deliveries.
- ``receiver``: a webhook receiver on loopback; a pytest plugin (tests/conftest.py registers it)
  with the ``receiver``, ``second_receiver`` and ``webhook_settings`` fixtures.

Fixtures live in tests/conftest.py, a folder's conftest.py, or the plugin above: test modules
never import fixtures.
"""
