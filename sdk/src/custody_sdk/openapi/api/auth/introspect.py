from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.active_token import ActiveToken
from ...models.inactive_token import InactiveToken
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/auth/introspect",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ActiveToken | InactiveToken | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> ActiveToken | InactiveToken:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_introspection_type_0 = ActiveToken.from_dict(data)

                return componentsschemas_introspection_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_introspection_type_1 = InactiveToken.from_dict(data)

            return componentsschemas_introspection_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ActiveToken | InactiveToken]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[ActiveToken | InactiveToken]:
    """Introspect the bearer token

     An expired, revoked or unknown token answers 200 {"active": false}; only a missing bearer is a 401.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 UNAUTHENTICATED; 413
    PAYLOAD_TOO_LARGE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActiveToken | InactiveToken]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> ActiveToken | InactiveToken | None:
    """Introspect the bearer token

     An expired, revoked or unknown token answers 200 {"active": false}; only a missing bearer is a 401.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 UNAUTHENTICATED; 413
    PAYLOAD_TOO_LARGE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActiveToken | InactiveToken
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[ActiveToken | InactiveToken]:
    """Introspect the bearer token

     An expired, revoked or unknown token answers 200 {"active": false}; only a missing bearer is a 401.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 UNAUTHENTICATED; 413
    PAYLOAD_TOO_LARGE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActiveToken | InactiveToken]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> ActiveToken | InactiveToken | None:
    """Introspect the bearer token

     An expired, revoked or unknown token answers 200 {"active": false}; only a missing bearer is a 401.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 UNAUTHENTICATED; 413
    PAYLOAD_TOO_LARGE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActiveToken | InactiveToken
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
