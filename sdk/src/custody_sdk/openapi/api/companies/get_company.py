from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.company import Company
from ...types import Response


def _get_kwargs(
    company_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/company/{company_id}".format(
            company_id=quote(str(company_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Company | None:
    if response.status_code == 200:
        response_200 = Company.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Company]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    company_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Company]:
    """One company (one you cannot see answers 404, like a missing one)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 404 COMPANY_NOT_FOUND, NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        company_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Company]
    """

    kwargs = _get_kwargs(
        company_id=company_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    company_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Company | None:
    """One company (one you cannot see answers 404, like a missing one)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 404 COMPANY_NOT_FOUND, NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        company_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Company
    """

    return sync_detailed(
        company_id=company_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    company_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Company]:
    """One company (one you cannot see answers 404, like a missing one)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 404 COMPANY_NOT_FOUND, NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        company_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Company]
    """

    kwargs = _get_kwargs(
        company_id=company_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    company_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Company | None:
    """One company (one you cannot see answers 404, like a missing one)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 404 COMPANY_NOT_FOUND, NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        company_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Company
    """

    return (
        await asyncio_detailed(
            company_id=company_id,
            client=client,
        )
    ).parsed
