from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.group import Group
from ...models.group_update import GroupUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    group_id: UUID,
    *,
    body: GroupUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/groups/{group_id}".format(
            group_id=quote(str(group_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Group | None:
    if response.status_code == 200:
        response_200 = Group.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Group]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    group_id: UUID,
    *,
    client: AuthenticatedClient,
    body: GroupUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Group]:
    """Rename a group or change its threshold (MANAGE_USERS; gated: Manage groups, update)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED; 404 GROUP_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND;
    409 GROUP_ALREADY_EXISTS, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        group_id (UUID):
        x_workspace_id (str | Unset):
        body (GroupUpdate | Unset): Rename, or change the threshold (absent keeps the value).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Group]
    """

    kwargs = _get_kwargs(
        group_id=group_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    group_id: UUID,
    *,
    client: AuthenticatedClient,
    body: GroupUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Group | None:
    """Rename a group or change its threshold (MANAGE_USERS; gated: Manage groups, update)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED; 404 GROUP_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND;
    409 GROUP_ALREADY_EXISTS, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        group_id (UUID):
        x_workspace_id (str | Unset):
        body (GroupUpdate | Unset): Rename, or change the threshold (absent keeps the value).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Group
    """

    return sync_detailed(
        group_id=group_id,
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    group_id: UUID,
    *,
    client: AuthenticatedClient,
    body: GroupUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Group]:
    """Rename a group or change its threshold (MANAGE_USERS; gated: Manage groups, update)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED; 404 GROUP_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND;
    409 GROUP_ALREADY_EXISTS, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        group_id (UUID):
        x_workspace_id (str | Unset):
        body (GroupUpdate | Unset): Rename, or change the threshold (absent keeps the value).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Group]
    """

    kwargs = _get_kwargs(
        group_id=group_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    group_id: UUID,
    *,
    client: AuthenticatedClient,
    body: GroupUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Group | None:
    """Rename a group or change its threshold (MANAGE_USERS; gated: Manage groups, update)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED; 404 GROUP_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND;
    409 GROUP_ALREADY_EXISTS, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        group_id (UUID):
        x_workspace_id (str | Unset):
        body (GroupUpdate | Unset): Rename, or change the threshold (absent keeps the value).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Group
    """

    return (
        await asyncio_detailed(
            group_id=group_id,
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
