"""Housekeeping of authentication state: expired nonces, tokens and pairing sessions."""

from __future__ import annotations

from datetime import timedelta

from core import clock
from models.auth import AccessToken, AuthNonce, PairingSession

#: Scheduled actor: purge expired authentication state (hourly).
PURGE_EXPIRED = "auth.purge_expired"

#: Expired tokens are kept this long for the audit trail of who held what, then deleted.
TOKEN_RETENTION = timedelta(days=7)


async def purge_expired_auth_state() -> dict[str, int]:
    now = clock.now()
    return {
        "nonces": await AuthNonce.filter(expires_at__lt=now).delete(),
        "tokens": await AccessToken.filter(expires_at__lt=now - TOKEN_RETENTION).delete(),
        "pairings": await PairingSession.filter(expires_at__lt=now - TOKEN_RETENTION, device_id__isnull=True).delete(),
    }
