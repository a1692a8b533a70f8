from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.invitation_accept import InvitationAccept
from ...models.invitation_accepted import InvitationAccepted
from ...types import Response


def _get_kwargs(
    *,
    body: InvitationAccept,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/users/invitations/accept",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> InvitationAccepted | None:
    if response.status_code == 200:
        response_200 = InvitationAccepted.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[InvitationAccepted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: InvitationAccept,
) -> Response[InvitationAccepted]:
    """The invited person accepts with the emailed token (no bearer); answers a pairing token

     The owner of a new workspace gets an owner enrollment secret instead (pairing.kind
    owner_enrollment): the operator confirms the device it registers (docs/users.md).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVITATION_INVALID,
    MALFORMED_JSON, VALIDATION_ERROR; 409 OWNER_EXISTS, USER_ALREADY_MEMBER; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (InvitationAccept):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InvitationAccepted]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: InvitationAccept,
) -> InvitationAccepted | None:
    """The invited person accepts with the emailed token (no bearer); answers a pairing token

     The owner of a new workspace gets an owner enrollment secret instead (pairing.kind
    owner_enrollment): the operator confirms the device it registers (docs/users.md).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVITATION_INVALID,
    MALFORMED_JSON, VALIDATION_ERROR; 409 OWNER_EXISTS, USER_ALREADY_MEMBER; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (InvitationAccept):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InvitationAccepted
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: InvitationAccept,
) -> Response[InvitationAccepted]:
    """The invited person accepts with the emailed token (no bearer); answers a pairing token

     The owner of a new workspace gets an owner enrollment secret instead (pairing.kind
    owner_enrollment): the operator confirms the device it registers (docs/users.md).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVITATION_INVALID,
    MALFORMED_JSON, VALIDATION_ERROR; 409 OWNER_EXISTS, USER_ALREADY_MEMBER; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (InvitationAccept):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InvitationAccepted]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: InvitationAccept,
) -> InvitationAccepted | None:
    """The invited person accepts with the emailed token (no bearer); answers a pairing token

     The owner of a new workspace gets an owner enrollment secret instead (pairing.kind
    owner_enrollment): the operator confirms the device it registers (docs/users.md).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVITATION_INVALID,
    MALFORMED_JSON, VALIDATION_ERROR; 409 OWNER_EXISTS, USER_ALREADY_MEMBER; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (InvitationAccept):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InvitationAccepted
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
