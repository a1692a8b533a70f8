"""Server-side request forgery guard for webhook URLs.

A webhook URL makes this service send requests on a client's behalf, so it must never reach
the service's own network. A URL is accepted when:

- it is ``https://`` (``http://`` only for loopback targets while ``webhook_allow_loopback`` is
  on, i.e. development and tests), has a host, no user-info (``user:pass@``) and no fragment;
- *every* address its host resolves to is a public unicast address: not loopback, private
  (RFC 1918, IPv6 ULA), link-local, shared/CGNAT (100.64.0.0/10), multicast, unspecified,
  reserved/documentation, nor a cloud metadata endpoint (169.254.169.254, fd00:ec2::254, ...).
  IPv6 forms that embed an IPv4 address (IPv4-mapped and -compatible, NAT64, 6to4, Teredo) are
  judged by the IPv4 address they embed; site-local fec0::/10 is refused;
- the port is not 0, and the host is judged *after* IDNA normalization (``①②⑦.0.0.1`` is the IP
  literal 127.0.0.1).

The check runs when a webhook is created or its URL changes (an API error) and again at each
delivery (domain/webhooks/sender.py): the request goes to the normalized URL, names resolve
through a resolver that vets every answer, and every socket the delivery opens is checked
against its peer address before it connects, whatever the host was (no DNS rebinding, no
literal that slipped past a parser).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Iterable
from urllib.parse import urlsplit, urlunsplit

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
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215 local-use translation
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated ::a.b.c.d (:: and ::1 are judged as such first)
_SITE_LOCAL = ipaddress.ip_network("fec0::/10")
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
    #: The host is an IP address literal (no DNS involved), after IDNA normalization.
    ip_literal: bool
    #: The URL with the normalized host: what a delivery requests, so that the host the HTTP
    #: client connects to is the one judged here.
    normalized_url: str


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries: IPv4-mapped and -compatible, NAT64 (well-known
    and local-use prefixes), 6to4 and Teredo (its server and de-obfuscated client)."""
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)
    if ip in _NAT64 or ip in _NAT64_LOCAL or (ip in _IPV4_COMPATIBLE and int(ip) > 1):  # :: and ::1 are themselves
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    return []


def classify_address(ip: IPAddress) -> str | None:
    """Why ``ip`` is not a public unicast address (a category name), or None when it is.

    An IPv6 address that embeds an IPv4 address is judged by it: a route through a translator
    or tunnel ends there. Site-local fec0::/10 (deprecated, still routed inside some networks) is
    refused like a private range.
    """
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = embedded_ipv4(ip)
        if embedded:
            return next((c for c in map(classify_address, embedded) if c is not None), None)
        if ip in _SITE_LOCAL:
            return "private"
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
        given_port = parts.port
    except ValueError as exc:
        raise _invalid("has an invalid port") from exc
    # Port 0 is no port: never read it as "the default" (0 is falsy).
    if given_port == 0:
        raise _invalid("has an invalid port")
    port = given_port if given_port is not None else (443 if scheme == "https" else 80)
    host = _normalized_host(host)
    ip_literal = _is_ip(host)
    if not ip_literal and _NUMERIC_HOST.match(host):
        raise _invalid("numeric hosts must be written as a dotted IPv4 address")
    netloc = f"[{host}]" if ":" in host else host
    if given_port is not None:
        netloc += f":{port}"
    normalized = urlunsplit((scheme, netloc, parts.path, parts.query, ""))
    return WebhookTarget(url=url, scheme=scheme, host=host, port=port, ip_literal=ip_literal,
                         normalized_url=normalized)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _normalized_host(host: str) -> str:
    """The host as a resolver (and the HTTP client) reads it: IDNA-encoded, lowercase.

    Normalizing first matters: ``①②⑦.0.0.1`` or ``１２７．０．０．１`` become ``127.0.0.1``, an IP
    literal no DNS is asked about, and must be judged as one.
    """
    if _is_ip(host):
        return host.lower()
    try:
        encoded = host.encode("idna").decode("ascii").lower()
    except UnicodeError as exc:
        raise _invalid("has an invalid host name") from exc
    encoded = encoded.rstrip(".")
    if not encoded:
        raise _invalid("must name a host")
    return encoded


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
        addresses = [target.host] if target.ip_literal else await resolve(target.host, target.port)
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
