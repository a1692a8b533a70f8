"""Domain rules shared by the API and the actors: no HTTP and no broker in here.

Each module is named after its domain word (``domain/companies.py`` beside ``api/companies.py``
and ``models/companies.py``). Service functions take keyword-only arguments, never commit (the
request or task boundary does) and raise :class:`domain.errors.DomainError` subclasses that
carry their HTTP status and stable error code.
"""
