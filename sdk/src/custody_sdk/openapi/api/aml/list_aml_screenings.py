from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.aml_screening_page import AmlScreeningPage
from ...models.list_aml_screenings_direction import (
    ListAmlScreeningsDirection,
)
from ...models.list_aml_screenings_risk_level import (
    ListAmlScreeningsRiskLevel,
)
from ...models.list_aml_screenings_status import (
    ListAmlScreeningsStatus,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    direction: ListAmlScreeningsDirection | None | Unset = UNSET,
    risk_level: ListAmlScreeningsRiskLevel | None | Unset = UNSET,
    status: ListAmlScreeningsStatus | None | Unset = UNSET,
    transaction_id: None | Unset | UUID = UNSET,
    funds_frozen: bool | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    json_direction: None | str | Unset
    if isinstance(direction, Unset):
        json_direction = UNSET
    elif isinstance(direction, str):
        json_direction = direction
    else:
        json_direction = direction
    params["direction"] = json_direction

    json_risk_level: None | str | Unset
    if isinstance(risk_level, Unset):
        json_risk_level = UNSET
    elif isinstance(risk_level, str):
        json_risk_level = risk_level
    else:
        json_risk_level = risk_level
    params["risk_level"] = json_risk_level

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

    json_transaction_id: None | str | Unset
    if isinstance(transaction_id, Unset):
        json_transaction_id = UNSET
    elif isinstance(transaction_id, UUID):
        json_transaction_id = str(transaction_id)
    else:
        json_transaction_id = transaction_id
    params["transaction_id"] = json_transaction_id

    json_funds_frozen: bool | None | Unset
    if isinstance(funds_frozen, Unset):
        json_funds_frozen = UNSET
    else:
        json_funds_frozen = funds_frozen
    params["funds_frozen"] = json_funds_frozen

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/aml/screenings",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AmlScreeningPage | None:
    if response.status_code == 200:
        response_200 = AmlScreeningPage.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AmlScreeningPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    direction: ListAmlScreeningsDirection | None | Unset = UNSET,
    risk_level: ListAmlScreeningsRiskLevel | None | Unset = UNSET,
    status: ListAmlScreeningsStatus | None | Unset = UNSET,
    transaction_id: None | Unset | UUID = UNSET,
    funds_frozen: bool | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> Response[AmlScreeningPage]:
    """AML screenings of the workspace's transfers, newest first

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        direction (ListAmlScreeningsDirection | None | Unset):
        risk_level (ListAmlScreeningsRiskLevel | None | Unset):
        status (ListAmlScreeningsStatus | None | Unset):
        transaction_id (None | Unset | UUID):
        funds_frozen (bool | None | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AmlScreeningPage]
    """

    kwargs = _get_kwargs(
        direction=direction,
        risk_level=risk_level,
        status=status,
        transaction_id=transaction_id,
        funds_frozen=funds_frozen,
        limit=limit,
        offset=offset,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    direction: ListAmlScreeningsDirection | None | Unset = UNSET,
    risk_level: ListAmlScreeningsRiskLevel | None | Unset = UNSET,
    status: ListAmlScreeningsStatus | None | Unset = UNSET,
    transaction_id: None | Unset | UUID = UNSET,
    funds_frozen: bool | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> AmlScreeningPage | None:
    """AML screenings of the workspace's transfers, newest first

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        direction (ListAmlScreeningsDirection | None | Unset):
        risk_level (ListAmlScreeningsRiskLevel | None | Unset):
        status (ListAmlScreeningsStatus | None | Unset):
        transaction_id (None | Unset | UUID):
        funds_frozen (bool | None | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AmlScreeningPage
    """

    return sync_detailed(
        client=client,
        direction=direction,
        risk_level=risk_level,
        status=status,
        transaction_id=transaction_id,
        funds_frozen=funds_frozen,
        limit=limit,
        offset=offset,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    direction: ListAmlScreeningsDirection | None | Unset = UNSET,
    risk_level: ListAmlScreeningsRiskLevel | None | Unset = UNSET,
    status: ListAmlScreeningsStatus | None | Unset = UNSET,
    transaction_id: None | Unset | UUID = UNSET,
    funds_frozen: bool | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> Response[AmlScreeningPage]:
    """AML screenings of the workspace's transfers, newest first

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        direction (ListAmlScreeningsDirection | None | Unset):
        risk_level (ListAmlScreeningsRiskLevel | None | Unset):
        status (ListAmlScreeningsStatus | None | Unset):
        transaction_id (None | Unset | UUID):
        funds_frozen (bool | None | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AmlScreeningPage]
    """

    kwargs = _get_kwargs(
        direction=direction,
        risk_level=risk_level,
        status=status,
        transaction_id=transaction_id,
        funds_frozen=funds_frozen,
        limit=limit,
        offset=offset,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    direction: ListAmlScreeningsDirection | None | Unset = UNSET,
    risk_level: ListAmlScreeningsRiskLevel | None | Unset = UNSET,
    status: ListAmlScreeningsStatus | None | Unset = UNSET,
    transaction_id: None | Unset | UUID = UNSET,
    funds_frozen: bool | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> AmlScreeningPage | None:
    """AML screenings of the workspace's transfers, newest first

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        direction (ListAmlScreeningsDirection | None | Unset):
        risk_level (ListAmlScreeningsRiskLevel | None | Unset):
        status (ListAmlScreeningsStatus | None | Unset):
        transaction_id (None | Unset | UUID):
        funds_frozen (bool | None | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AmlScreeningPage
    """

    return (
        await asyncio_detailed(
            client=client,
            direction=direction,
            risk_level=risk_level,
            status=status,
            transaction_id=transaction_id,
            funds_frozen=funds_frozen,
            limit=limit,
            offset=offset,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
