"""The one layout of every key set, and the names that identify its scheme on the wire.

2 of 3: participants 1 and 2 are the service's signer processes, participant 3 is the client's
co-signer (a headless co-signer or a paired device). Any two of them can sign; no one holds the
whole key, not even when it is created.

A scheme name is the context string of the ciphersuite that signs (what the key set's
``scheme`` column, configs and backups carry):

=================================  ===================================  ==========================
scheme                             signs with                           keys from
=================================  ===================================  ==========================
``FROST-ED25519-SHA512-v1``        ``threshold.frost`` (RFC 9591 6.1)   ``threshold.dkg``
``FROST-secp256k1-SHA256-v1``      ``threshold.frost_secp256k1``        ``threshold.dkg_secp256k1``
                                   (RFC 9591 6.5)
``FROST-secp256k1-SHA256-TR-v1``   ``threshold.taproot`` (BIP-340       ``threshold.dkg_secp256k1``
                                   signatures, BIP-341 tweak)
``ECDSA-secp256k1-cait-sith-v1``   ``threshold.ecdsa`` (ECDSA, low s;   ``threshold.ecdsa.keygen``, or
                                   cait-sith presignatures)             ``dkg_secp256k1``'s packages
=================================  ===================================  ==========================

The two secp256k1 schemes share key packages (same group, same encodings); they differ in what
is signed, so a key set names one of them and keeps to it.
"""

from __future__ import annotations

#: Scheme name of FROST(Ed25519, SHA-512) key sets (RFC 9591's context string), in configs,
#: backups and the API.
ED25519_SCHEME = "FROST-ED25519-SHA512-v1"
#: Scheme name of FROST(secp256k1, SHA-256) key sets (RFC 9591's context string): 65-byte
#: signatures ``SEC1(R) || z``, verified by RFC 9591's prime-order check.
SECP256K1_SCHEME = "FROST-secp256k1-SHA256-v1"
#: Scheme name of Taproot key sets: FROST(secp256k1, SHA-256) producing BIP-340 signatures,
#: valid key-path spends of the BIP-341 output key (the ZF frost-secp256k1-tr context string).
TAPROOT_SCHEME = "FROST-secp256k1-SHA256-TR-v1"
#: Scheme name of threshold ECDSA key sets (EVM accounts): secp256k1 ECDSA signatures by the
#: cait-sith protocol (unaudited; docs/signing.md). Its signing takes presignatures made ahead of
#: time, each usable once: :mod:`threshold.ecdsa`.
ECDSA_SCHEME = "ECDSA-secp256k1-cait-sith-v1"
#: The FROST schemes (:mod:`threshold.suites` has their DKG and engines).
FROST_SCHEMES: tuple[str, ...] = (ED25519_SCHEME, SECP256K1_SCHEME, TAPROOT_SCHEME)
#: Every scheme this package implements.
SCHEMES: tuple[str, ...] = (*FROST_SCHEMES, ECDSA_SCHEME)

#: Participant identifiers of the two service signers.
SERVICE_PARTICIPANTS: tuple[int, ...] = (1, 2)
#: Participant identifier of the client's co-signer.
COSIGNER_PARTICIPANT = 3
#: Every participant, in order.
ALL_PARTICIPANTS: tuple[int, ...] = (*SERVICE_PARTICIPANTS, COSIGNER_PARTICIPANT)
#: Signatures need this many participants out of MAX_SIGNERS.
MIN_SIGNERS = 2
MAX_SIGNERS = 3
