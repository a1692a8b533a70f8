"""Addresses (domain/networks/addresses.py): derived from the group key, checked on the way in."""

from __future__ import annotations

import pytest
from nacl.signing import SigningKey

from domain.networks import addresses
from domain.networks.registry import get_adapter

EVM = "devnet-evm-testnet"
UTXO = "devnet-utxo-testnet"


def test_address_encodings_are_derived_from_the_group_key_and_differ_between_mainnet_and_testnet():
    key = bytes(SigningKey.generate().verify_key)
    evm, evm_test = get_adapter("devnet-evm").address_from_public_key(key), get_adapter(EVM).address_from_public_key(key)
    assert evm == evm_test == addresses.account_address(key) and evm.startswith("0x") and len(evm) == 42
    btc, btc_test = get_adapter("devnet-utxo").address_from_public_key(key), get_adapter(UTXO).address_from_public_key(key)
    assert btc.startswith("dvb1q") and btc_test.startswith("tdvb1q")
    # A testnet address is not an address of the mainnet network, and checksums are checked
    with pytest.raises(addresses.InvalidAddress):
        get_adapter("devnet-utxo").normalize_address(btc_test)
    with pytest.raises(addresses.InvalidAddress):
        get_adapter(UTXO).normalize_address(btc_test[:-1] + ("q" if btc_test[-1] != "q" else "p"))
    assert get_adapter(EVM).normalize_address(evm.upper().replace("0X", "0x")) == evm
