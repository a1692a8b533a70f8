from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.all_tags import AllTags
from ...models.all_tags_order_by import AllTagsOrderBy
from ...models.all_tags_order_dir import AllTagsOrderDir
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    order_by: AllTagsOrderBy | Unset = "label",
    order_dir: AllTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    json_order_by: str | Unset = UNSET
    if not isinstance(order_by, Unset):
        json_order_by = order_by

    params["order_by"] = json_order_by

    json_order_dir: str | Unset = UNSET
    if not isinstance(order_dir, Unset):
        json_order_dir = order_dir

    params["order_dir"] = json_order_dir

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/tags-list",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AllTags | None:
    if response.status_code == 200:
        response_200 = AllTags.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AllTags]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    order_by: AllTagsOrderBy | Unset = "label",
    order_dir: AllTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> Response[AllTags]:
    """Every tag of the workspace, no filter, no paging (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        order_by (AllTagsOrderBy | Unset):  Default: 'label'.
        order_dir (AllTagsOrderDir | Unset):  Default: 'asc'.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AllTags]
    """

    kwargs = _get_kwargs(
        order_by=order_by,
        order_dir=order_dir,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    order_by: AllTagsOrderBy | Unset = "label",
    order_dir: AllTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> AllTags | None:
    """Every tag of the workspace, no filter, no paging (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        order_by (AllTagsOrderBy | Unset):  Default: 'label'.
        order_dir (AllTagsOrderDir | Unset):  Default: 'asc'.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AllTags
    """

    return sync_detailed(
        client=client,
        order_by=order_by,
        order_dir=order_dir,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    order_by: AllTagsOrderBy | Unset = "label",
    order_dir: AllTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> Response[AllTags]:
    """Every tag of the workspace, no filter, no paging (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        order_by (AllTagsOrderBy | Unset):  Default: 'label'.
        order_dir (AllTagsOrderDir | Unset):  Default: 'asc'.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AllTags]
    """

    kwargs = _get_kwargs(
        order_by=order_by,
        order_dir=order_dir,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    order_by: AllTagsOrderBy | Unset = "label",
    order_dir: AllTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> AllTags | None:
    """Every tag of the workspace, no filter, no paging (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        order_by (AllTagsOrderBy | Unset):  Default: 'label'.
        order_dir (AllTagsOrderDir | Unset):  Default: 'asc'.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AllTags
    """

    return (
        await asyncio_detailed(
            client=client,
            order_by=order_by,
            order_dir=order_dir,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
