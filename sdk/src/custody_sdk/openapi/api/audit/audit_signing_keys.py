from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_signing_keys import AuditSigningKeys
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit/keys",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditSigningKeys | None:
    if response.status_code == 200:
        response_200 = AuditSigningKeys.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuditSigningKeys]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[AuditSigningKeys]:
    """The keys that sign audit chain heads: pin one, follow its rotations by their endorsements

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 413 PAYLOAD_TOO_LARGE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditSigningKeys]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> AuditSigningKeys | None:
    """The keys that sign audit chain heads: pin one, follow its rotations by their endorsements

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 413 PAYLOAD_TOO_LARGE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditSigningKeys
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[AuditSigningKeys]:
    """The keys that sign audit chain heads: pin one, follow its rotations by their endorsements

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 413 PAYLOAD_TOO_LARGE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditSigningKeys]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> AuditSigningKeys | None:
    """The keys that sign audit chain heads: pin one, follow its rotations by their endorsements

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 413 PAYLOAD_TOO_LARGE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditSigningKeys
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
