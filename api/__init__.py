"""The HTTP layer (Sanic): endpoints parse, authorize, call a domain service and serialize."""
