from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.gated_action_list import GatedActionList
from ...types import Response


def _get_kwargs(
    tenant_uuid: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/admin/tenants/{tenant_uuid}/quorum/gated-actions".format(
            tenant_uuid=quote(str(tenant_uuid), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GatedActionList | None:
    if response.status_code == 200:
        response_200 = GatedActionList.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GatedActionList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[GatedActionList]:
    """Each action and whether it needs approval for the caller (any active role; not a device)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GatedActionList]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
) -> GatedActionList | None:
    """Each action and whether it needs approval for the caller (any active role; not a device)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GatedActionList
    """

    return sync_detailed(
        tenant_uuid=tenant_uuid,
        client=client,
    ).parsed


async def asyncio_detailed(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[GatedActionList]:
    """Each action and whether it needs approval for the caller (any active role; not a device)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GatedActionList]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
) -> GatedActionList | None:
    """Each action and whether it needs approval for the caller (any active role; not a device)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GatedActionList
    """

    return (
        await asyncio_detailed(
            tenant_uuid=tenant_uuid,
            client=client,
        )
    ).parsed
