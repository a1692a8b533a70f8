from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.owner_enrollment_cancel import OwnerEnrollmentCancel
from ...models.owner_enrollment_cancelled import OwnerEnrollmentCancelled
from ...types import Response


def _get_kwargs(
    *,
    body: OwnerEnrollmentCancel,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/auth/devices/owner-enrollment/cancel",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> OwnerEnrollmentCancelled | None:
    if response.status_code == 200:
        response_200 = OwnerEnrollmentCancelled.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[OwnerEnrollmentCancelled]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: OwnerEnrollmentCancel,
) -> Response[OwnerEnrollmentCancelled]:
    """Owner, from the paired device: end pending enrollments of an owner device (a recovery you did not
    ask for)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 DEVICE_REQUIRED, PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (OwnerEnrollmentCancel):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OwnerEnrollmentCancelled]
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
    client: AuthenticatedClient,
    body: OwnerEnrollmentCancel,
) -> OwnerEnrollmentCancelled | None:
    """Owner, from the paired device: end pending enrollments of an owner device (a recovery you did not
    ask for)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 DEVICE_REQUIRED, PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (OwnerEnrollmentCancel):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OwnerEnrollmentCancelled
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: OwnerEnrollmentCancel,
) -> Response[OwnerEnrollmentCancelled]:
    """Owner, from the paired device: end pending enrollments of an owner device (a recovery you did not
    ask for)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 DEVICE_REQUIRED, PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (OwnerEnrollmentCancel):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OwnerEnrollmentCancelled]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: OwnerEnrollmentCancel,
) -> OwnerEnrollmentCancelled | None:
    """Owner, from the paired device: end pending enrollments of an owner device (a recovery you did not
    ask for)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 DEVICE_REQUIRED, PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (OwnerEnrollmentCancel):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OwnerEnrollmentCancelled
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
