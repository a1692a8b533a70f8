from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_tags_order_by import ListTagsOrderBy
from ...models.list_tags_order_dir import ListTagsOrderDir
from ...models.tag_list import TagList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    is_protected: bool | None | Unset = UNSET,
    label: None | str | Unset = UNSET,
    tag_ids: list[UUID] | None | Unset = UNSET,
    order_by: ListTagsOrderBy | Unset = "label",
    order_dir: ListTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_is_protected: bool | None | Unset
    if isinstance(is_protected, Unset):
        json_is_protected = UNSET
    else:
        json_is_protected = is_protected
    params["is_protected"] = json_is_protected

    json_label: None | str | Unset
    if isinstance(label, Unset):
        json_label = UNSET
    else:
        json_label = label
    params["label"] = json_label

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
        "url": "/api/v1/tags",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> TagList | None:
    if response.status_code == 200:
        response_200 = TagList.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[TagList]:
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
    is_protected: bool | None | Unset = UNSET,
    label: None | str | Unset = UNSET,
    tag_ids: list[UUID] | None | Unset = UNSET,
    order_by: ListTagsOrderBy | Unset = "label",
    order_dir: ListTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> Response[TagList]:
    """A page of the workspace's tags, each with its newest vaults and vaults_total (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        is_protected (bool | None | Unset):
        label (None | str | Unset):
        tag_ids (list[UUID] | None | Unset):
        order_by (ListTagsOrderBy | Unset):  Default: 'label'.
        order_dir (ListTagsOrderDir | Unset):  Default: 'asc'.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[TagList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        is_protected=is_protected,
        label=label,
        tag_ids=tag_ids,
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
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    is_protected: bool | None | Unset = UNSET,
    label: None | str | Unset = UNSET,
    tag_ids: list[UUID] | None | Unset = UNSET,
    order_by: ListTagsOrderBy | Unset = "label",
    order_dir: ListTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> TagList | None:
    """A page of the workspace's tags, each with its newest vaults and vaults_total (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        is_protected (bool | None | Unset):
        label (None | str | Unset):
        tag_ids (list[UUID] | None | Unset):
        order_by (ListTagsOrderBy | Unset):  Default: 'label'.
        order_dir (ListTagsOrderDir | Unset):  Default: 'asc'.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        TagList
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        is_protected=is_protected,
        label=label,
        tag_ids=tag_ids,
        order_by=order_by,
        order_dir=order_dir,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    is_protected: bool | None | Unset = UNSET,
    label: None | str | Unset = UNSET,
    tag_ids: list[UUID] | None | Unset = UNSET,
    order_by: ListTagsOrderBy | Unset = "label",
    order_dir: ListTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> Response[TagList]:
    """A page of the workspace's tags, each with its newest vaults and vaults_total (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        is_protected (bool | None | Unset):
        label (None | str | Unset):
        tag_ids (list[UUID] | None | Unset):
        order_by (ListTagsOrderBy | Unset):  Default: 'label'.
        order_dir (ListTagsOrderDir | Unset):  Default: 'asc'.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[TagList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        is_protected=is_protected,
        label=label,
        tag_ids=tag_ids,
        order_by=order_by,
        order_dir=order_dir,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    is_protected: bool | None | Unset = UNSET,
    label: None | str | Unset = UNSET,
    tag_ids: list[UUID] | None | Unset = UNSET,
    order_by: ListTagsOrderBy | Unset = "label",
    order_dir: ListTagsOrderDir | Unset = "asc",
    x_workspace_id: str | Unset = UNSET,
) -> TagList | None:
    """A page of the workspace's tags, each with its newest vaults and vaults_total (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        is_protected (bool | None | Unset):
        label (None | str | Unset):
        tag_ids (list[UUID] | None | Unset):
        order_by (ListTagsOrderBy | Unset):  Default: 'label'.
        order_dir (ListTagsOrderDir | Unset):  Default: 'asc'.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        TagList
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            is_protected=is_protected,
            label=label,
            tag_ids=tag_ids,
            order_by=order_by,
            order_dir=order_dir,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
