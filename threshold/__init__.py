"""Threshold cryptography, pure: FROST signing, distributed key generation, their wire formats.

No I/O, no database, nothing of the service: the service (domain/) and the client tools
(client/) build on it alike. :mod:`threshold.scheme` names the layout every key set uses and
the schemes a key set can have.

=============================  ==============================================================
``protocol``                   FROST (RFC 9591), once, over any ciphersuite; its data classes
``pedersen``                   the Pedersen DKG with proofs of knowledge, over any ciphersuite
``ciphersuite``, ``errors``    what a group and a ciphersuite provide; the shared errors
``ed25519``, ``secp256k1``     the groups and ciphersuites, on libsodium and libsecp256k1
``frost``, ``dkg``             FROST(Ed25519, SHA-512) and its DKG (the service's key sets)
``frost_secp256k1``,           FROST(secp256k1, SHA-256) (RFC 9591 section 6.5) and its DKG
``dkg_secp256k1``
``taproot``                    FROST-secp256k1 with BIP-340 signatures and BIP-341 tweaks
``suites``                     by scheme name: the DKG, data classes and engines of a key set
``transport``, ``cosigner_part``  round-2 package encryption; the co-signer part config
``encoding``                   hex parsing of the wire formats
=============================  ==============================================================
"""
