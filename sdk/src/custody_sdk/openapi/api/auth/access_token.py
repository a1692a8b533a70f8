from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.access_token import AccessToken
from ...models.token_request import TokenRequest
from ...types import Response


def _get_kwargs(
    *,
    body: TokenRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/auth/access-token",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AccessToken | None:
    if response.status_code == 200:
        response_200 = AccessToken.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AccessToken]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TokenRequest,
) -> Response[AccessToken]:
    """Exchange a signed payload for an access token

     Body: data (the JSON payload {client_type: device|user, client_id, timestamp (unix seconds, within 5
    minutes of server time), nonce (8-128 chars, once per client)} as a string) and signature (base64
    Ed25519 signature of the exact bytes of data). The signature is verified before the timestamp and
    the nonce; an unknown client and a bad signature get the same 401 INVALID_CREDENTIALS. A malformed
    payload inside data is 400 INVALID_TOKEN_REQUEST naming data.<field>.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_TOKEN_REQUEST,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_CREDENTIALS, NONCE_REUSED, TIMESTAMP_OUT_OF_RANGE; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (TokenRequest): A signed token request. ``data`` is kept byte for byte (it is what
            was signed); its inner
            fields are checked by the service, which answers 400 INVALID_TOKEN_REQUEST naming
            ``data.<field>``. A ``data`` or ``signature`` that is not a string (or is too long) is an
            INVALID_TOKEN_REQUEST too; only a missing or unknown field is a VALIDATION_ERROR.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccessToken]
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
    body: TokenRequest,
) -> AccessToken | None:
    """Exchange a signed payload for an access token

     Body: data (the JSON payload {client_type: device|user, client_id, timestamp (unix seconds, within 5
    minutes of server time), nonce (8-128 chars, once per client)} as a string) and signature (base64
    Ed25519 signature of the exact bytes of data). The signature is verified before the timestamp and
    the nonce; an unknown client and a bad signature get the same 401 INVALID_CREDENTIALS. A malformed
    payload inside data is 400 INVALID_TOKEN_REQUEST naming data.<field>.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_TOKEN_REQUEST,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_CREDENTIALS, NONCE_REUSED, TIMESTAMP_OUT_OF_RANGE; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (TokenRequest): A signed token request. ``data`` is kept byte for byte (it is what
            was signed); its inner
            fields are checked by the service, which answers 400 INVALID_TOKEN_REQUEST naming
            ``data.<field>``. A ``data`` or ``signature`` that is not a string (or is too long) is an
            INVALID_TOKEN_REQUEST too; only a missing or unknown field is a VALIDATION_ERROR.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccessToken
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TokenRequest,
) -> Response[AccessToken]:
    """Exchange a signed payload for an access token

     Body: data (the JSON payload {client_type: device|user, client_id, timestamp (unix seconds, within 5
    minutes of server time), nonce (8-128 chars, once per client)} as a string) and signature (base64
    Ed25519 signature of the exact bytes of data). The signature is verified before the timestamp and
    the nonce; an unknown client and a bad signature get the same 401 INVALID_CREDENTIALS. A malformed
    payload inside data is 400 INVALID_TOKEN_REQUEST naming data.<field>.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_TOKEN_REQUEST,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_CREDENTIALS, NONCE_REUSED, TIMESTAMP_OUT_OF_RANGE; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (TokenRequest): A signed token request. ``data`` is kept byte for byte (it is what
            was signed); its inner
            fields are checked by the service, which answers 400 INVALID_TOKEN_REQUEST naming
            ``data.<field>``. A ``data`` or ``signature`` that is not a string (or is too long) is an
            INVALID_TOKEN_REQUEST too; only a missing or unknown field is a VALIDATION_ERROR.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccessToken]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: TokenRequest,
) -> AccessToken | None:
    """Exchange a signed payload for an access token

     Body: data (the JSON payload {client_type: device|user, client_id, timestamp (unix seconds, within 5
    minutes of server time), nonce (8-128 chars, once per client)} as a string) and signature (base64
    Ed25519 signature of the exact bytes of data). The signature is verified before the timestamp and
    the nonce; an unknown client and a bad signature get the same 401 INVALID_CREDENTIALS. A malformed
    payload inside data is 400 INVALID_TOKEN_REQUEST naming data.<field>.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_TOKEN_REQUEST,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_CREDENTIALS, NONCE_REUSED, TIMESTAMP_OUT_OF_RANGE; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (TokenRequest): A signed token request. ``data`` is kept byte for byte (it is what
            was signed); its inner
            fields are checked by the service, which answers 400 INVALID_TOKEN_REQUEST naming
            ``data.<field>``. A ``data`` or ``signature`` that is not a string (or is too long) is an
            INVALID_TOKEN_REQUEST too; only a missing or unknown field is a VALIDATION_ERROR.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccessToken
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
