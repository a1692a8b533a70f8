"""The one layout of every key set, and the name that identifies its scheme on the wire.

2 of 3: participants 1 and 2 are the service's signer processes, participant 3 is the client's
co-signer (a headless co-signer or a paired device). Any two of them can sign; no one holds the
whole key, not even when it is created.
"""

from __future__ import annotations

#: Scheme name of FROST(Ed25519, SHA-512) key sets (RFC 9591's context string), in configs,
#: backups and the API.
ED25519_SCHEME = "FROST-ED25519-SHA512-v1"

#: Participant identifiers of the two service signers.
SERVICE_PARTICIPANTS: tuple[int, ...] = (1, 2)
#: Participant identifier of the client's co-signer.
COSIGNER_PARTICIPANT = 3
#: Every participant, in order.
ALL_PARTICIPANTS: tuple[int, ...] = (*SERVICE_PARTICIPANTS, COSIGNER_PARTICIPANT)
#: Signatures need this many participants out of MAX_SIGNERS.
MIN_SIGNERS = 2
MAX_SIGNERS = 3
