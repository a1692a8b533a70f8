from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_vaults_tag_match_mode import (
    ListVaultsTagMatchMode,
)
from ...models.vault_list import VaultList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    tag_ids: list[UUID] | None | Unset = UNSET,
    tag_match_mode: ListVaultsTagMatchMode | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_tag_ids: list[str] | None | Unset
    if isinstance(tag_ids, Unset):
        json_tag_ids = UNSET
    elif isinstance(tag_ids, list):
        json_tag_ids = []
        for tag_ids_type_0_item_data in tag_ids:
            tag_ids_type_0_item = str(tag_ids_type_0_item_data)
            json_tag_ids.append(tag_ids_type_0_item)

    else:
        json_tag_ids = tag_ids
    params["tag_ids"] = json_tag_ids

    json_tag_match_mode: None | str | Unset
    if isinstance(tag_match_mode, Unset):
        json_tag_match_mode = UNSET
    elif isinstance(tag_match_mode, str):
        json_tag_match_mode = tag_match_mode
    else:
        json_tag_match_mode = tag_match_mode
    params["tag_match_mode"] = json_tag_match_mode

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/vault/accounts",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> VaultList | None:
    if response.status_code == 200:
        response_200 = VaultList.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[VaultList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    tag_ids: list[UUID] | None | Unset = UNSET,
    tag_match_mode: ListVaultsTagMatchMode | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[VaultList]:
    """Vaults of the workspace, oldest first, with their tags (VIEW_WORKSPACE); same as GET /vault

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        tag_ids (list[UUID] | None | Unset):
        tag_match_mode (ListVaultsTagMatchMode | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[VaultList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        tag_ids=tag_ids,
        tag_match_mode=tag_match_mode,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    tag_ids: list[UUID] | None | Unset = UNSET,
    tag_match_mode: ListVaultsTagMatchMode | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> VaultList | None:
    """Vaults of the workspace, oldest first, with their tags (VIEW_WORKSPACE); same as GET /vault

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        tag_ids (list[UUID] | None | Unset):
        tag_match_mode (ListVaultsTagMatchMode | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        VaultList
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        tag_ids=tag_ids,
        tag_match_mode=tag_match_mode,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    tag_ids: list[UUID] | None | Unset = UNSET,
    tag_match_mode: ListVaultsTagMatchMode | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[VaultList]:
    """Vaults of the workspace, oldest first, with their tags (VIEW_WORKSPACE); same as GET /vault

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        tag_ids (list[UUID] | None | Unset):
        tag_match_mode (ListVaultsTagMatchMode | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[VaultList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        tag_ids=tag_ids,
        tag_match_mode=tag_match_mode,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    tag_ids: list[UUID] | None | Unset = UNSET,
    tag_match_mode: ListVaultsTagMatchMode | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> VaultList | None:
    """Vaults of the workspace, oldest first, with their tags (VIEW_WORKSPACE); same as GET /vault

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        tag_ids (list[UUID] | None | Unset):
        tag_match_mode (ListVaultsTagMatchMode | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        VaultList
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            tag_ids=tag_ids,
            tag_match_mode=tag_match_mode,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
