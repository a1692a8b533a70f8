from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.group import Group
from ...models.group_create import GroupCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: GroupCreate,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/groups",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Group | None:
    if response.status_code == 201:
        response_201 = Group.from_dict(response.json())

        return response_201

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
    *,
    client: AuthenticatedClient,
    body: GroupCreate,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Group]:
    """Create a group of members (MANAGE_USERS; gated: Manage groups, create)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED; 404 USER_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    GROUP_ALREADY_EXISTS, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (GroupCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Group]
    """

    kwargs = _get_kwargs(
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: GroupCreate,
    x_workspace_id: str | Unset = UNSET,
) -> Group | None:
    """Create a group of members (MANAGE_USERS; gated: Manage groups, create)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED; 404 USER_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    GROUP_ALREADY_EXISTS, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (GroupCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Group
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: GroupCreate,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Group]:
    """Create a group of members (MANAGE_USERS; gated: Manage groups, create)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED; 404 USER_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    GROUP_ALREADY_EXISTS, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (GroupCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Group]
    """

    kwargs = _get_kwargs(
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: GroupCreate,
    x_workspace_id: str | Unset = UNSET,
) -> Group | None:
    """Create a group of members (MANAGE_USERS; gated: Manage groups, create)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED; 404 USER_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    GROUP_ALREADY_EXISTS, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (GroupCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Group
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
