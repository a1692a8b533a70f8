"""Standard-library-only helpers that the service and the client tools share.

It imports nothing of the project, so the client tools (client/), which must not depend on the
service, can use it as well as the service's own packages.
"""
