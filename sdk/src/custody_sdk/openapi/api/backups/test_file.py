from http import HTTPStatus
from io import BytesIO
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...types import UNSET, File, Response


def _get_kwargs(
    *,
    public_key: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["public_key"] = public_key

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/backup/test-file",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> File | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[File]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    public_key: str,
) -> Response[File]:
    """A small file sealed to ?public_key=: decrypting it proves the private key works

     Takes no workspace header: any caller who may manage backups in one of its workspaces.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_BACKUP_PUBLIC_KEY,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 413 PAYLOAD_TOO_LARGE.

    Args:
        public_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File]
    """

    kwargs = _get_kwargs(
        public_key=public_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    public_key: str,
) -> File | None:
    """A small file sealed to ?public_key=: decrypting it proves the private key works

     Takes no workspace header: any caller who may manage backups in one of its workspaces.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_BACKUP_PUBLIC_KEY,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 413 PAYLOAD_TOO_LARGE.

    Args:
        public_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File
    """

    return sync_detailed(
        client=client,
        public_key=public_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    public_key: str,
) -> Response[File]:
    """A small file sealed to ?public_key=: decrypting it proves the private key works

     Takes no workspace header: any caller who may manage backups in one of its workspaces.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_BACKUP_PUBLIC_KEY,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 413 PAYLOAD_TOO_LARGE.

    Args:
        public_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File]
    """

    kwargs = _get_kwargs(
        public_key=public_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    public_key: str,
) -> File | None:
    """A small file sealed to ?public_key=: decrypting it proves the private key works

     Takes no workspace header: any caller who may manage backups in one of its workspaces.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_BACKUP_PUBLIC_KEY,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 413 PAYLOAD_TOO_LARGE.

    Args:
        public_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File
    """

    return (
        await asyncio_detailed(
            client=client,
            public_key=public_key,
        )
    ).parsed
