"""Server-side request forgery guard for webhook URLs.

A webhook URL makes this service send requests on a client's behalf, so it must never reach
the service's own network. A URL is accepted when:

- it is ``https://`` (``http://`` only for loopback targets while ``webhook_allow_loopback`` is
  on, i.e. development and tests), has a host, no user-info (``user:pass@``) and no fragment;
- *every* address its host resolves to is a public unicast address: not loopback, private
  (RFC 1918, IPv6 ULA), link-local, shared/CGNAT (100.64.0.0/10), multicast, unspecified,
  reserved/documentation, nor a cloud metadata endpoint (169.254.169.254, fd00:ec2::254, ...).
  IPv4-mapped and NAT64 IPv6 forms are judged by the IPv4 address they embed.

The check runs when a webhook is created or its URL changes (an API error) and again at each
delivery, where the HTTP client connects only to the addresses just vetted (no second DNS
lookup an attacker could answer differently: DNS rebinding).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Iterable
from urllib.parse import urlsplit

from domain.errors import ValidationFailed

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_URL_LENGTH = 2048
DNS_TIMEOUT_SECONDS = 5.0

INVALID_URL = "INVALID_WEBHOOK_URL"
FORBIDDEN_URL = "WEBHOOK_URL_FORBIDDEN"
UNRESOLVABLE_URL = "WEBHOOK_URL_UNRESOLVABLE"

#: Instance metadata services. Most also fall in a forbidden range; Azure's does not.
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "168.63.129.16", "100.100.100.200")
)
_SHARED_ADDRESS_SPACE = ipaddress.ip_network("100.64.0.0/10")  # RFC 6598 carrier-grade NAT
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
# Numeric host forms that resolvers read as IPv4 (127.1, 2130706433, 0x7f.0.0.1).
_NUMERIC_HOST = re.compile(r"^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+)){0,3}\.?$")


class AddressRefused(OSError):
    """A host resolved to an address webhooks may not reach. An ``OSError`` so that an HTTP
    client's resolver can raise it; ``category`` says why (``private``, ``loopback``, ...)."""

    def __init__(self, category: str, address: str) -> None:
        if category == "insecure_scheme":
            message = "refused: plain http is allowed only for loopback targets in development; use https"
        else:
            message = f"refused: the host {describe(category)}"
        super().__init__(message)
        self.category = category
        self.address = address


def describe(category: str) -> str:
    """``resolves to a private address`` and the like, for errors."""
    if category == "unresolvable":
        return "resolves to no address"
    label = category.replace("_", "-" if category == "link_local" else " ")
    article = "an" if label[0] in "aeiou" else "a"
    return f"resolves to {article} {label} address"


@dataclass(frozen=True)
class WebhookTarget:
    """A syntactically valid webhook URL, split into what the guard needs."""

    url: str
    scheme: str
    host: str
    port: int
    #: The host is an IP address literal (no DNS involved).
    ip_literal: bool


def classify_address(ip: IPAddress) -> str | None:
    """Why ``ip`` is not a public unicast address (a category name), or None when it is."""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return classify_address(ip.ipv4_mapped)
        if ip in _NAT64:
            return classify_address(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip in METADATA_ADDRESSES:
        return "metadata"
    if ip.is_unspecified:
        return "unspecified"
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link_local"
    if ip.is_multicast:
        return "multicast"
    if isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED_ADDRESS_SPACE:
        return "shared"
    if ip.is_private:
        return "private"
    if ip.is_reserved or not ip.is_global:
        return "reserved"
    return None


def refusal(address: str | IPAddress, *, allow_loopback: bool) -> str | None:
    """The category that forbids ``address`` (None: allowed). Loopback passes when allowed."""
    ip = ipaddress.ip_address(address.split("%", 1)[0] if isinstance(address, str) else address)
    category = classify_address(ip)
    if category == "loopback" and allow_loopback:
        return None
    return category


def check_addresses(addresses: Iterable[str], *, scheme: str, allow_loopback: bool) -> list[str]:
    """Return ``addresses`` if every one may be reached over ``scheme``; else raise AddressRefused.

    One forbidden address refuses the whole host: a resolver answering a public and a private
    address must not get the private one connected to.
    """
    vetted = list(addresses)
    if not vetted:
        raise AddressRefused("unresolvable", "")
    for address in vetted:
        category = refusal(address, allow_loopback=allow_loopback)
        if category is not None:
            raise AddressRefused(category, address)
    if scheme == "http" and not all(refusal(a, allow_loopback=False) == "loopback" for a in vetted):
        raise AddressRefused("insecure_scheme", vetted[0])
    return vetted


def _invalid(reason: str) -> ValidationFailed:
    return ValidationFailed(f"url: {reason}", code=INVALID_URL, details={"field": "url", "reason": reason})


def parse_url(raw: object) -> WebhookTarget:
    """Check the URL's syntax (no DNS); raise a 400 INVALID_WEBHOOK_URL naming the problem."""
    if not isinstance(raw, str) or not raw.strip():
        raise _invalid("is required")
    url = raw.strip()
    if len(url) > MAX_URL_LENGTH:
        raise _invalid(f"must be at most {MAX_URL_LENGTH} characters")
    if any(ord(c) < 0x21 or ord(c) == 0x7F for c in url):
        raise _invalid("must not contain spaces or control characters")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise _invalid("must be an https URL")
    if parts.username is not None or parts.password is not None:
        raise _invalid("must not contain credentials; verify the webhook signature instead")
    if parts.fragment:
        raise _invalid("must not contain a fragment")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise _invalid("must name a host")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:
        raise _invalid("has an invalid port") from exc
    if port == 0:
        raise _invalid("has an invalid port")
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if ip is None:
        if _NUMERIC_HOST.match(host):
            raise _invalid("numeric hosts must be written as a dotted IPv4 address")
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise _invalid("has an invalid host name") from exc
    return WebhookTarget(url=url, scheme=scheme, host=host, port=port, ip_literal=ip is not None)


async def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (IP literals resolve to themselves)."""
    try:
        ipaddress.ip_address(host)
        return [host]
    except ValueError:
        pass
    loop = asyncio.get_running_loop()
    infos = await asyncio.wait_for(
        loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), timeout=DNS_TIMEOUT_SECONDS
    )
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


async def vet_url(raw: object, *, allow_loopback: bool) -> WebhookTarget:
    """Parse ``raw`` and check every address it resolves to; 400 with a stable code otherwise.

    The answer names the kind of address (``details.reason``) but never the address itself, so
    the check does not reveal the service's internal DNS.
    """
    target = parse_url(raw)
    try:
        addresses = await resolve(target.host, target.port)
    except (OSError, asyncio.TimeoutError, UnicodeError) as exc:
        raise ValidationFailed("url: the host name does not resolve", code=UNRESOLVABLE_URL,
                               details={"field": "url", "reason": "does not resolve"}) from exc
    try:
        check_addresses(addresses, scheme=target.scheme, allow_loopback=allow_loopback)
    except AddressRefused as exc:
        if exc.category == "insecure_scheme":
            raise _invalid("must be an https URL (http is accepted only for loopback in development)") from exc
        reason = describe(exc.category)
        raise ValidationFailed(f"url: {reason}; webhooks may only target public addresses",
                               code=FORBIDDEN_URL, details={"field": "url", "reason": reason}) from exc
    return target
