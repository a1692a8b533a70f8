"""The SSRF guard: only public unicast addresses, judged after DNS resolution."""

from __future__ import annotations

import ipaddress

import pytest

from domain.errors import ValidationFailed
from domain.webhooks import url_guard as guard


@pytest.mark.parametrize("address, category", [
    ("127.0.0.1", "loopback"), ("127.8.9.10", "loopback"), ("::1", "loopback"),
    ("10.1.2.3", "private"), ("172.16.0.1", "private"), ("192.168.1.1", "private"), ("fd12:3456::1", "private"),
    ("169.254.1.1", "link_local"), ("fe80::1", "link_local"),
    ("100.64.0.1", "shared"), ("100.127.255.254", "shared"),
    ("224.0.0.1", "multicast"), ("239.1.1.1", "multicast"), ("ff02::1", "multicast"),
    ("0.0.0.0", "unspecified"), ("::", "unspecified"),
    ("169.254.169.254", "metadata"), ("fd00:ec2::254", "metadata"), ("168.63.129.16", "metadata"),
    ("100.100.100.200", "metadata"),
    ("192.0.2.10", "private"), ("240.0.0.1", "private"), ("198.18.0.1", "private"),
    # Embedded IPv4 forms are judged by the IPv4 address.
    ("::ffff:10.0.0.1", "private"), ("::ffff:127.0.0.1", "loopback"), ("64:ff9b::a9fe:a9fe", "metadata"),
    # ... 6to4 (2002:AABB:CCDD::), local-use NAT64, IPv4-compatible, Teredo (client XOR-obfuscated)
    ("2002:0a00:0001::1", "private"), ("2002:7f00:0001::1", "loopback"), ("2002:a9fe:a9fe::", "metadata"),
    ("64:ff9b:1::a00:1", "private"), ("::a00:1", "private"),
    ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "private"),  # Teredo client 10.0.0.1
    # Site-local fec0::/10 (deprecated, still routed inside some networks)
    ("fec0::1", "private"), ("feff::1", "private"),
    ("93.184.216.34", None), ("2606:4700::1111", None), ("8.8.8.8", None), ("::ffff:8.8.8.8", None),
])
def test_addresses_are_classified(address, category):
    assert guard.classify_address(ipaddress.ip_address(address)) == category


def test_loopback_is_allowed_only_by_the_setting_and_nothing_else_is():
    assert guard.refusal("127.0.0.1", allow_loopback=True) is None
    assert guard.refusal("127.0.0.1", allow_loopback=False) == "loopback"
    assert guard.refusal("10.0.0.1", allow_loopback=True) == "private"
    assert guard.refusal("169.254.169.254", allow_loopback=True) == "metadata"


def test_one_forbidden_address_refuses_the_whole_host():
    with pytest.raises(guard.AddressRefused) as refused:
        guard.check_addresses(["93.184.216.34", "10.0.0.7"], scheme="https", allow_loopback=False)
    assert refused.value.category == "private"


@pytest.mark.parametrize("url, reason", [
    ("", "is required"),
    ("ftp://example.com/x", "must be an https URL"),
    ("https://user:pw@example.com/", "must not contain credentials"),
    ("https://example.com/#frag", "must not contain a fragment"),
    ("https:///path", "must name a host"),
    ("https://example.com:99999/", "invalid port"),
    ("https://exa mple.com/", "spaces"),
    ("https://2130706433/", "numeric hosts"),
    ("https://127.1/", "numeric hosts"),
    ("https://0x7f.0.0.1/", "numeric hosts"),
    ("https://example.com:0/", "invalid port"),
    ("https://①②⑦.1/", "numeric hosts"),  # IDNA turns it into 127.1
    ("https://example.com/" + "a" * 2100, "at most 2048"),
])
def test_malformed_urls_are_refused_before_any_lookup(url, reason):
    with pytest.raises(ValidationFailed) as refused:
        guard.parse_url(url)
    assert refused.value.code == "INVALID_WEBHOOK_URL" and reason in refused.value.details["reason"]


async def test_names_are_judged_by_what_they_resolve_to(monkeypatch):
    answers = {"hooks.example.com": ["93.184.216.34"], "internal.example.com": ["10.0.0.8"],
               "mixed.example.com": ["93.184.216.34", "169.254.169.254"]}

    async def fake_resolve(host, port):
        return answers[host]

    monkeypatch.setattr(guard, "resolve", fake_resolve)
    target = await guard.vet_url("https://hooks.example.com/in", allow_loopback=False)
    assert (target.host, target.port, target.ip_literal) == ("hooks.example.com", 443, False)
    for host, reason in (("internal.example.com", "resolves to a private address"),
                         ("mixed.example.com", "resolves to a metadata address")):
        with pytest.raises(ValidationFailed) as refused:
            await guard.vet_url(f"https://{host}/in", allow_loopback=True)
        assert refused.value.code == "WEBHOOK_URL_FORBIDDEN" and refused.value.details["reason"] == reason
        # The answer never reveals the internal address.
        assert "10.0.0.8" not in refused.value.message and "169.254" not in refused.value.message


async def test_localhost_and_plain_http(monkeypatch):
    # localhost resolves through the system resolver to loopback
    with pytest.raises(ValidationFailed) as refused:
        await guard.vet_url("https://localhost:8443/", allow_loopback=False)
    assert refused.value.code == "WEBHOOK_URL_FORBIDDEN"
    assert (await guard.vet_url("http://localhost:8080/", allow_loopback=True)).scheme == "http"
    # Plain http is for loopback in development only.
    with pytest.raises(ValidationFailed) as insecure:
        await guard.vet_url("http://93.184.216.34/", allow_loopback=True)
    assert insecure.value.code == "INVALID_WEBHOOK_URL" and "https" in insecure.value.details["reason"]


async def test_a_name_that_does_not_resolve_is_refused(monkeypatch):
    async def failing(host, port):
        raise OSError("Name or service not known")

    monkeypatch.setattr(guard, "resolve", failing)
    with pytest.raises(ValidationFailed) as refused:
        await guard.vet_url("https://nowhere.example/", allow_loopback=False)
    assert refused.value.code == "WEBHOOK_URL_UNRESOLVABLE"


@pytest.mark.parametrize("url, host", [
    ("https://①②⑦.0.0.1/hook", "127.0.0.1"),  # enclosed digits
    ("https://１２７．０．０．１/hook", "127.0.0.1"),  # fullwidth digits and full stops
    ("https://127。0。0。1:8443/hook", "127.0.0.1"),  # ideographic full stops
])
def test_ip_literals_are_recognized_after_idna_normalization(url, host):
    target = guard.parse_url(url)
    assert (target.host, target.ip_literal) == (host, True)
    assert target.normalized_url.startswith(f"https://{host}")


async def test_an_idna_ip_literal_is_judged_without_dns(monkeypatch):
    async def no_dns(host, port):
        raise AssertionError(f"{host} is an IP literal: no lookup")

    monkeypatch.setattr(guard, "resolve", no_dns)
    with pytest.raises(ValidationFailed) as refused:
        await guard.vet_url("https://①②⑦.0.0.1/", allow_loopback=False)
    assert refused.value.code == "WEBHOOK_URL_FORBIDDEN" and "loopback" in refused.value.details["reason"]
