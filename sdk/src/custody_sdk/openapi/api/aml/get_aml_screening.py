from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.aml_screening import AmlScreening
from ...types import UNSET, Response, Unset


def _get_kwargs(
    screening_id: UUID,
    *,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/aml/screenings/{screening_id}".format(
            screening_id=quote(str(screening_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AmlScreening | None:
    if response.status_code == 200:
        response_200 = AmlScreening.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AmlScreening]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    screening_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[AmlScreening]:
    """One AML screening

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    AML_SCREENING_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        screening_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AmlScreening]
    """

    kwargs = _get_kwargs(
        screening_id=screening_id,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    screening_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> AmlScreening | None:
    """One AML screening

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    AML_SCREENING_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        screening_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AmlScreening
    """

    return sync_detailed(
        screening_id=screening_id,
        client=client,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    screening_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[AmlScreening]:
    """One AML screening

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    AML_SCREENING_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        screening_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AmlScreening]
    """

    kwargs = _get_kwargs(
        screening_id=screening_id,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    screening_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> AmlScreening | None:
    """One AML screening

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    AML_SCREENING_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        screening_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AmlScreening
    """

    return (
        await asyncio_detailed(
            screening_id=screening_id,
            client=client,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
