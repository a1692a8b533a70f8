from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.company_application import CompanyApplication
from ...models.company_application_submit import CompanyApplicationSubmit
from ...types import Response


def _get_kwargs(
    *,
    body: CompanyApplicationSubmit,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/company/application",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CompanyApplication | None:
    if response.status_code == 202:
        response_202 = CompanyApplication.from_dict(response.json())

        return response_202

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CompanyApplication]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CompanyApplicationSubmit,
) -> Response[CompanyApplication]:
    """Apply to become a client; queued for review

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (CompanyApplicationSubmit):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompanyApplication]
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
    body: CompanyApplicationSubmit,
) -> CompanyApplication | None:
    """Apply to become a client; queued for review

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (CompanyApplicationSubmit):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompanyApplication
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CompanyApplicationSubmit,
) -> Response[CompanyApplication]:
    """Apply to become a client; queued for review

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (CompanyApplicationSubmit):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompanyApplication]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CompanyApplicationSubmit,
) -> CompanyApplication | None:
    """Apply to become a client; queued for review

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (CompanyApplicationSubmit):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompanyApplication
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
