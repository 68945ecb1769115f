#!/usr/bin/env python3
"""Known-answer vectors for Provisio's MDES payload decryption and OAuth 1.0a signing.

Written from the published descriptions (MDES Issuer Outbound API 2.0.33's encryptedPayload,
RFC 5849 and the OAuth body-hash extension), with Python's `cryptography` package, so that the
Swift tests check Provisio against a second, independent implementation.

    python3 Tools/vectors/mdes_oauth_vectors.py             # (re)write both fixture files
    python3 Tools/vectors/mdes_oauth_vectors.py verify-oauth < header.json
        # check a header Provisio's signer produced: {"header", "method", "url", "bodyUTF8"}

Deterministic where it can be: the RSA keys are generated once and then read back from the
fixture, AES keys, IVs and plaintexts are derived from labels, and RSA PKCS#1 v1.5 signatures
are deterministic. RSA encryption padding (OAEP and PKCS#1 v1.5) is random by design, so the
`encryptedKey` values change on every run; the tests decrypt them, so any run's output is valid.
"""
import base64
import hashlib
import json
import os
import sys
import urllib.parse

import cryptography
from cryptography.hazmat.primitives import hashes, padding as sympadding, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "ProvisioCryptoTests", "Fixtures")
MDES_FILE = os.path.join(FIXTURES, "mdes-payload-vectors.json")
OAUTH_FILE = os.path.join(FIXTURES, "oauth1-vectors.json")


def derive(label, length):
    """Deterministic test bytes: SHA-512 of a label, repeated as needed."""
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.sha512(f"{label}/{counter}".encode()).digest()
        counter += 1
    return out[:length]


def load_or_generate_keys(path, names_and_sizes, field):
    existing = {}
    if os.path.exists(path):
        with open(path) as f:
            for key in json.load(f)[field]:
                existing[key["name"]] = serialization.load_pem_private_key(
                    key["privateKeyPKCS8PEM"].encode(), password=None)
    keys = {}
    for name, bits in names_and_sizes:
        keys[name] = existing.get(name) or rsa.generate_private_key(public_exponent=65537, key_size=bits)
    return keys


def spki_der(private_key):
    return private_key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def key_record(name, private_key):
    der = spki_der(private_key)
    return {
        "name": name,
        "bits": private_key.key_size,
        "privateKeyPKCS8PEM": private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()).decode(),
        "publicKeySPKIPEM": private_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode(),
        # SHA-256 of the DER SubjectPublicKeyInfo, as Mastercard's client-encryption libraries
        # compute a key fingerprint; SHA-1 of the same, the length of the document's example.
        "fingerprintSHA256": hashlib.sha256(der).hexdigest(),
        "fingerprintSHA1": hashlib.sha1(der).hexdigest(),
    }


# --- MDES encryptedPayload ------------------------------------------------------------------

def wrap(public_key, aes_key, oaep):
    if oaep is None:
        return public_key.encrypt(aes_key, padding.PKCS1v15())
    algorithm = {"SHA256": hashes.SHA256(), "SHA512": hashes.SHA512()}[oaep]
    # MGF1 uses the same hash as OAEP itself, and the label is empty.
    return public_key.encrypt(aes_key, padding.OAEP(mgf=padding.MGF1(algorithm), algorithm=algorithm, label=None))


def cbc_encrypt(key, iv, plaintext, pad=True):
    if pad:
        padder = sympadding.PKCS7(128).padder()
        plaintext = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(plaintext) + encryptor.finalize()


def payload(private_key, fingerprint, aes_key, mode, oaep, plaintext, label, aad=b"", iv=None, omit_iv=False):
    iv = iv if iv is not None else derive(label + "/iv", 12 if mode == "GCM" else 16)
    fields = {"publicKeyFingerprint": fingerprint,
              "encryptedKey": wrap(private_key.public_key(), aes_key, oaep).hex()}
    if oaep is not None:
        fields["oaepHashingAlgorithm"] = oaep
    if not omit_iv:
        fields["iv"] = iv.hex()
    fields["algorithmCipherMode"] = mode
    if mode == "GCM":
        sealed = AESGCM(aes_key).encrypt(iv, plaintext, aad or None)
        fields["encryptedData"] = sealed[:-16].hex()
        fields["tag"] = sealed[-16:].hex()
        if aad:
            fields["aad"] = aad.hex()
    else:
        fields["encryptedData"] = cbc_encrypt(aes_key, iv, plaintext).hex()
    return fields


# The card inside every plaintext: a test Mastercard number that passes the Luhn check, so that a
# server holding this card (the listener tests' card, expiring 12/30) can approve every vector.
PAN = "5412345678901232"


def luhn_valid(number):
    digits = [int(d) for d in reversed(number)]
    total = sum(d if i % 2 == 0 else (d * 2 - 9 if d > 4 else d * 2) for i, d in enumerate(digits))
    return total % 10 == 0


def mdes_vectors():
    assert luhn_valid(PAN), "the vectors' PAN must pass the Luhn check"
    keys = load_or_generate_keys(MDES_FILE, [("current", 3072), ("previous", 2048)], "keys")
    records = {name: key_record(name, key) for name, key in keys.items()}
    fp = {name: records[name]["fingerprintSHA256"] for name in keys}

    def plaintext(label):
        # A FundingAccountData-shaped object with the test PAN; the decrypter returns it as bytes.
        return json.dumps({
            "dataValidUntilTimestamp": "2030-01-01T00:30:00.000Z",
            "cardAccountData": {"accountNumber": PAN, "expiryMonth": "12", "expiryYear": "30"},
            "source": "ACCOUNT_ADDED_MANUALLY", "vector": label,
        }, separators=(",", ":")).encode()

    cases = []
    index = 0
    for mode in ("GCM", "CBC"):
        for oaep in ("SHA256", "SHA512", None):
            for bits in (128, 256):
                name = f"{mode}-{oaep and 'OAEP-' + oaep or 'PKCS1v15'}-AES{bits}"
                key_name = "current" if index % 2 == 0 else "previous"  # both keys of a rotation
                aes_key = derive(name + "/key", bits // 8)
                aad = derive(name + "/aad", 16) if mode == "GCM" and index % 4 == 0 else b""
                pt = plaintext(name)
                cases.append({"name": name, "key": key_name, "aesKeyHex": aes_key.hex(), "plaintextHex": pt.hex(),
                              "payload": payload(keys[key_name], fp[key_name], aes_key, mode, oaep, pt, name, aad)})
                index += 1

    # Accepted variations: the fingerprint in capitals or as SHA-1, no iv (zero IV), no cipher mode (CBC).
    extra = []
    k = derive("variations/key", 16)
    pt = plaintext("variations")
    v = payload(keys["current"], fp["current"].upper(), k, "GCM", "SHA256", pt, "upper")
    extra.append({"name": "fingerprint-uppercase", "key": "current", "aesKeyHex": k.hex(), "plaintextHex": pt.hex(), "payload": v})
    v = payload(keys["previous"], records["previous"]["fingerprintSHA1"], k, "CBC", "SHA512", pt, "sha1")
    extra.append({"name": "fingerprint-sha1", "key": "previous", "aesKeyHex": k.hex(), "plaintextHex": pt.hex(), "payload": v})
    v = payload(keys["current"], fp["current"], k, "CBC", "SHA256", pt, "zero-iv", iv=bytes(16), omit_iv=True)
    extra.append({"name": "cbc-no-iv-means-zero", "key": "current", "aesKeyHex": k.hex(), "plaintextHex": pt.hex(), "payload": v})
    v = payload(keys["current"], fp["current"], k, "GCM", None, pt, "gcm-zero-iv", iv=bytes(12), omit_iv=True)
    extra.append({"name": "gcm-no-iv-means-zero", "key": "current", "aesKeyHex": k.hex(), "plaintextHex": pt.hex(), "payload": v})
    v = payload(keys["current"], fp["current"], k, "CBC", "SHA256", pt, "no-mode")
    del v["algorithmCipherMode"]
    extra.append({"name": "no-cipher-mode-means-cbc", "key": "current", "aesKeyHex": k.hex(), "plaintextHex": pt.hex(), "payload": v})
    cases += extra

    bad = []

    def bad_case(name, fields, code):
        bad.append({"name": name, "payload": fields, "code": code})

    base_gcm = payload(keys["current"], fp["current"], k, "GCM", "SHA256", pt, "bad-gcm", aad=b"context")
    base_cbc = payload(keys["previous"], fp["previous"], k, "CBC", None, pt, "bad-cbc")

    def altered(base, **changes):
        out = dict(base)
        for field, value in changes.items():
            if value is None:
                out.pop(field, None)
            else:
                out[field] = value
        return out

    def flip_hex(text, at=0):
        raw = bytearray(bytes.fromhex(text))
        raw[at] ^= 0x01
        return raw.hex()

    # The document's shapes and hex, checked before any key is touched.
    bad_case("encrypted-data-not-hex", altered(base_gcm, encryptedData="zz" + base_gcm["encryptedData"][2:]), "mdes_payload_malformed")
    bad_case("encrypted-data-odd-length", altered(base_cbc, encryptedData=base_cbc["encryptedData"][:-1]), "mdes_payload_malformed")
    bad_case("encrypted-key-not-hex", altered(base_gcm, encryptedKey="0x" + base_gcm["encryptedKey"][2:]), "mdes_payload_malformed")
    bad_case("iv-with-space", altered(base_gcm, iv=" " + base_gcm["iv"][1:]), "mdes_payload_malformed")
    bad_case("fingerprint-not-hex", altered(base_gcm, publicKeyFingerprint="g" * 64), "mdes_payload_malformed")
    bad_case("tag-not-hex", altered(base_gcm, tag="x" * 32), "mdes_payload_malformed")
    bad_case("aad-not-hex", altered(base_gcm, aad="context"), "mdes_payload_malformed")
    bad_case("gcm-iv-16-bytes", altered(base_gcm, iv=derive("iv16", 16).hex()), "mdes_payload_malformed")
    bad_case("cbc-iv-12-bytes", altered(base_cbc, iv=derive("iv12", 12).hex()), "mdes_payload_malformed")
    bad_case("gcm-without-tag", altered(base_gcm, tag=None), "mdes_payload_malformed")
    bad_case("gcm-short-tag", altered(base_gcm, tag=base_gcm["tag"][:24]), "mdes_payload_malformed")
    bad_case("cbc-with-tag", altered(base_cbc, tag=base_gcm["tag"]), "mdes_payload_malformed")
    bad_case("cbc-not-whole-blocks", altered(base_cbc, encryptedData=base_cbc["encryptedData"][:-2]), "mdes_payload_malformed")
    bad_case("unknown-oaep-hash", altered(base_gcm, oaepHashingAlgorithm="SHA1"), "mdes_payload_malformed")
    bad_case("lowercase-oaep-hash", altered(base_gcm, oaepHashingAlgorithm="sha256"), "mdes_payload_malformed")
    bad_case("unknown-cipher-mode", altered(base_gcm, algorithmCipherMode="CTR"), "mdes_payload_malformed")
    bad_case("empty-encrypted-key", altered(base_gcm, encryptedKey=""), "mdes_payload_malformed")

    # A fingerprint that names no key.
    bad_case("wrong-fingerprint", altered(base_gcm, publicKeyFingerprint=derive("other key", 32).hex()), "mdes_key_unknown")
    bad_case("fingerprint-one-bit-off", altered(base_gcm, publicKeyFingerprint=flip_hex(fp["current"], 31)), "mdes_key_unknown")

    # Everything below decrypts to nothing, under one code so that none is an oracle.
    bad_case("tampered-tag", altered(base_gcm, tag=flip_hex(base_gcm["tag"], 15)), "mdes_payload_undecryptable")
    bad_case("tampered-gcm-data", altered(base_gcm, encryptedData=flip_hex(base_gcm["encryptedData"], 3)), "mdes_payload_undecryptable")
    bad_case("tampered-aad", altered(base_gcm, aad=flip_hex(base_gcm["aad"])), "mdes_payload_undecryptable")
    bad_case("aad-removed", altered(base_gcm, aad=None), "mdes_payload_undecryptable")
    bad_case("tampered-iv", altered(base_gcm, iv=flip_hex(base_gcm["iv"])), "mdes_payload_undecryptable")
    bad_case("tampered-encrypted-key", altered(base_gcm, encryptedKey=flip_hex(base_gcm["encryptedKey"], 100)), "mdes_payload_undecryptable")
    bad_case("encrypted-key-truncated", altered(base_gcm, encryptedKey=base_gcm["encryptedKey"][:-2]), "mdes_payload_undecryptable")
    bad_case("key-wrapped-for-the-other-key", altered(
        payload(keys["previous"], fp["current"], k, "GCM", "SHA256", pt, "other")), "mdes_payload_undecryptable")
    bad_case("oaep-sha256-announced-as-sha512", altered(base_gcm, oaepHashingAlgorithm="SHA512"), "mdes_payload_undecryptable")
    bad_case("pkcs1-announced-as-oaep", altered(base_cbc, oaepHashingAlgorithm="SHA256"), "mdes_payload_undecryptable")
    bad_case("oaep-announced-as-pkcs1", altered(base_gcm, oaepHashingAlgorithm=None), "mdes_payload_undecryptable")
    for size in (24, 20, 0):
        wrong = derive(f"wrong size {size}", size)
        bad_case(f"wrapped-key-of-{size}-bytes-oaep512", payload(
            keys["current"], fp["current"], wrong.ljust(16, b"\0")[:16], "GCM", "SHA512", pt, f"size{size}")
            | {"encryptedKey": wrap(keys["current"].public_key(), wrong, "SHA512").hex()}, "mdes_payload_undecryptable")
        bad_case(f"wrapped-key-of-{size}-bytes-pkcs1", payload(
            keys["previous"], fp["previous"], wrong.ljust(16, b"\0")[:16], "CBC", None, pt, f"size{size}p")
            | {"encryptedKey": wrap(keys["previous"].public_key(), wrong, None).hex()}, "mdes_payload_undecryptable")
    # CBC whose last block does not end in valid PKCS#7 padding.
    for name, tail in (("bad-padding-zero", b"\x00"), ("bad-padding-17", b"\x11"),
                       ("bad-padding-inconsistent", b"\x01\x02")):
        raw = (b"x" * 32)[:32 - len(tail)] + tail
        fields = dict(base_cbc)
        fields["encryptedData"] = cbc_encrypt(k, bytes.fromhex(base_cbc["iv"]), raw, pad=False).hex()
        bad_case(name, fields, "mdes_payload_undecryptable")

    # Each vector decrypts here first, so the fixture is consistent in itself.
    for case in cases:
        check_decrypts(keys[case["key"]], case)

    return {
        "generator": "Tools/vectors/mdes_oauth_vectors.py",
        "cryptography": cryptography.__version__,
        "keys": [records["current"], records["previous"]],
        "cases": cases,
        "bad": bad,
    }


def check_decrypts(private_key, case):
    p = case["payload"]
    oaep = p.get("oaepHashingAlgorithm")
    if oaep:
        h = {"SHA256": hashes.SHA256(), "SHA512": hashes.SHA512()}[oaep]
        key = private_key.decrypt(bytes.fromhex(p["encryptedKey"]), padding.OAEP(padding.MGF1(h), h, None))
    else:
        key = private_key.decrypt(bytes.fromhex(p["encryptedKey"]), padding.PKCS1v15())
    assert key.hex() == case["aesKeyHex"], case["name"]
    mode = p.get("algorithmCipherMode", "CBC")
    iv = bytes.fromhex(p["iv"]) if "iv" in p else bytes(12 if mode == "GCM" else 16)
    data = bytes.fromhex(p["encryptedData"])
    if mode == "GCM":
        aad = bytes.fromhex(p["aad"]) if "aad" in p else None
        plain = AESGCM(key).decrypt(iv, data + bytes.fromhex(p["tag"]), aad)
    else:
        decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
        padded = decryptor.update(data) + decryptor.finalize()
        unpadder = sympadding.PKCS7(128).unpadder()
        plain = unpadder.update(padded) + unpadder.finalize()
    assert plain.hex() == case["plaintextHex"], case["name"]


# --- OAuth 1.0a, RSA-SHA256 with the body hash ----------------------------------------------

def pct(text):
    """RFC 5849 section 3.6: UTF-8, then every byte but ALPHA / DIGIT / - . _ ~ as %XX."""
    return urllib.parse.quote(text.encode("utf-8"), safe="-._~")


def base_string(method, url, oauth_params):
    parts = urllib.parse.urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    port = parts.port
    authority = host if port is None or (scheme, port) in (("http", 80), ("https", 443)) else f"{host}:{port}"
    base_uri = f"{scheme}://{authority}{parts.path or '/'}"
    params = urllib.parse.parse_qsl(parts.query, keep_blank_values=True) + list(oauth_params)
    normalized = "&".join(f"{n}={v}" for n, v in sorted((pct(n), pct(v)) for n, v in params))
    return f"{method.upper()}&{pct(base_uri)}&{pct(normalized)}", normalized


def oauth_params(consumer_key, body, nonce, timestamp):
    return [
        ("oauth_body_hash", base64.b64encode(hashlib.sha256(body).digest()).decode()),
        ("oauth_consumer_key", consumer_key),
        ("oauth_nonce", nonce),
        ("oauth_signature_method", "RSA-SHA256"),
        ("oauth_timestamp", str(timestamp)),
        ("oauth_version", "1.0"),
    ]


def sign(private_key, text):
    return base64.b64encode(private_key.sign(text.encode(), padding.PKCS1v15(), hashes.SHA256())).decode()


def oauth_vectors():
    keys = load_or_generate_keys(OAUTH_FILE, [("signing", 2048)], "keys")
    key = keys["signing"]
    requests = [
        {"name": "suspend", "method": "POST",
         "url": "https://sandbox.api.mastercard.com/mdes/csapi/v2/token/suspend",
         "bodyUTF8": json.dumps({"TokenSuspendRequest": {"TokenUniqueReference": "DWSPMC00000000010906a349d9ca4eb1a4d53e3c90a11d9c",
                                                          "ReasonCode": "L", "CommentText": "Lost phone — ß & ☃",
                                                          "AuditInfo": {"UserId": "op_1", "UserName": "Ops", "Organization": "Acme Bank", "Phone": "+1 555 0100"}}},
                                ensure_ascii=False, separators=(",", ":"))},
        {"name": "query-encoding", "method": "post",
         "url": "HTTPS://Example.COM:443/a%20path/x?b=2&a=1&a=%2B&c%40=&sp=a+b&tilde=~&utf=%E2%98%83",
         "bodyUTF8": ""},
        {"name": "port-and-get", "method": "GET",
         "url": "http://example.com:8080?z=1", "bodyUTF8": ""},
    ]
    vectors = []
    for i, r in enumerate(requests):
        body = r["bodyUTF8"].encode()
        nonce, timestamp = f"nonce-{i}-{derive(r['name'], 6).hex()}", 1700000000 + i
        params = oauth_params("consumer-key!with:odd/chars", body, nonce, timestamp)
        text, normalized = base_string(r["method"], r["url"], params)
        signature = sign(key, text)
        header = "OAuth " + ",".join(f'{n}="{pct(v)}"' for n, v in params + [("oauth_signature", signature)])
        vectors.append(r | {"consumerKey": "consumer-key!with:odd/chars", "nonce": nonce, "timestamp": timestamp,
                            "bodyHash": dict(params)["oauth_body_hash"], "normalizedParameters": normalized,
                            "signatureBaseString": text, "signature": signature, "authorizationHeader": header})

    # RFC 5849 section 3.4.1's request, as a check of this script's own base string.
    rfc_text, _ = base_string("POST", "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b", [
        ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
        ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"),
        ("oauth_nonce", "7d8f3e4a"), ("c2", ""), ("a3", "2 q")])
    assert rfc_text == RFC5849_BASE_STRING, rfc_text

    return {"generator": "Tools/vectors/mdes_oauth_vectors.py", "cryptography": cryptography.__version__,
            "keys": [key_record("signing", key)], "requests": vectors}


# RFC 5849 section 3.4.1.1's example base string (line breaks removed).
RFC5849_BASE_STRING = (
    "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q"
    "%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_"
    "key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m"
    "ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk"
    "9d7dh3k39sjv7")


def verify_oauth(request):
    """Checks a header from Provisio's signer with this script's own base string and key."""
    with open(OAUTH_FILE) as f:
        record = json.load(f)["keys"][0]
    public_key = serialization.load_pem_public_key(record["publicKeySPKIPEM"].encode())
    header = request["header"]
    assert header.startswith("OAuth ")
    params = {}
    for item in header[len("OAuth "):].split(","):
        name, _, quoted = item.strip().partition("=")
        assert quoted.startswith('"') and quoted.endswith('"'), item
        params[urllib.parse.unquote(name)] = urllib.parse.unquote(quoted[1:-1])
    signature = base64.b64decode(params.pop("oauth_signature"))
    body = request["bodyUTF8"].encode()
    assert params["oauth_body_hash"] == base64.b64encode(hashlib.sha256(body).digest()).decode(), "body hash"
    assert params["oauth_signature_method"] == "RSA-SHA256"
    text, _ = base_string(request["method"], request["url"], params.items())
    public_key.verify(signature, text.encode(), padding.PKCS1v15(), hashes.SHA256())
    print("verified: RSA-SHA256 signature and body hash of Provisio's header")


def main():
    if sys.argv[1:] == ["verify-oauth"]:
        verify_oauth(json.load(sys.stdin))
        return
    for path, data in ((MDES_FILE, mdes_vectors()), (OAUTH_FILE, oauth_vectors())):
        with open(path, "w") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print("wrote", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
