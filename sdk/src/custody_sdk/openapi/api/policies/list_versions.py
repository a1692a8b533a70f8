from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.policy_version_page import PolicyVersionPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/admin/tenants/{tenant_uuid}/policies/{policy_type}/versions".format(
            tenant_uuid=quote(str(tenant_uuid), safe=""),
            policy_type=quote(str(policy_type), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PolicyVersionPage | None:
    if response.status_code == 200:
        response_200 = PolicyVersionPage.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PolicyVersionPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> Response[PolicyVersionPage]:
    """The history of published versions, newest first (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, POLICY_TYPE_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PolicyVersionPage]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        policy_type=policy_type,
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> PolicyVersionPage | None:
    """The history of published versions, newest first (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, POLICY_TYPE_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PolicyVersionPage
    """

    return sync_detailed(
        tenant_uuid=tenant_uuid,
        policy_type=policy_type,
        client=client,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> Response[PolicyVersionPage]:
    """The history of published versions, newest first (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, POLICY_TYPE_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PolicyVersionPage]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        policy_type=policy_type,
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
) -> PolicyVersionPage | None:
    """The history of published versions, newest first (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, POLICY_TYPE_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PolicyVersionPage
    """

    return (
        await asyncio_detailed(
            tenant_uuid=tenant_uuid,
            policy_type=policy_type,
            client=client,
            limit=limit,
            offset=offset,
        )
    ).parsed
