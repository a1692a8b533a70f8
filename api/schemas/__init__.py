"""Request and response schemas of the API, one module per domain word (``api/schemas/vaults.py``
beside ``api/vaults.py``); :mod:`api.schemas.common` holds what they share."""
