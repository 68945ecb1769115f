"""OAuth 1.0a (RFC 5849) with RSA-SHA256 and the body-hash extension.

Written for this black-box client from:
  * RFC 5849, sections 3.4.1 (signature base string), 3.5.1 (Authorization header)
    and 3.6 (percent encoding);
  * Mastercard's page "Using OAuth 1.0a to Access Mastercard APIs": one-legged OAuth,
    RSA-SHA256, and the body hash extension (draft-eaton-oauth-bodyhash) for requests
    with a body, the hash being SHA-256 because the signature method is RSA-SHA256.

Both halves are here: `sign_request` (what an issuer does) and `verify_request`
(what Mastercard does), so that the Customer Service stand-in can check what
Provisio sends without any of Provisio's code.
"""

import base64
import hashlib
import re
import secrets
import time
import urllib.parse

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding

_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def pct(value):
    """RFC 5849 3.6: UTF-8, then every byte outside the unreserved set as %XX (upper-case hex)."""
    if isinstance(value, str):
        value = value.encode("utf-8")
    out = []
    for byte in value:
        if byte in _UNRESERVED:
            out.append(chr(byte))
        else:
            out.append("%%%02X" % byte)
    return "".join(out)


def pct_decode(text, plus_is_space=False):
    """Inverse of `pct`; strict: a '%' must be followed by two hex digits."""
    if plus_is_space:
        text = text.replace("+", " ")
    raw = bytearray()
    i = 0
    data = text.encode("utf-8")
    while i < len(data):
        c = data[i]
        if c == 0x25:  # '%'
            pair = data[i + 1:i + 3]
            if len(pair) != 2 or not re.fullmatch(rb"[0-9A-Fa-f]{2}", bytes(pair)):
                raise ValueError("bad percent escape")
            raw.append(int(pair, 16))
            i += 3
        else:
            raw.append(c)
            i += 1
    return raw.decode("utf-8")


def parse_form(text):
    """application/x-www-form-urlencoded pairs, decoded, in order (RFC 5849 3.4.1.3.1)."""
    pairs = []
    if not text:
        return pairs
    for part in text.split("&"):
        if part == "":
            continue
        name, sep, value = part.partition("=")
        pairs.append((pct_decode(name, True), pct_decode(value, True) if sep else ""))
    return pairs


def base_string_uri(url):
    """RFC 5849 3.4.1.2: lower-case scheme and host, default port dropped, no query or fragment."""
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6 literal
        host = "[" + host + "]"
    port = parts.port
    if port is not None and not ((scheme == "http" and port == 80) or (scheme == "https" and port == 443)):
        host = "%s:%d" % (host, port)
    path = parts.path or "/"
    return "%s://%s%s" % (scheme, host, path)


def normalized_parameters(pairs):
    """RFC 5849 3.4.1.3.2: encode each name and value, sort by name then value, join."""
    encoded = sorted((pct(n), pct(v)) for n, v in pairs)
    return "&".join("%s=%s" % nv for nv in encoded)


def signature_base_string(method, url, oauth_params, extra_pairs=()):
    """RFC 5849 3.4.1.1. `oauth_params`: dict or pairs of the protocol parameters without
    oauth_signature and realm; the URL's query is added; `extra_pairs` are form-body
    parameters (none for a JSON body)."""
    if isinstance(oauth_params, dict):
        oauth_params = list(oauth_params.items())
    query = urllib.parse.urlsplit(url).query
    pairs = parse_form(query) + list(oauth_params) + list(extra_pairs)
    return "&".join([method.upper(), pct(base_string_uri(url)), pct(normalized_parameters(pairs))])


def body_hash(body):
    """draft-eaton-oauth-bodyhash with SHA-256 (Mastercard, RSA-SHA256): base64 of the digest
    of the exact body bytes; an absent body hashes as the empty string."""
    if body is None:
        body = b""
    if isinstance(body, str):
        body = body.encode("utf-8")
    return base64.b64encode(hashlib.sha256(body).digest()).decode("ascii")


def sign_request(method, url, body, consumer_key, private_key, nonce=None, timestamp=None):
    """Returns the Authorization header value for a request signed with RSA-SHA256."""
    params = {
        "oauth_consumer_key": consumer_key,
        "oauth_nonce": nonce or secrets.token_hex(12),
        "oauth_timestamp": str(int(time.time()) if timestamp is None else timestamp),
        "oauth_signature_method": "RSA-SHA256",
        "oauth_version": "1.0",
        "oauth_body_hash": body_hash(body),
    }
    base = signature_base_string(method, url, params)
    signature = private_key.sign(base.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
    params["oauth_signature"] = base64.b64encode(signature).decode("ascii")
    return "OAuth " + ",".join('%s="%s"' % (pct(k), pct(v)) for k, v in params.items())


_HEADER_PARAM = re.compile(r'\s*([A-Za-z0-9_.~%-]+)\s*=\s*"([^"]*)"\s*(?:,|$)')


def parse_authorization(header):
    """RFC 5849 3.5.1: `OAuth name="value", …` with percent-encoded names and values.
    Returns a dict; raises ValueError on a malformed header or a repeated parameter."""
    if header is None:
        raise ValueError("no Authorization header")
    scheme, _, rest = header.strip().partition(" ")
    if scheme.lower() != "oauth":
        raise ValueError("Authorization scheme is not OAuth")
    params = {}
    pos = 0
    rest = rest.strip()
    while pos < len(rest):
        m = _HEADER_PARAM.match(rest, pos)
        if not m:
            raise ValueError("malformed Authorization header near offset %d" % pos)
        name, value = pct_decode(m.group(1)), pct_decode(m.group(2))
        if name in params:
            raise ValueError("parameter %s given twice" % name)
        params[name] = value
        pos = m.end()
    return params


class VerificationError(Exception):
    pass


def verify_request(method, url, body, authorization, public_key, consumer_key,
                   now=None, max_skew=300, seen_nonces=None):
    """Checks a request as Mastercard would: the parameters, the body hash over the exact
    bytes received, and the RSA-SHA256 signature over the recomputed base string.
    Returns (params, base_string); raises VerificationError with the reason."""
    try:
        params = parse_authorization(authorization)
    except ValueError as e:
        raise VerificationError(str(e))
    required = ["oauth_consumer_key", "oauth_nonce", "oauth_timestamp", "oauth_signature_method",
                "oauth_signature", "oauth_body_hash"]
    missing = [r for r in required if r not in params]
    if missing:
        raise VerificationError("missing " + ", ".join(missing))
    if params["oauth_signature_method"] != "RSA-SHA256":
        raise VerificationError("oauth_signature_method is %r, not RSA-SHA256" % params["oauth_signature_method"])
    if params.get("oauth_version", "1.0") != "1.0":
        raise VerificationError("oauth_version is %r" % params["oauth_version"])
    if params["oauth_consumer_key"] != consumer_key:
        raise VerificationError("unexpected oauth_consumer_key")
    if not re.fullmatch(r"[0-9]{1,12}", params["oauth_timestamp"]):
        raise VerificationError("oauth_timestamp is not a number of seconds")
    now = time.time() if now is None else now
    if abs(now - int(params["oauth_timestamp"])) > max_skew:
        raise VerificationError("oauth_timestamp is %ds away from now" % (int(params["oauth_timestamp"]) - now))
    if seen_nonces is not None:
        key = (params["oauth_timestamp"], params["oauth_nonce"])
        if key in seen_nonces:
            raise VerificationError("nonce reused")
        seen_nonces.add(key)
    expected_hash = body_hash(body)
    if params["oauth_body_hash"] != expected_hash:
        raise VerificationError("oauth_body_hash does not match the body received")
    signed = [(k, v) for k, v in params.items() if k not in ("oauth_signature", "realm")]
    base = signature_base_string(method, url, signed)
    try:
        signature = base64.b64decode(params["oauth_signature"], validate=True)
    except Exception:
        raise VerificationError("oauth_signature is not base64")
    try:
        public_key.verify(signature, base.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        raise VerificationError("RSA-SHA256 signature does not verify over the recomputed base string")
    return params, base
