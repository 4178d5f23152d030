"""Who is on the other end: the client a trusted reverse proxy speaks for.

Behind a reverse proxy (nginx, Caddy, a load balancer) every connection comes from the proxy,
so every phone would share one address: one table's streams would use up the address's share,
and one family's wrong join codes would lock out the whole club. ``BANCO_TRUSTED_PROXIES``
names the peers that may speak for a client (addresses or networks, none by default). From those
peers only, the request's client address, scheme and host are read from ``X-Forwarded-For``,
``X-Forwarded-Proto`` and ``X-Forwarded-Host``, which nginx, Caddy, HAProxy and the cloud's
balancers write, or, where no ``X-Forwarded-For`` came, from the standard ``Forwarded`` header
(RFC 7239). Never the second when the first is there: a proxy that writes ``X-Forwarded-For``
passes a ``Forwarded`` header the phone made up as it came. From any other peer those headers
are ignored, so a phone on the Wi-Fi cannot pick its own address.

The client is the right-most address of the chain that is not itself a trusted proxy: every
address to the left of it was written by someone who is not trusted, and could be made up.
The scheme and host are the ones the proxy nearest the client reported (the right-most value a
trusted proxy appended). A value that is not an address, a scheme of ``http`` or ``https``, or a
host name is ignored, as if not sent.

The resolved request is what every part of the server reads: the per-address shares of live
streams (``gate``), the guess and creation limits (``companion.web.ratelimit``), the app's
``request.remote_addr`` and ``request.scheme`` (secure cookies and HSTS over HTTPS). The
per-address connection share (``shares``) does not apply to a trusted proxy's connections: one
proxy carries every phone's requests over a handful of kept-alive connections, and which phone
a connection is for is known only once its request is read; the proxy's own settings bound the
connections of each client (``docs/hosting.md``).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# A host as a browser sends it: a name or an IPv4 address, or an IPv6 one in brackets, and a port.
_HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")
# What a proxy may say for a client it will not name (RFC 7239: "unknown", or an obfuscated
# "_name"): kept as the client's name, so such clients share one count among them.
_TOKEN = re.compile(r"unknown|_[A-Za-z0-9._-]{1,60}")
SCHEMES = ("http", "https")


def _address(value: str) -> str | None:
    """``value`` as one address (a port, and an IPv6 address's brackets, dropped); ``None``
    when it is not one."""
    value = value.strip().strip('"')
    if value.startswith("["):
        value = value[1 : value.find("]")] if "]" in value else ""
    elif value.count(":") == 1:  # an IPv4 address and its port
        value = value.partition(":")[0]
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


class TrustedProxies:
    """The peers that may speak for a client (``BANCO_TRUSTED_PROXIES``), and what they say."""

    def __init__(self, trusted: Iterable[Network | str] = ()) -> None:
        self.trusted = tuple(ipaddress.ip_network(n, strict=False) for n in trusted)

    def trusts(self, address: str | None) -> bool:
        """Whether ``address`` (a peer's, as the socket gives it) is a trusted proxy's."""
        if not self.trusted or not address:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.trusted)

    def resolve(self, scope: dict) -> dict:
        """The ASGI ``scope`` as its client sent it: the client's address, scheme and host as
        a trusted peer reports them; ``scope`` itself, unchanged, from any other peer or when
        the proxy reported nothing."""
        peer = (scope.get("client") or ("", 0))[0]
        if not self.trusts(peer):
            return scope
        headers = scope["headers"]
        forwarded = _joined(headers, b"forwarded")
        if forwarded is not None and _joined(headers, b"x-forwarded-for") is None:
            hops = _forwarded(forwarded)
        else:
            hops = _x_forwarded(headers)
        if not hops:
            return scope
        client, scheme, host = self._client(hops)
        changed = dict(scope)
        if client is not None:
            changed["client"] = (client, 0)
        if scheme is not None:
            changed["scheme"] = scheme
        if host is not None:
            changed["headers"] = [(k, v) for k, v in headers if k != b"host"] + [(b"host", host.encode())]
        return changed

    def _client(self, hops: list[dict[str, str]]) -> tuple[str | None, str | None, str | None]:
        """The client (the right-most hop not itself trusted), and the scheme and host the
        proxy nearest it reported (the right-most ones from that hop on)."""
        chosen = 0
        for at in range(len(hops) - 1, -1, -1):
            chosen = at
            name = hops[at].get("for")
            if name is None or not self.trusts(_address(name)):
                break
        name = hops[chosen].get("for")
        client = None
        if name is not None:
            client = _address(name) or (name if _TOKEN.fullmatch(name) else None)
        scheme = host = None
        for hop in hops[chosen:]:
            proto = hop.get("proto", "").lower()
            if proto in SCHEMES:
                scheme = proto
            given = hop.get("host", "")
            if _HOST.fullmatch(given):
                host = given
        return client, scheme, host


def _joined(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    """The values of header ``name``, joined by commas as HTTP allows a repeated header to be;
    ``None`` when absent."""
    values = [value.decode("latin-1") for key, value in headers if key == name]
    return ",".join(values) if values else None


def _forwarded(value: str) -> list[dict[str, str]]:
    """The hops of a ``Forwarded`` header, first to last, each its parameters (lower-case
    names; quotes removed). A malformed element is a hop that says nothing."""
    hops = []
    for element in value.split(","):
        hop: dict[str, str] = {}
        for pair in element.split(";"):
            name, equals, given = pair.partition("=")
            if equals:
                hop[name.strip().lower()] = given.strip().strip('"')
        hops.append(hop)
    return hops


def _x_forwarded(headers: list[tuple[bytes, bytes]]) -> list[dict[str, str]]:
    """The hops ``X-Forwarded-For`` lists, the last one also carrying ``X-Forwarded-Proto``'s
    and ``X-Forwarded-Host``'s right-most values (set by the proxy that speaks to Banco)."""
    chain = _joined(headers, b"x-forwarded-for")
    hops: list[dict[str, str]] = [{"for": name.strip()} for name in (chain or "").split(",") if name.strip()]
    last: dict[str, str] = {}
    for field, header in (("proto", b"x-forwarded-proto"), ("host", b"x-forwarded-host")):
        value = _joined(headers, header)
        if value is not None and value.split(",")[-1].strip():
            last[field] = value.split(",")[-1].strip()
    if last:
        if hops:
            hops[-1].update(last)
        else:
            hops.append(last)
    return hops
