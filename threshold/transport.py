"""Confidential transport of DKG round-2 packages between participants (pure functions).

Each participant publishes a fresh X25519 transport public key with its round-1 broadcast and
keeps the private key with its secret round state. A round-2 package (which carries the secret
share ``f_sender(recipient)``) travels as a NaCl Box from the sender's to the recipient's
transport key, base64-encoded: the coordinator and the database only ever see ciphertext, and
Box authenticates the sender's transport key. Used by the service signers (domain.signing.service_signer)
and the co-signer program (client.cosigner). Packages of any ciphersuite's DKG travel the same way;
the recipient names the type it expects (``threshold.dkg.Round2Package`` by default).
"""

from __future__ import annotations

import base64
import binascii
import json

from nacl.exceptions import CryptoError
from nacl.public import Box, PrivateKey, PublicKey

from threshold import dkg, pedersen


def transport_key_is_usable(public_key: bytes) -> bool:
    """Whether a Box to this X25519 key can be built (rejects low-order and malformed keys)."""
    try:
        Box(PrivateKey.generate(), PublicKey(bytes(public_key)))
    except Exception:  # noqa: BLE001 - libsodium reports a low-order key as a bare RuntimeError
        return False
    return True


def seal_round2_package(package: pedersen.Round2Package, *, own: PrivateKey, recipient_transport_key: bytes) -> str:
    """Encrypt ``package`` for its recipient: base64 of the Box ciphertext (nonce included)."""
    ciphertext = Box(own, PublicKey(recipient_transport_key)).encrypt(json.dumps(package.to_dict()).encode())
    return base64.b64encode(bytes(ciphertext)).decode()


def open_round2_package(
    *, own: PrivateKey, recipient: int, sender: int, sender_transport_key: bytes, ciphertext_b64: str,
    package_type: type[pedersen.Round2Package] = dkg.Round2Package,
) -> pedersen.Round2Package:
    """Decrypt and parse a round-2 package of ``package_type``; anything wrong with it is the sender's fault."""
    try:
        plaintext = Box(own, PublicKey(sender_transport_key)).decrypt(base64.b64decode(ciphertext_b64))
        package = package_type.from_dict(json.loads(plaintext))
    except dkg.DkgCheatingParticipant:
        raise
    except dkg.DkgError as exc:
        raise dkg.DkgCheatingParticipant(sender, f"malformed round 2 package: {exc}") from None
    except (CryptoError, ValueError, TypeError, KeyError, binascii.Error) as exc:
        raise dkg.DkgCheatingParticipant(sender, f"round 2 package cannot be opened ({type(exc).__name__})") from None
    if package.sender != sender or package.recipient != recipient:
        raise dkg.DkgCheatingParticipant(sender, "round 2 package is addressed inconsistently")
    return package
