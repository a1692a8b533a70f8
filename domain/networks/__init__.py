"""Blockchain networks behind one adapter interface (:class:`~domain.networks.base.NetworkAdapter`).

- :mod:`~domain.networks.registry`: which adapter serves which network (:func:`get_adapter`);
- :mod:`~domain.networks.base`: the interface;
- :mod:`~domain.networks.devnet`, ``devnet_account``, ``devnet_utxo``, ``devnet_chain``: the
  built-in simulated devnet (account/gas and UTXO families), the zero-install default;
- :mod:`~domain.networks.addresses`: address encodings.
"""
