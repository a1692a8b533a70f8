"""Threshold cryptography, pure: FROST signing, distributed key generation, their wire formats.

No I/O, no database, nothing of the service: the service (domain/) and the client tools
(client/) build on it alike. :mod:`threshold.scheme` names the layout every key set uses.
"""
