from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.backup import Backup
from ...models.backup_verification import BackupVerification
from ...types import UNSET, Response, Unset


def _get_kwargs(
    backup_id: UUID,
    *,
    body: BackupVerification,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/backup/{backup_id}/verify".format(
            backup_id=quote(str(backup_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Backup | None:
    if response.status_code == 200:
        response_200 = Backup.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Backup]:
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
    body: BackupVerification,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Backup]:
    """Confirm the backup restores: each group signed by its restored key

     Errors (raised as custody_sdk.CustodyApiError): 400 BACKUP_VERIFICATION_FAILED, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 BACKUP_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    BACKUP_NOT_READY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        backup_id (UUID):
        x_workspace_id (str | Unset):
        body (BackupVerification):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Backup]
    """

    kwargs = _get_kwargs(
        backup_id=backup_id,
        body=body,
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
    body: BackupVerification,
    x_workspace_id: str | Unset = UNSET,
) -> Backup | None:
    """Confirm the backup restores: each group signed by its restored key

     Errors (raised as custody_sdk.CustodyApiError): 400 BACKUP_VERIFICATION_FAILED, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 BACKUP_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    BACKUP_NOT_READY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        backup_id (UUID):
        x_workspace_id (str | Unset):
        body (BackupVerification):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Backup
    """

    return sync_detailed(
        backup_id=backup_id,
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    backup_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BackupVerification,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Backup]:
    """Confirm the backup restores: each group signed by its restored key

     Errors (raised as custody_sdk.CustodyApiError): 400 BACKUP_VERIFICATION_FAILED, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 BACKUP_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    BACKUP_NOT_READY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        backup_id (UUID):
        x_workspace_id (str | Unset):
        body (BackupVerification):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Backup]
    """

    kwargs = _get_kwargs(
        backup_id=backup_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    backup_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BackupVerification,
    x_workspace_id: str | Unset = UNSET,
) -> Backup | None:
    """Confirm the backup restores: each group signed by its restored key

     Errors (raised as custody_sdk.CustodyApiError): 400 BACKUP_VERIFICATION_FAILED, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 BACKUP_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    BACKUP_NOT_READY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        backup_id (UUID):
        x_workspace_id (str | Unset):
        body (BackupVerification):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Backup
    """

    return (
        await asyncio_detailed(
            backup_id=backup_id,
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
