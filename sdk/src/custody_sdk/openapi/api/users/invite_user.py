from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.invitation import Invitation
from ...models.user_add import UserAdd
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: UserAdd,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/users",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Invitation | None:
    if response.status_code == 201:
        response_201 = Invitation.from_dict(response.json())

        return response_201

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Invitation]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: UserAdd,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Invitation]:
    """Invite a person by email to a role (MANAGE_USERS); they accept with the emailed token

     Nobody is enrolled until the person accepts. The answer holds only what was sent and the
    invitation's own state: nothing is revealed about whoever the address belongs to.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED, ROLE_NOT_GRANTABLE; 404 WORKSPACE_NOT_FOUND; 409
    INVITATION_PENDING, QUORUM_NO_ELIGIBLE_APPROVERS, USER_ALREADY_MEMBER; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (UserAdd): An invitation: the secret goes to ``email``; the answer echoes only what
            was sent.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Invitation]
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
    body: UserAdd,
    x_workspace_id: str | Unset = UNSET,
) -> Invitation | None:
    """Invite a person by email to a role (MANAGE_USERS); they accept with the emailed token

     Nobody is enrolled until the person accepts. The answer holds only what was sent and the
    invitation's own state: nothing is revealed about whoever the address belongs to.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED, ROLE_NOT_GRANTABLE; 404 WORKSPACE_NOT_FOUND; 409
    INVITATION_PENDING, QUORUM_NO_ELIGIBLE_APPROVERS, USER_ALREADY_MEMBER; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (UserAdd): An invitation: the secret goes to ``email``; the answer echoes only what
            was sent.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Invitation
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: UserAdd,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Invitation]:
    """Invite a person by email to a role (MANAGE_USERS); they accept with the emailed token

     Nobody is enrolled until the person accepts. The answer holds only what was sent and the
    invitation's own state: nothing is revealed about whoever the address belongs to.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED, ROLE_NOT_GRANTABLE; 404 WORKSPACE_NOT_FOUND; 409
    INVITATION_PENDING, QUORUM_NO_ELIGIBLE_APPROVERS, USER_ALREADY_MEMBER; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (UserAdd): An invitation: the secret goes to ``email``; the answer echoes only what
            was sent.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Invitation]
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
    body: UserAdd,
    x_workspace_id: str | Unset = UNSET,
) -> Invitation | None:
    """Invite a person by email to a role (MANAGE_USERS); they accept with the emailed token

     Nobody is enrolled until the person accepts. The answer holds only what was sent and the
    invitation's own state: nothing is revealed about whoever the address belongs to.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED, QUORUM_APPROVAL_REQUIRED, ROLE_NOT_GRANTABLE; 404 WORKSPACE_NOT_FOUND; 409
    INVITATION_PENDING, QUORUM_NO_ELIGIBLE_APPROVERS, USER_ALREADY_MEMBER; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (UserAdd): An invitation: the secret goes to ``email``; the answer echoes only what
            was sent.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Invitation
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
