from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...types import UNSET, Response, Unset


def _get_kwargs(
    user_id: UUID,
    *,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/users/{user_id}".format(
            user_id=quote(str(user_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | None:
    if response.status_code == 204:
        return None

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Any]:
    """Remove a user from the workspace (MANAGE_USERS); their devices there are revoked

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, ROLE_NOT_GRANTABLE; 404 NOT_FOUND, USER_NOT_FOUND, WORKSPACE_NOT_FOUND;
    409 CANNOT_REMOVE_OWNER, CANNOT_REMOVE_SELF, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE;
    503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        user_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


async def asyncio_detailed(
    user_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Any]:
    """Remove a user from the workspace (MANAGE_USERS); their devices there are revoked

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, ROLE_NOT_GRANTABLE; 404 NOT_FOUND, USER_NOT_FOUND, WORKSPACE_NOT_FOUND;
    409 CANNOT_REMOVE_OWNER, CANNOT_REMOVE_SELF, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE;
    503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        user_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)
