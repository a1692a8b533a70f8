from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.workspace import Workspace
from ...models.workspace_create import WorkspaceCreate
from ...types import Response


def _get_kwargs(
    company_id: UUID,
    *,
    body: WorkspaceCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/company/{company_id}/workspaces".format(
            company_id=quote(str(company_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Workspace | None:
    if response.status_code == 201:
        response_201 = Workspace.from_dict(response.json())

        return response_201

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Workspace]:
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
    body: WorkspaceCreate,
) -> Response[Workspace]:
    """Create a workspace of the company (PLATFORM_ADMIN)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 COMPANY_NOT_FOUND,
    NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        company_id (UUID):
        body (WorkspaceCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Workspace]
    """

    kwargs = _get_kwargs(
        company_id=company_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    company_id: UUID,
    *,
    client: AuthenticatedClient,
    body: WorkspaceCreate,
) -> Workspace | None:
    """Create a workspace of the company (PLATFORM_ADMIN)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 COMPANY_NOT_FOUND,
    NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        company_id (UUID):
        body (WorkspaceCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Workspace
    """

    return sync_detailed(
        company_id=company_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    company_id: UUID,
    *,
    client: AuthenticatedClient,
    body: WorkspaceCreate,
) -> Response[Workspace]:
    """Create a workspace of the company (PLATFORM_ADMIN)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 COMPANY_NOT_FOUND,
    NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        company_id (UUID):
        body (WorkspaceCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Workspace]
    """

    kwargs = _get_kwargs(
        company_id=company_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    company_id: UUID,
    *,
    client: AuthenticatedClient,
    body: WorkspaceCreate,
) -> Workspace | None:
    """Create a workspace of the company (PLATFORM_ADMIN)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 COMPANY_NOT_FOUND,
    NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        company_id (UUID):
        body (WorkspaceCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Workspace
    """

    return (
        await asyncio_detailed(
            company_id=company_id,
            client=client,
            body=body,
        )
    ).parsed
