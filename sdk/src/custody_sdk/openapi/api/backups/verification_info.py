from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.verification_groups import VerificationGroups
from ...types import UNSET, Response, Unset


def _get_kwargs(
    backup_id: UUID,
    *,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/backup/{backup_id}/verify".format(
            backup_id=quote(str(backup_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> VerificationGroups | None:
    if response.status_code == 200:
        response_200 = VerificationGroups.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[VerificationGroups]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    backup_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[VerificationGroups]:
    """Verification groups of a backup: master_xpub and schema per key

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 BACKUP_NOT_FOUND,
    NOT_FOUND, WORKSPACE_NOT_FOUND; 409 BACKUP_NOT_READY; 413 PAYLOAD_TOO_LARGE.

    Args:
        backup_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[VerificationGroups]
    """

    kwargs = _get_kwargs(
        backup_id=backup_id,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    backup_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> VerificationGroups | None:
    """Verification groups of a backup: master_xpub and schema per key

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 BACKUP_NOT_FOUND,
    NOT_FOUND, WORKSPACE_NOT_FOUND; 409 BACKUP_NOT_READY; 413 PAYLOAD_TOO_LARGE.

    Args:
        backup_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        VerificationGroups
    """

    return sync_detailed(
        backup_id=backup_id,
        client=client,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    backup_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[VerificationGroups]:
    """Verification groups of a backup: master_xpub and schema per key

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 BACKUP_NOT_FOUND,
    NOT_FOUND, WORKSPACE_NOT_FOUND; 409 BACKUP_NOT_READY; 413 PAYLOAD_TOO_LARGE.

    Args:
        backup_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[VerificationGroups]
    """

    kwargs = _get_kwargs(
        backup_id=backup_id,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    backup_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> VerificationGroups | None:
    """Verification groups of a backup: master_xpub and schema per key

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 BACKUP_NOT_FOUND,
    NOT_FOUND, WORKSPACE_NOT_FOUND; 409 BACKUP_NOT_READY; 413 PAYLOAD_TOO_LARGE.

    Args:
        backup_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        VerificationGroups
    """

    return (
        await asyncio_detailed(
            backup_id=backup_id,
            client=client,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
