"""Addresses derived from a vault's FROST(Ed25519) group public key (32 bytes, RFC 8032 encoding).

Account (EVM-like) networks::

    address = "0x" + hex(last 20 bytes of SHA3-256(group_public_key))      (lowercase)

  SHA3-256 is FIPS 202 (hashlib), not Ethereum's pre-standard Keccak-256: this is a devnet
  encoding, not an Ethereum address. Mainnet and testnet use the same form (as EVM chains do);
  the network id keeps their state apart. Input is accepted in any letter case.

UTXO (BTC-like) networks: a segwit-v0-style bech32 address (BIP 173 checksum)::

    program = BLAKE2b-160(group_public_key)       (hashlib.blake2b, digest_size=20)
    address = bech32_encode(hrp, [0] + convertbits(program, 8, 5))

  The human-readable part differs per network: ``dvb`` on the mainnet devnet, ``tdvb`` on the
  testnet devnet (registry ``params.hrp``), so an address of one can never be pasted into the
  other.

The key itself is not recoverable from either form: a spender reveals it with the transfer and
the network checks that it hashes to the sending address before verifying the signature.
"""

from __future__ import annotations

import hashlib
import re

_HEX40 = re.compile(r"^0x[0-9a-f]{40}$")
_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


class InvalidAddress(ValueError):
    """Not an address of the network (bad form, checksum or prefix)."""


def account_address(public_key: bytes) -> str:
    if len(public_key) != 32:
        raise ValueError("a group public key is 32 bytes")
    return "0x" + hashlib.sha3_256(public_key).digest()[-20:].hex()


def normalize_account_address(address: str) -> str:
    if not isinstance(address, str):
        raise InvalidAddress("an address is a string")
    lowered = address.strip().lower()
    if not _HEX40.match(lowered):
        raise InvalidAddress("an account address is 0x followed by 40 hex digits")
    return lowered


def _polymod(values: list[int]) -> int:
    checksum = 1
    for value in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            checksum ^= _GENERATOR[i] if (top >> i) & 1 else 0
    return checksum


def _hrp_expand(hrp: str) -> list[int]:
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def _convertbits(data: bytes | list[int], frombits: int, tobits: int, pad: bool) -> list[int]:
    acc, bits, out = 0, 0, []
    maxv = (1 << tobits) - 1
    for value in data:
        if value < 0 or value >> frombits:
            raise InvalidAddress("invalid data")
        acc = (acc << frombits) | value
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & maxv)
    if pad:
        if bits:
            out.append((acc << (tobits - bits)) & maxv)
    elif bits >= frombits or ((acc << (tobits - bits)) & maxv):
        raise InvalidAddress("invalid padding")
    return out


def bech32_encode(hrp: str, program: bytes, *, version: int = 0) -> str:
    data = [version] + _convertbits(program, 8, 5, True)
    polymod = _polymod(_hrp_expand(hrp) + data + [0] * 6) ^ 1
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_CHARSET[d] for d in data + checksum)


def bech32_decode(address: str, *, hrp: str) -> bytes:
    """The witness program of a v0 bech32 address with the given human-readable part."""
    if not isinstance(address, str):
        raise InvalidAddress("an address is a string")
    text = address.strip()
    if text.lower() != text and text.upper() != text:
        raise InvalidAddress("mixed case")
    text = text.lower()
    position = text.rfind("1")
    if position < 1 or position + 7 > len(text) or len(text) > 90:
        raise InvalidAddress("not a bech32 address")
    if text[:position] != hrp:
        raise InvalidAddress(f"the address prefix must be {hrp}")
    try:
        data = [_CHARSET.index(c) for c in text[position + 1 :]]
    except ValueError:
        raise InvalidAddress("invalid bech32 character") from None
    if _polymod(_hrp_expand(hrp) + data) != 1:
        raise InvalidAddress("bad checksum")
    version, program = data[0], bytes(_convertbits(data[1:-6], 5, 8, False))
    if version != 0 or len(program) != 20:
        raise InvalidAddress("only version-0, 20-byte programs are used here")
    return program


def utxo_address(public_key: bytes, *, hrp: str) -> str:
    if len(public_key) != 32:
        raise ValueError("a group public key is 32 bytes")
    return bech32_encode(hrp, hashlib.blake2b(public_key, digest_size=20).digest())


def normalize_utxo_address(address: str, *, hrp: str) -> str:
    bech32_decode(address, hrp=hrp)
    return address.strip().lower()
