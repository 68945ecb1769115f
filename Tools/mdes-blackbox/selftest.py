"""Self-tests of this folder's crypto and OAuth code; no server needed.

Known-answer vectors come from published sources, named at each check:
  [RFC5849]  RFC 5849 (OAuth 1.0), sections 3.4.1.1, 3.4.1.2, 3.4.1.3.2;
  [MC-OAUTH] the test vectors of Mastercard's oauth1-signer-python (body hashes, one base
             string, percent-encoding), which implements "Using OAuth 1.0a to Access
             Mastercard APIs";
  [GCM]      McGrew & Viega, "The Galois/Counter Mode of Operation", test case 4;
  [SP800-38A] NIST SP 800-38A, F.2.1 and F.2.5 (CBC-AES128/256, first block).
"""

import hashlib
import os
import shutil
import subprocess
import tempfile
import time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

import mdes_crypto
import oauth1
from report import expect


def _oauth_pct():
    cases = [("Format=XML", "Format%3DXML"),                                   # [MC-OAUTH]
             ("WhqqH+TU95VgZMItpdq78BWb4cE=", "WhqqH%2BTU95VgZMItpdq78BWb4cE%3D"),  # [MC-OAUTH]
             ("WhqqH+TU95VgZMItpdq78BWb4cE=&o", "WhqqH%2BTU95VgZMItpdq78BWb4cE%3D%26o"),
             ("AZaz09-._~", "AZaz09-._~"), ("a b*õ", "a%20b%2A%C3%B5")]       # RFC 5849 3.6
    for raw, want in cases:
        got = oauth1.pct(raw)
        expect(got == want, "pct(%r) = %r, want %r" % (raw, got, want))
        expect(oauth1.pct_decode(got) == raw, "pct_decode round trip for %r" % raw)
    return "%d vectors" % len(cases)


def _oauth_uri():
    cases = [("HTTP://EXAMPLE.COM:80/r%20v/X?id=123", "http://example.com/r%20v/X"),      # [RFC5849] 3.4.1.2
             ("https://www.example.net:8080/?q=1", "https://www.example.net:8080/"),       # [RFC5849] 3.4.1.2
             ("https://api.mastercard.com:443/test?query=param", "https://api.mastercard.com/test"),  # [MC-OAUTH]
             ("https://api.mastercard.com", "https://api.mastercard.com/"),                # [MC-OAUTH]
             ("https://api.mastercard.com/test?query=param#fragment", "https://api.mastercard.com/test"),
             ("http://127.0.0.1:8123/mdes/csapi/v2/token/suspend", "http://127.0.0.1:8123/mdes/csapi/v2/token/suspend")]
    for url, want in cases:
        got = oauth1.base_string_uri(url)
        expect(got == want, "base_string_uri(%r) = %r, want %r" % (url, got, want))
    return "%d vectors" % len(cases)


def _oauth_rfc5849_base_string():
    # [RFC5849] 3.4.1.1: POST /request?b5=%3D%253D&a3=a&c%40=&a2=r%20b, form body "c2&a3=2+q".
    params = [("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
              ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"),
              ("oauth_nonce", "7d8f3e4a")]
    url = "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"
    got = oauth1.signature_base_string("POST", url, params, oauth1.parse_form("c2&a3=2+q"))
    want = ("POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D"
            "%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a"
            "%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7")
    expect(got == want, "got %s" % got)
    # [RFC5849] 3.4.1.3.2's normalized parameters, and byte-order sorting ([MC-OAUTH]).
    pairs = oauth1.parse_form("b=b&A=a&A=A&B=B&a=A&a=a&0=0")
    expect(oauth1.normalized_parameters(pairs) == "0=0&A=A&A=a&B=B&a=A&a=a&b=b", "byte-order sort")
    return "section 3.4.1.1 example reproduced"


def _oauth_mastercard_base_string():
    # [MC-OAUTH] test_signature_base_string: the body hash given is that of the test's XML body.
    url = ("https://sandbox.api.mastercard.com/fraud/merchant/v1/termination-inquiry"
           "?Format=XML&PageOffset=0&PageLength=10")
    params = {"oauth_consumer_key": "x" * 48, "oauth_nonce": "1111111111111111111",
              "oauth_timestamp": "1111111111", "oauth_version": "1.0",
              "oauth_body_hash": "h2Pd7zlzEZjZVIKB4j94UZn/xxoR3RoCjYQ9/JdadGQ="}
    want = ("POST&https%3A%2F%2Fsandbox.api.mastercard.com%2Ffraud%2Fmerchant%2Fv1%2Ftermination-inquiry"
            "&Format%3DXML%26PageLength%3D10%26PageOffset%3D0%26oauth_body_hash%3Dh2Pd7zlzEZjZVIKB4j94UZn"
            "%252FxxoR3RoCjYQ9%252FJdadGQ%253D%26oauth_consumer_key"
            "%3D" + "x" * 48 + "%26oauth_nonce%3D1111111111111111111"
            "%26oauth_timestamp%3D1111111111%26oauth_version%3D1.0")
    got = oauth1.signature_base_string("POST", url, params)
    # The hash is percent-encoded as a parameter value and again with the whole parameter
    # string, so its '/' appears as %252F.
    expect(got == want, "got %s" % got)
    return "oauth1-signer's termination-inquiry base string reproduced"


def _oauth_body_hash():
    cases = [(b"", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="),            # [MC-OAUTH]
             (None, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="),
             (b"{}", "RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o="),
             ('{"foõ":"bar"}'.encode("utf-8"), "+Z+PWW2TJDnPvRcTgol+nKO3LT7xm8smnsg+//XMIyI=")]
    for body, want in cases:
        got = oauth1.body_hash(body)
        expect(got == want, "body_hash(%r) = %s, want %s" % (body, got, want))
    return "%d vectors" % len(cases)


def _oauth_header_parse():
    h = 'OAuth realm="Example", oauth_consumer_key="9djdj82h48djs9d2",oauth_signature="a%2Bb%3D"'
    p = oauth1.parse_authorization(h)
    expect(p == {"realm": "Example", "oauth_consumer_key": "9djdj82h48djs9d2", "oauth_signature": "a+b="}, repr(p))
    try:
        oauth1.parse_authorization('OAuth a="1", a="2"')
    except ValueError:
        pass
    else:
        expect(False, "a repeated parameter was accepted")
    return "realm, spacing and percent-decoding"


def _oauth_sign_verify(key):
    pub = key.public_key()
    url = "http://127.0.0.1:9/mdes/csapi/v2/token/suspend"
    body = b'{"TokenSuspendRequest":{"TokenUniqueReference":"x"}}'
    header = oauth1.sign_request("POST", url, body, "ck-123", key)
    oauth1.verify_request("POST", url, body, header, pub, "ck-123")
    rejected = []
    tampered = [("body", dict(body=body + b" ")),
                ("path", dict(url=url.replace("suspend", "delete"))),
                ("host", dict(url=url.replace("127.0.0.1:9", "127.0.0.1:10"))),
                ("consumer key", dict(consumer_key="other")),
                ("method", dict(method="PUT")),
                ("signature", dict(header=header.replace('oauth_signature="', 'oauth_signature="AAAA'))),
                ("other key", dict(public_key=rsa.generate_private_key(65537, 2048).public_key()))]
    for label, change in tampered:
        args = dict(method="POST", url=url, body=body, header=header, public_key=pub, consumer_key="ck-123")
        args.update(change)
        try:
            oauth1.verify_request(args["method"], args["url"], args["body"], args["header"], args["public_key"],
                                  args["consumer_key"])
        except oauth1.VerificationError:
            rejected.append(label)
        else:
            expect(False, "a request with a changed %s still verified" % label)
    seen = set()
    oauth1.verify_request("POST", url, body, header, pub, "ck-123", seen_nonces=seen)
    try:
        oauth1.verify_request("POST", url, body, header, pub, "ck-123", seen_nonces=seen)
        expect(False, "a replayed nonce verified")
    except oauth1.VerificationError:
        pass
    old = oauth1.sign_request("POST", url, body, "ck-123", key, timestamp=int(time.time()) - 3600)
    try:
        oauth1.verify_request("POST", url, body, old, pub, "ck-123")
        expect(False, "an hour-old timestamp verified")
    except oauth1.VerificationError:
        pass
    return "round trip; rejects changed " + ", ".join(rejected) + ", replayed nonce, stale timestamp"


def _gcm_kat():
    # [GCM] test case 4 (AES-128, 60-byte plaintext, 20-byte AAD).
    k = bytes.fromhex("feffe9928665731c6d6a8f9467308308")
    p = bytes.fromhex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                      "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
    a = bytes.fromhex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
    iv = bytes.fromhex("cafebabefacedbaddecaf888")
    c, _, t, _ = mdes_crypto.aes_encrypt("GCM", k, p, iv=iv, aad=a)
    expect(c.hex() == "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                      "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091", "ciphertext " + c.hex())
    expect(t.hex() == "5bc94fbc3221a5db94fae95ae7121a47", "tag " + t.hex())
    expect(mdes_crypto.aes_decrypt("GCM", k, c, iv, t, a) == p, "decrypt")
    return "ciphertext and tag match"


def _cbc_kat():
    iv = bytes.fromhex("000102030405060708090a0b0c0d0e0f")
    p = bytes.fromhex("6bc1bee22e409f96e93d7e117393172a")
    for key, first in (("2b7e151628aed2a6abf7158809cf4f3c", "7649abac8119b246cee98e9b12e9197d"),   # F.2.1
                       ("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
                        "f58c4c04d6e5f1ba779eabfb5f7bfbd6")):                                  # F.2.5
        c, _, _, _ = mdes_crypto.aes_encrypt("CBC", bytes.fromhex(key), p, iv=iv)
        expect(len(c) == 32, "PKCS#7 should add a full block to a 16-byte plaintext, got %d bytes" % len(c))
        expect(c[:16].hex() == first, "first block %s, want %s" % (c[:16].hex(), first))
        expect(mdes_crypto.aes_decrypt("CBC", bytes.fromhex(key), c, iv) == p, "decrypt")
    return "AES-128 and AES-256 first blocks match, PKCS#7 block added"


def _variants_round_trip(key):
    pub = key.public_key()
    fp = mdes_crypto.fingerprint_sha256(pub)
    obj = {"cardAccountData": {"accountNumber": "5454545454545454", "expiryMonth": "12", "expiryYear": "30"}}
    n = 0
    for mode, wrap, bits in mdes_crypto.variants():
        name = mdes_crypto.variant_name(mode, wrap, bits)
        p = mdes_crypto.encrypt_payload(obj, pub, fp, mode, wrap, bits)
        expect(mdes_crypto.decrypt_payload(p, key) == obj, name + ": round trip")
        expect(len(p["iv"]) == (24 if mode == "GCM" else 32), name + ": iv length")
        expect(len(p["encryptedKey"]) == 512, name + ": encryptedKey is %d hex" % len(p["encryptedKey"]))
        expect(32 <= len(p["publicKeyFingerprint"]) <= 64, name + ": fingerprint length")
        expect(("oaepHashingAlgorithm" in p) == (wrap is not None), name + ": oaepHashingAlgorithm presence")
        if mode == "GCM":
            expect(len(p["tag"]) == 32 and 1 <= len(p["aad"]) <= 36, name + ": tag/aad lengths")
        else:
            expect("tag" not in p and "aad" not in p, name + ": CBC carries no tag or aad")
        aes = mdes_crypto.unwrap_key(key, bytes.fromhex(p["encryptedKey"]), wrap)
        expect(len(aes) == bits // 8, name + ": key size")
        n += 1
    return "%d variants; field lengths within the document's limits" % n


def _variants_are_distinct(key):
    pub = key.public_key()
    aes = os.urandom(16)
    for wrapped_with, tried in (("SHA256", "SHA512"), ("SHA512", "SHA256"), ("SHA256", None), (None, "SHA256")):
        w = mdes_crypto.wrap_key(pub, aes, wrapped_with)
        try:
            out = mdes_crypto.unwrap_key(key, w, tried)
        except ValueError:
            continue
        expect(out != aes, "a key wrapped with %s unwrapped with %s" % (wrapped_with, tried))
    p = mdes_crypto.encrypt_payload({"a": 1}, pub, "00" * 32, "GCM", "SHA256", 128)
    p["tag"] = ("%02x" % (int(p["tag"][:2], 16) ^ 1)) + p["tag"][2:]
    try:
        mdes_crypto.decrypt_payload(p, key)
        expect(False, "a tampered GCM tag decrypted")
    except Exception as e:
        expect("InvalidTag" in type(e).__name__, "unexpected %s" % type(e).__name__)
    p = mdes_crypto.encrypt_payload({"a": 1}, pub, "00" * 32, "CBC", "SHA512", 256, send_iv=False)
    expect("iv" not in p and mdes_crypto.decrypt_payload(p, key) == {"a": 1}, "CBC without iv (zero IV)")
    return "wrong wrap digest fails, tampered tag fails, CBC zero IV works"


def _fingerprint_vs_openssl(key):
    pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    mine = mdes_crypto.fingerprint_sha256(key.public_key())
    openssl = shutil.which("openssl")
    if not openssl:
        return "openssl not installed; SHA-256(DER SPKI) = %s..." % mine[:16]
    with tempfile.NamedTemporaryFile(suffix=".pem") as f:
        f.write(pem)
        f.flush()
        der = subprocess.run([openssl, "pkey", "-pubin", "-in", f.name, "-outform", "DER"],
                             capture_output=True, check=True).stdout
    expect(hashlib.sha256(der).hexdigest() == mine, "openssl's DER differs")
    return "SHA-256 of DER SubjectPublicKeyInfo agrees with openssl"


def run(reporter):
    key = rsa.generate_private_key(65537, 2048)
    r = reporter
    r.check("selftest oauth: RFC 3986 percent-encoding", _oauth_pct)
    r.check("selftest oauth: base string URI (RFC 5849 3.4.1.2)", _oauth_uri)
    r.check("selftest oauth: RFC 5849 3.4.1.1 base string example", _oauth_rfc5849_base_string)
    r.check("selftest oauth: Mastercard oauth1-signer base string vector", _oauth_mastercard_base_string)
    r.check("selftest oauth: body hash vectors (SHA-256, base64)", _oauth_body_hash)
    r.check("selftest oauth: Authorization header parsing (RFC 5849 3.5.1)", _oauth_header_parse)
    r.check("selftest oauth: RSA-SHA256 sign/verify and tamper detection", _oauth_sign_verify, key)
    r.check("selftest crypto: AES-GCM known answer", _gcm_kat)
    r.check("selftest crypto: AES-CBC known answer", _cbc_kat)
    r.check("selftest crypto: 12 payload variants round trip", _variants_round_trip, key)
    r.check("selftest crypto: variants are distinct, tag is checked", _variants_are_distinct, key)
    r.check("selftest crypto: fingerprint = SHA-256(DER SPKI)", _fingerprint_vs_openssl, key)
