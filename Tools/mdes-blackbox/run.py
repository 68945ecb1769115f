#!/usr/bin/env python3
"""Black-box checks of Provisio's MDES interfaces, written from Mastercard's published
documents (see README.md in this folder), not from Provisio's code.

    python3 Tools/mdes-blackbox/run.py --provisio .build/debug/provisio

Prints one line per check and exits 1 if any check fails. Without --provisio only the
self-tests of this folder's own crypto and OAuth code run.
"""

import argparse
import datetime
import json
import os
import re
import secrets
import shutil
import socket
import ssl
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import rsa  # noqa: E402

import cs_standin  # noqa: E402
import mdes_crypto  # noqa: E402
import pki  # noqa: E402
import selftest  # noqa: E402
from provisio_harness import MDESClient, ProvisioServer, WebhookReceiver, run_cli, standard_webhook_valid  # noqa: E402
from report import Reporter, expect  # noqa: E402

# The activation-method types and decline reasons the Issuer Outbound document 2.0.33 lists.
ACTIVATION_TYPES = {"TEXT_TO_CARDHOLDER_NUMBER", "EMAIL_TO_CARDHOLDER_ADDRESS", "CARDHOLDER_TO_CALL_AUTOMATED_NUMBER",
                    "CARDHOLDER_TO_CALL_MANNED_NUMBER", "CARDHOLDER_TO_VISIT_WEBSITE", "CARDHOLDER_TO_USE_MOBILE_APP",
                    "ISSUER_TO_CALL_CARDHOLDER_NUMBER", "EMV_3DS", "PUSH_NOTIFICATION_TO_MOBILE_APP"}
DECLINE_REASONS = {"LOST", "EXPIRED", "RESTRICTED", "SEC_VIOLATION", "CRYPTO_FAIL", "UNACCEPTABLE_PIN",
                   "EXCEEDS_PIN_TRIES", "STOLEN", "INVAL_CARD", "CLOSED_ACCOUNT", "INVAL_ACCT", "INVAL_PIN",
                   "RCVR_NOTPERM", "SNDR_NOTPERM", "EXCEEDS_CNT", "DO_NOT_HONOR"}


# ---------------------------------------------------------------- message builders

def luhn_pan(prefix="5", length=16):
    digits = prefix + "".join(secrets.choice("0123456789") for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return digits + str((10 - total % 10) % 10)


def luhn_ok(digits):
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def has_card_like_digits(text):
    """True when some 13-19 digit run inside `text` passes the Luhn check."""
    for run in re.findall(r"[0-9]{13,}", text):
        for length in range(13, min(19, len(run)) + 1):
            for i in range(len(run) - length + 1):
                if luhn_ok(run[i:i + length]):
                    return True
    return False


# A 48-character reference of the form MDES uses, whose digits happen to hold a Luhn-valid
# 13-digit window (seen refused by Provisio); the document makes it an opaque string.
TUR_WITH_LUHN_DIGITS = "DWSPMC0000000000790837033840a14a013015c9f263ea39"


def hex_id(nchars):
    """Random hex of `nchars` characters without a card-like digit run (see new_tur)."""
    while True:
        v = secrets.token_hex((nchars + 1) // 2)[:nchars]
        if not has_card_like_digits(v):
            return v


def new_tur():
    # 48 characters, the length Customer Service 2.2.2 requires of a TokenUniqueReference.
    # References whose digits could pass for a card number are avoided here so that the run
    # is deterministic; one such reference is checked on its own (TUR_WITH_LUHN_DIGITS).
    while True:
        tur = "DWSPMC000000000" + secrets.token_hex(17)[:33]
        if not has_card_like_digits(tur):
            return tur


def new_request_id():
    return "".join(secrets.choice("0123456789") for _ in range(12))


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (dt.microsecond // 1000)


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc)


def funding_plaintext(pan, month, year, valid_for=datetime.timedelta(minutes=30), token=None, extra=None):
    obj = {"source": "ACCOUNT_ADDED_MANUALLY",
           "dataValidUntilTimestamp": iso(now_utc() + valid_for),
           "cardAccountData": {"accountNumber": pan, "expiryMonth": "%02d" % month,
                               "expiryYear": "%02d" % (year % 100), "securityCode": "123"},
           "accountHolderData": {"accountHolderName": "Jane Tester"}}
    if token:
        obj["tokenData"] = token
    if extra:
        obj.update(extra)
    return obj


def decisioning(recommended="APPROVED", device="5", account="5", phone="5"):
    return {"recommendedDecision": recommended, "recommendationStandardVersion": "1.0.0",
            "deviceScore": device, "accountScore": account, "phoneNumberScore": phone,
            "accountLifeTime": "24", "recommendationReasons": []}


DEVICE = {"deviceName": "Test Phone", "serialNumber": "2F6D63", "formFactor": "PHONE", "isoDeviceType": "09",
          "osName": "ANDROID", "osVersion": "14", "storageTechnology": "SERVER", "cardCaptureTechnology": "MANUAL"}


def authorize_body(tur, payload, wpdi=None, correlation=None, request_id=None):
    return {"requestId": request_id or new_request_id(),
            "services": ["DIGITIZATION"],
            "correlationId": correlation or ("D" + new_request_id()[:11]),
            "tokenRequestorId": "50110030273",
            "walletId": "216",
            "paymentAppInstanceId": hex_id(48),
            "accountIdHash": hex_id(64),
            "mobileNumberSuffix": "1234",
            "activeTokenCount": "0",
            "deviceInfo": dict(DEVICE),
            "walletProviderDecisioningInfo": wpdi or decisioning(),
            "tokenType": "CLOUD",
            "fundingAccountInfo": {"tokenUniqueReference": tur,
                                   "panUniqueReference": "FWSPMC000000000" + hex_id(33),
                                   "encryptedPayload": payload}}


# ---------------------------------------------------------------- the run

class Context:
    pass


class _Abort(Exception):
    pass


def is_decision(status, body):
    return status == 200 and isinstance(body, dict) and "decision" in body and "errorCode" not in body


def expect_error_shape(status, body, what):
    expect(status < 500, "%s answered HTTP %d (a 5xx)" % (what, status))
    expect(isinstance(body, dict), "%s answered no JSON object (HTTP %d)" % (what, status))
    expect("decision" not in body and "activationMethods" not in body,
           "%s got a decision: %s" % (what, json.dumps(body)[:200]))
    expect(isinstance(body.get("errorCode"), str) and body["errorCode"],
           "%s: no errorCode in %s (HTTP %d)" % (what, json.dumps(body)[:200], status))
    expect(isinstance(body.get("errorDescription"), str) and body["errorDescription"],
           "%s: no errorDescription (HTTP %d)" % (what, status))
    return "HTTP %d errorCode=%s" % (status, body["errorCode"])


def setup(c, r, args):
    c.pki = pki.make_all(c.tmp)
    out = run_cli(args.provisio, ["tenants", "create", "--name", "MDES Blackbox Bank",
                                  "--database", os.path.join(c.tmp, "provisio.sqlite")])
    t = json.loads(out)
    c.tenant_id, c.api_key = t["tenant_id"], t["api_key"]
    return "tenant %s" % c.tenant_id


def start_server(c, r, args, with_mdes):
    c.server = ProvisioServer(args.provisio, c.tmp, c.pki, with_mdes=with_mdes)
    c.server.start()
    return "http :%d%s" % (c.server.http_port, (", mdes (mTLS) :%d" % c.server.mdes_port) if with_mdes else "")


def mdes_key(c, args):
    out = run_cli(args.provisio, ["tenants", "mdes-key", "--tenant-id", c.tenant_id,
                                  "--database", c.server.database, "--keys", c.server.keys])
    k = json.loads(out)
    expect(set(k) >= {"public_key_pem", "public_key_fingerprint"}, "printed %s" % sorted(k))
    c.mdes_public = serialization.load_pem_public_key(k["public_key_pem"].encode())
    c.fingerprint = k["public_key_fingerprint"]
    expect(isinstance(c.mdes_public, rsa.RSAPublicKey), "not an RSA key")
    expect(32 <= len(c.fingerprint) <= 64 and all(ch in "0123456789abcdefABCDEF" for ch in c.fingerprint),
           "fingerprint %r is not 32-64 hex characters (Issuer Outbound 2.0.33)" % c.fingerprint)
    return "RSA-%d, fingerprint %s..." % (c.mdes_public.key_size, c.fingerprint[:16])


def fingerprint_rule(c):
    mine256 = mdes_crypto.fingerprint_sha256(c.mdes_public)
    mine1 = mdes_crypto.fingerprint_sha1(c.mdes_public)
    fp = c.fingerprint.lower()
    if fp == mine256:
        return "SHA-256 of DER SubjectPublicKeyInfo (this client's reading)"
    expect(fp == mine1, "the printed fingerprint is neither SHA-256 nor SHA-1 of the DER SubjectPublicKeyInfo")
    return "SHA-1 of DER SubjectPublicKeyInfo (differs from this client's SHA-256 reading)"


def create_cards(c):
    key = c.api_key
    c.cards = {}
    for name, month, year in (("good", 12, 2030), ("yellow", 11, 2031), ("closed", 10, 2029), ("cs", 9, 2032)):
        pan = luhn_pan("5")
        st, card = c.server.api("POST", "/v1/cards", {"customer_ref": "cust_" + name, "pan": pan,
                                                      "expiry_month": month, "expiry_year": year,
                                                      "cardholder_name": "Jane Tester"}, key)
        expect(st in (200, 201), "POST /v1/cards answered %d: %s" % (st, card))
        c.cards[name] = {"id": card["id"], "pan": pan, "month": month, "year": year}
    st, body = c.server.api("POST", "/v1/cards/%s/close" % c.cards["closed"]["id"], {}, key)
    expect(st == 200, "closing a card answered %d: %s" % (st, body))
    # [PD] leaves activationMethods out when the issuer has none to offer; Provisio offers a
    # call centre, an automated line and the app only once the issuer sets them (its served
    # openapi.yaml, ActivationMethodSettings), so the yellow checks below set all three.
    st, body = c.server.api("PUT", "/v1/settings/activation-methods",
                            {"customer_service_phone_number": "1-800-555-0100",
                             "automated_phone_number": "+1 800 555 0199", "app_identifier": "com.example.bank"}, key)
    expect(st == 200, "PUT /v1/settings/activation-methods answered %d: %s" % (st, body))
    c.unknown_pan = luhn_pan("5")
    c.all_pans = [v["pan"] for v in c.cards.values()] + [c.unknown_pan]
    c.webhooks = WebhookReceiver().start()
    st, body = c.server.api("POST", "/v1/webhook-endpoints",
                            {"url": "http://127.0.0.1:%d/hook" % c.webhooks.port, "events": ["token.otp_requested"]},
                            key)
    expect(st in (200, 201), "webhook endpoint answered %d: %s" % (st, body))
    c.webhook_secret = body.get("secret")
    return "4 cards (one closed), otp webhook on :%d" % c.webhooks.port


def payload_for(c, card, mode="GCM", wrap="SHA256", bits=128, month=None, pan=None, **kw):
    pt = funding_plaintext(pan or card["pan"], month or card["month"], card["year"], **kw)
    return mdes_crypto.encrypt_payload(pt, c.mdes_public, c.fingerprint, mode, wrap, bits)


def authorize(c, card, tur=None, wpdi=None, **kw):
    tur = tur or new_tur()
    body = authorize_body(tur, payload_for(c, card, **kw), wpdi)
    st, ans = c.mdes.post("authorizeService", body)
    return tur, body, st, ans


def tls_refused(c, cert, key, label):
    """No HTTP answer may come back. With TLS 1.2 the refusal must come in the handshake
    itself; with TLS 1.3 the client's handshake completes before the server has checked the
    client's certificate, so the server's alert shows on the first read."""
    results = []
    for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
        ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=c.pki["ca.pem"])
        ctx.minimum_version = ctx.maximum_version = version
        if cert:
            ctx.load_cert_chain(cert, key)
        raw = socket.create_connection(("127.0.0.1", c.server.mdes_port), timeout=10)
        name = version.name.replace("v", " ").replace("_", ".")
        try:
            tls = ctx.wrap_socket(raw, server_hostname="127.0.0.1", do_handshake_on_connect=False)
            try:
                tls.do_handshake()
            except (ssl.SSLError, ConnectionError, OSError) as e:
                results.append("%s: refused in the handshake (%s)" % (name, getattr(e, "reason", None) or type(e).__name__))
                continue
            expect(version == ssl.TLSVersion.TLSv1_3,
                   "%s: the TLS 1.2 handshake completed without a valid client certificate" % label)
            try:
                tls.sendall(("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Content-Length: 2\r\nConnection: close\r\n\r\n{}" % c.mdes.path("authorizeService")).encode())
                data = tls.recv(4096)
            except (ssl.SSLError, ConnectionError, OSError) as e:
                results.append("%s: alert on first read (%s)" % (name, getattr(e, "reason", None) or type(e).__name__))
                continue
            expect(not data, "%s: the listener answered: %r" % (name, data[:60]))
            results.append("%s: closed without an answer" % name)
        finally:
            raw.close()
    return "; ".join(results)


def tls_accepted(c):
    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=c.pki["ca.pem"])
    ctx.load_cert_chain(c.pki["client.pem"], c.pki["client-key.pem"])
    with socket.create_connection(("127.0.0.1", c.server.mdes_port), timeout=10) as raw:
        with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            return "%s, %s; server certificate verified against the test CA" % (tls.version(), tls.cipher()[0])


def check_variants(c, r):
    c.approved = []
    for mode, wrap, bits in mdes_crypto.variants():
        name = mdes_crypto.variant_name(mode, wrap, bits)

        def one():
            tur, body, st, ans = authorize(c, c.cards["good"], mode=mode, wrap=wrap, bits=bits)
            expect(is_decision(st, ans), "HTTP %d %s (tokenUniqueReference %s, requestId %s)" % (
                st, json.dumps(ans)[:240], tur, body["requestId"]))
            expect(ans["decision"] == "APPROVED", "decision %s (%s)" % (ans["decision"], json.dumps(ans)[:200]))
            expect(isinstance(ans.get("responseId"), str) and 1 <= len(ans["responseId"]) <= 64, "no responseId")
            expect(set(ans.get("services", [])) <= {"DIGITIZATION"}, "services %r" % ans.get("services"))
            c.approved.append(tur)
            return "APPROVED"
        r.check("authorizeService %s -> APPROVED" % name, one)


def check_declines(c, r):
    def wrong_expiry():
        card = dict(c.cards["good"])
        tur, body, st, ans = authorize(c, card, month=(card["month"] % 12) + 1)
        expect(is_decision(st, ans), "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        expect(ans["decision"] == "DECLINED", "decision %s" % ans["decision"])
        drc = ans.get("declineReasonCode")
        expect(drc is None or drc in DECLINE_REASONS, "declineReasonCode %r is not in the document's list" % drc)
        return "DECLINED, declineReasonCode=%s" % drc

    def unknown_card():
        card = {"pan": c.unknown_pan, "month": 12, "year": 2030}
        tur, body, st, ans = authorize(c, card, mode="CBC", wrap=None, bits=256)
        expect(is_decision(st, ans), "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        expect(ans["decision"] == "DECLINED", "decision %s" % ans["decision"])
        drc = ans.get("declineReasonCode")
        expect(drc is None or drc in DECLINE_REASONS, "declineReasonCode %r is not in the document's list" % drc)
        return "DECLINED, declineReasonCode=%s" % drc

    def closed_card():
        tur, body, st, ans = authorize(c, c.cards["closed"], mode="GCM", wrap="SHA512", bits=256)
        expect(is_decision(st, ans), "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        expect(ans["decision"] == "DECLINED", "decision %s" % ans["decision"])
        drc = ans.get("declineReasonCode")
        expect(drc is None or drc in DECLINE_REASONS, "declineReasonCode %r is not in the document's list" % drc)
        return "DECLINED, declineReasonCode=%s" % drc

    r.check("authorizeService wrong expiry -> DECLINED", wrong_expiry)
    r.check("authorizeService unknown card -> DECLINED", unknown_card)
    r.check("authorizeService closed card -> DECLINED", closed_card)


def check_doc_options(c, r):
    def cbc_no_iv():
        tur = new_tur()
        pt = funding_plaintext(c.cards["good"]["pan"], c.cards["good"]["month"], c.cards["good"]["year"])
        p = mdes_crypto.encrypt_payload(pt, c.mdes_public, c.fingerprint, "CBC", "SHA256", 128, send_iv=False)
        st, ans = c.mdes.post("authorizeService", authorize_body(tur, p))
        expect(is_decision(st, ans), "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        expect(ans["decision"] == "APPROVED", "decision %s" % ans["decision"])
        return "APPROVED with the zero IV the document assumes"

    def upper_hex_and_unknown_fields():
        tur = new_tur()
        pt = funding_plaintext(c.cards["good"]["pan"], c.cards["good"]["month"], c.cards["good"]["year"],
                               extra={"someFutureField": "x"})
        p = mdes_crypto.encrypt_payload(pt, c.mdes_public, c.fingerprint.upper(), "GCM", "SHA512", 128)
        for f in ("encryptedData", "encryptedKey", "iv", "tag", "aad"):
            p[f] = p[f].upper()
        body = authorize_body(tur, p)
        body["someFutureTopLevelField"] = {"a": 1}
        body["deviceInfo"]["formFactor"] = "VIRTUAL_REALITY_HEADSET"
        body["deviceInfo"]["someFutureDeviceField"] = "y"
        body["walletProviderDecisioningInfo"]["recommendationReasons"] = ["SOME_FUTURE_REASON"]
        st, ans = c.mdes.post("authorizeService", body)
        expect(is_decision(st, ans), "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        return "decision %s" % ans["decision"]

    def timestamp_forms():
        out = []
        for label, ts in (("+01:00 offset, no fraction",
                           (now_utc() + datetime.timedelta(minutes=30)).astimezone(
                               datetime.timezone(datetime.timedelta(hours=1))).strftime("%Y-%m-%dT%H:%M:%S+01:00")),
                          ("-07:00 offset, 1-digit fraction",
                           (now_utc() + datetime.timedelta(minutes=30)).astimezone(
                               datetime.timezone(datetime.timedelta(hours=-7))).strftime("%Y-%m-%dT%H:%M:%S.5-07:00")),
                          ("Z, no fraction", (now_utc() + datetime.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%SZ"))):
            card = c.cards["good"]
            pt = funding_plaintext(card["pan"], card["month"], card["year"])
            pt["dataValidUntilTimestamp"] = ts
            p = mdes_crypto.encrypt_payload(pt, c.mdes_public, c.fingerprint, "GCM", "SHA256", 128)
            st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
            expect(is_decision(st, ans), "%s (%s): HTTP %d %s" % (label, ts, st, json.dumps(ans)[:200]))
            out.append(label)
        return "accepted: " + "; ".join(out)

    def luhn_digits_tur():
        assert has_card_like_digits(TUR_WITH_LUHN_DIGITS)
        tur, body, st, ans = authorize(c, c.cards["good"], tur=TUR_WITH_LUHN_DIGITS)
        expect(is_decision(st, ans), "HTTP %d %s for %s" % (st, json.dumps(ans)[:200], TUR_WITH_LUHN_DIGITS))
        return "decision %s" % ans["decision"]

    def sha1_fingerprint():
        fp1 = mdes_crypto.fingerprint_sha1(c.mdes_public)
        card = c.cards["good"]
        p = mdes_crypto.encrypt_payload(funding_plaintext(card["pan"], card["month"], card["year"]),
                                        c.mdes_public, fp1, "CBC", "SHA512", 256)
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        expect(is_decision(st, ans), "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        return "decision %s for the 40-character SHA-1 fingerprint" % ans["decision"]

    r.check("authorizeService CBC without iv (zero IV)", cbc_no_iv)
    r.check("authorizeService publicKeyFingerprint as SHA-1 of the key (the document's 40-character form)",
            sha1_fingerprint)
    r.check("authorizeService a tokenUniqueReference whose digits pass a Luhn check", luhn_digits_tur)
    r.check("authorizeService dataValidUntilTimestamp in each ISO 8601 form the document allows", timestamp_forms)
    r.check("authorizeService upper-case hex and unknown fields accepted", upper_hex_and_unknown_fields)


def check_bad_input(c, r):
    good = c.cards["good"]

    def tampered_tag():
        p = payload_for(c, good, "GCM", "SHA256", 128)
        p["tag"] = ("%02x" % (int(p["tag"][:2], 16) ^ 0x01)) + p["tag"][2:]
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        return expect_error_shape(st, ans, "tampered tag")

    def tampered_aad():
        p = payload_for(c, good, "GCM", "SHA512", 256)
        p["aad"] = ("%02x" % (int(p["aad"][:2], 16) ^ 0x80)) + p["aad"][2:]
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        return expect_error_shape(st, ans, "tampered aad")

    def unknown_fingerprint():
        p = payload_for(c, good)
        p["publicKeyFingerprint"] = secrets.token_hex(32)
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        return expect_error_shape(st, ans, "unknown fingerprint")

    def expired():
        p = payload_for(c, good, valid_for=datetime.timedelta(minutes=-5))
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        return expect_error_shape(st, ans, "expired dataValidUntilTimestamp")

    def malformed_json():
        st, ans = c.mdes.post_raw("authorizeService", b'{"requestId": "1", "services": [')
        return expect_error_shape(st, ans, "malformed JSON")

    def missing_payload():
        body = authorize_body(new_tur(), payload_for(c, good))
        del body["fundingAccountInfo"]["encryptedPayload"]
        st, ans = c.mdes.post("authorizeService", body)
        return expect_error_shape(st, ans, "missing encryptedPayload")

    def duplicate_request_id():
        rid = new_request_id()
        st1, a1 = c.mdes.post("authorizeService", authorize_body(new_tur(), payload_for(c, good), request_id=rid))
        expect(is_decision(st1, a1), "first request: HTTP %d %s" % (st1, json.dumps(a1)[:200]))
        st2, a2 = c.mdes.post("authorizeService", authorize_body(new_tur(), payload_for(c, good), request_id=rid))
        return expect_error_shape(st2, a2, "reused requestId")

    def far_future():
        p = payload_for(c, good, valid_for=datetime.timedelta(days=31))
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        return expect_error_shape(st, ans, "dataValidUntilTimestamp 31 days ahead")

    def sha1_oaep():
        pt = funding_plaintext(good["pan"], good["month"], good["year"])
        p = mdes_crypto.encrypt_payload(pt, c.mdes_public, c.fingerprint, "GCM", "SHA256", 128)
        p["oaepHashingAlgorithm"] = "SHA1XX"
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        return expect_error_shape(st, ans, "oaepHashingAlgorithm outside SHA256/SHA512")

    def no_padding_oracle():
        gcm = payload_for(c, good, "GCM", "SHA256", 128)
        gcm["tag"] = ("%02x" % (int(gcm["tag"][:2], 16) ^ 0x01)) + gcm["tag"][2:]
        st1, a1 = c.mdes.post("authorizeService", authorize_body(new_tur(), gcm))
        cbc = payload_for(c, good, "CBC", "SHA256", 128)
        data = bytearray(bytes.fromhex(cbc["encryptedData"]))
        data[-17] ^= 0x01  # flips a bit of the last plaintext byte: the padding breaks
        cbc["encryptedData"] = bytes(data).hex()
        st2, a2 = c.mdes.post("authorizeService", authorize_body(new_tur(), cbc))
        expect_error_shape(st2, a2, "CBC with broken padding")
        expect((st1, a1.get("errorCode"), a1.get("errorDescription")) == (st2, a2.get("errorCode"), a2.get("errorDescription")),
               "a bad tag and bad padding are told apart: %s / %s" % (json.dumps(a1)[:120], json.dumps(a2)[:120]))
        return "same status, errorCode and errorDescription (%s)" % a2["errorCode"]

    def unknown_tenant():
        other = MDESClient(c.server.mdes_port, "ten_" + secrets.token_hex(10), c.pki["ca.pem"],
                           c.pki["client.pem"], c.pki["client-key.pem"])
        st, ans = other.post("authorizeService", authorize_body(new_tur(), payload_for(c, good)))
        return expect_error_shape(st, ans, "unknown tenant in the path")

    r.check("bad input: tampered GCM tag -> error shape, no decision", tampered_tag)
    r.check("bad input: dataValidUntilTimestamp > 30 days ahead -> error shape", far_future)
    r.check("bad input: unknown oaepHashingAlgorithm -> error shape", sha1_oaep)
    r.check("bad input: broken CBC padding answers like a bad GCM tag (no padding oracle)", no_padding_oracle)
    r.check("bad input: unknown tenant in the path -> error shape", unknown_tenant)
    r.check("bad input: tampered GCM aad -> error shape, no decision", tampered_aad)
    r.check("bad input: unknown publicKeyFingerprint -> error shape", unknown_fingerprint)
    r.check("bad input: expired dataValidUntilTimestamp -> error shape", expired)
    r.check("bad input: malformed JSON -> error shape", malformed_json)
    r.check("bad input: missing encryptedPayload -> error shape", missing_payload)
    def long_request_id():
        body = authorize_body(new_tur(), payload_for(c, good), request_id="1" * 65)
        st, ans = c.mdes.post("authorizeService", body)
        return expect_error_shape(st, ans, "a 65-character requestId")

    def unknown_token_validate():
        st, ans = c.mdes.post("validateActivationCode", {"requestId": new_request_id(), "tokenUniqueReference": new_tur(),
                                                         "correlationId": "D12345678901", "activationCode": "123456"})
        return expect_error_shape(st, ans, "validateActivationCode for an unknown token")

    r.check("bad input: reused requestId -> error shape (issue 23)", duplicate_request_id)
    r.check("bad input: requestId over 64 characters -> error shape", long_request_id)
    r.check("bad input: validateActivationCode for an unknown token -> error shape", unknown_token_validate)
    st, ans = c.mdes.post("getAccountInformation", {"requestId": new_request_id()})
    r.check("getAccountInformation (transit only) -> error shape",
            lambda: expect_error_shape(st, ans, "getAccountInformation"))


def pick_method(methods):
    for m in methods:
        if m.get("type") == "TEXT_TO_CARDHOLDER_NUMBER":
            return m
    return methods[0]


def check_yellow(c, r):
    card = c.cards["yellow"]
    state = {}

    def authorize_yellow():
        wpdi = decisioning("REQUIRE_ADDITIONAL_AUTHENTICATION", device="2", account="4", phone="4")
        tur, body, st, ans = authorize(c, card, wpdi=wpdi, mode="CBC", wrap="SHA512", bits=128)
        expect(is_decision(st, ans), "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        expect(ans["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION", "decision %s" % ans["decision"])
        methods = ans.get("activationMethods") or []
        expect(methods, "no activationMethods with REQUIRE_ADDITIONAL_AUTHENTICATION")
        for m in methods:
            expect(m.get("type") in ACTIVATION_TYPES, "activation method type %r not in the document" % m.get("type"))
            expect(isinstance(m.get("value"), str) and 1 <= len(m["value"]) <= 64, "method value %r" % m.get("value"))
        state.update(tur=tur, correlation=body["correlationId"], methods=methods)
        return "methods: " + ", ".join("%s=%r" % (m["type"], m["value"][:24]) for m in methods)

    ok, _ = r.check("yellow: authorizeService low device score -> REQUIRE_ADDITIONAL_AUTHENTICATION", authorize_yellow)

    def phone_values():
        # [PD] activationMethod: for the *_NUMBER types the value is the (masked) phone number
        # to text or the number for the cardholder to call (example "1-800-BANK-NUMBER").
        numbered = [m for m in state["methods"] if m["type"].endswith("_NUMBER")]
        if not numbered:
            return "no *_NUMBER method offered"
        bad = [m for m in numbered if len(re.findall(r"[0-9]", m["value"])) < 4]
        expect(not bad, "; ".join("%s has value %r, not a phone number" % (m["type"], m["value"]) for m in bad))
        return ", ".join("%s=%r" % (m["type"], m["value"]) for m in numbered)

    if ok:
        r.check("yellow: *_NUMBER activation methods carry a phone number", phone_values)
    if not ok:
        r.skip("yellow: requestActivationMethods / deliver / validate", "no yellow token")
        return

    def ram():
        body = {"requestId": new_request_id(), "services": ["DIGITIZATION"], "correlationId": state["correlation"],
                "tokenRequestorId": "50110030273", "walletId": "216", "tokenType": "CLOUD",
                "deviceInfo": dict(DEVICE),
                "tokenRequestorDecisioningInfo": decisioning("REQUIRE_ADDITIONAL_AUTHENTICATION", device="2"),
                "fundingAccountInfo": {"tokenUniqueReference": state["tur"],
                                       "encryptedPayload": payload_for(c, card, "GCM", None, 256)}}
        st, ans = c.mdes.post("requestActivationMethods", body)
        expect(st == 200 and isinstance(ans, dict) and "errorCode" not in ans, "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        expect(isinstance(ans.get("responseId"), str), "no responseId")
        methods = ans.get("activationMethods")
        expect(isinstance(methods, list) and methods, "activationMethods %r" % methods)
        for m in methods:
            expect(m.get("type") in ACTIVATION_TYPES, "activation method type %r not in the document" % m.get("type"))
        return "methods: " + ", ".join(m["type"] for m in methods)

    def ram_unknown():
        body = {"requestId": new_request_id(), "services": ["DIGITIZATION"], "correlationId": "D" + new_request_id()[:11],
                "tokenType": "CLOUD",
                "fundingAccountInfo": {"tokenUniqueReference": new_tur(),
                                       "encryptedPayload": payload_for(c, card, "CBC", "SHA256", 256,
                                                                       pan=c.unknown_pan)}}
        st, ans = c.mdes.post("requestActivationMethods", body)
        expect(st == 200 and isinstance(ans, dict) and "errorCode" not in ans, "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        expect(ans.get("activationMethods") == [], "activationMethods %r, the document asks for []" % ans.get("activationMethods"))
        return "empty list"

    def watch_methods():
        wpdi = decisioning("REQUIRE_ADDITIONAL_AUTHENTICATION", device="2")
        tur = new_tur()
        body = authorize_body(tur, payload_for(c, card), wpdi)
        body["deviceInfo"]["formFactor"] = "WATCH"
        st, ans = c.mdes.post("authorizeService", body)
        expect(is_decision(st, ans) and ans["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION",
               "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        types = [m["type"] for m in ans.get("activationMethods") or []]
        expect("CARDHOLDER_TO_USE_MOBILE_APP" not in types, "a watch was offered the mobile app: %s" % types)
        return "methods: " + ", ".join(types)

    r.check("yellow: requestActivationMethods -> methods", ram)
    r.check("yellow: a WATCH is not offered the mobile app (issue 23)", watch_methods)
    r.check("yellow: requestActivationMethods unknown card -> []", ram_unknown)

    def deliver(tur, correlation, code, method):
        body = {"requestId": new_request_id(), "tokenUniqueReference": tur, "correlationId": correlation,
                "activationMethod": method}
        if code is not None:
            body["activationCode"] = code
            body["expirationDateTime"] = iso(now_utc() + datetime.timedelta(minutes=10))
        return c.mdes.post("deliverActivationCode", body)

    def validate(tur, correlation, code):
        return c.mdes.post("validateActivationCode", {"requestId": new_request_id(), "tokenUniqueReference": tur,
                                                      "correlationId": correlation, "activationCode": code})

    code = "".join(secrets.choice("0123456789") for _ in range(6))

    def deliver_mdes_code():
        st, ans = deliver(state["tur"], state["correlation"], code, pick_method(state["methods"]))
        expect(st == 200 and isinstance(ans, dict) and "errorCode" not in ans and ans.get("responseId"),
               "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        events = c.webhooks.wait_otp(state["tur"])
        expect(events, "no token.otp_requested webhook for the token")
        got = (events[-1].get("data") or {}).get("code")
        expect(got == code, "the webhook carried code %r, MDES sent %r" % (got, code))
        signed = "no webhook secret to check its signature with"
        if getattr(c, "webhook_secret", None):
            expect(standard_webhook_valid(c.webhook_secret, events[-1]["_headers"], events[-1]["_raw"]),
                   "the otp webhook's Standard Webhooks signature does not verify")
            signed = "signature verified"
        return "relayed to the issuer's otp webhook unchanged, %s" % signed

    def validate_wrong_then_right():
        wrong = "000000" if code != "000000" else "111111"
        st, ans = validate(state["tur"], state["correlation"], wrong)
        expect(st == 200 and ans.get("result") == "INCORRECT_CODE", "wrong code: HTTP %d %s" % (st, json.dumps(ans)[:200]))
        st, ans = validate(state["tur"], state["correlation"], code)
        expect(st == 200 and ans.get("result") == "SUCCESS", "right code: HTTP %d %s" % (st, json.dumps(ans)[:200]))
        return "INCORRECT_CODE, then SUCCESS"

    def nsa():
        body = {"requestId": new_request_id(), "services": ["DIGITIZATION"], "correlationId": state["correlation"],
                "tokenRequestorId": "50110030273", "walletId": "216", "tokenType": "CLOUD",
                "accountPanSuffix": card["pan"][-4:], "serviceRequestDateTime": iso(now_utc()),
                "tokenActivatedDateTime": iso(now_utc()), "decision": "REQUIRE_ADDITIONAL_AUTHENTICATION",
                "decisionMadeBy": "ELIGIBILITY_REQUEST", "numberOfActivationAttempts": 1, "deviceInfo": dict(DEVICE),
                "fundingAccountInfo": {"tokenUniqueReference": state["tur"],
                                       "encryptedPayload": mdes_crypto.encrypt_payload(
                                           funding_plaintext(card["pan"], card["month"], card["year"],
                                                             token={"token": luhn_pan("5"), "expiryMonth": "08",
                                                                    "expiryYear": "29", "sequenceNumber": "01"}),
                                           c.mdes_public, c.fingerprint, "GCM", "SHA256", 128)}}
        st, ans = c.mdes.post("notifyServiceActivated", body)
        expect(st == 200 and isinstance(ans, dict) and "errorCode" not in ans and ans.get("responseId"),
               "HTTP %d %s" % (st, json.dumps(ans)[:240]))
        tok = token_by_ref(c, card["id"], state["tur"])
        expect(tok and tok["state"] == "active", "token state %s" % (tok or {}).get("state"))
        return "token active"

    ok1, _ = r.check("yellow: deliverActivationCode (MDES's code) -> otp webhook", deliver_mdes_code)
    if ok1:
        r.check("yellow: validateActivationCode wrong, then right", validate_wrong_then_right)
        r.check("yellow: notifyServiceActivated -> token active", nsa)

    def second_yellow():
        wpdi = decisioning("REQUIRE_ADDITIONAL_AUTHENTICATION", device="2")
        tur, body, st, ans = authorize(c, card, wpdi=wpdi)
        expect(is_decision(st, ans) and ans["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION",
               "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        return tur, body["correlationId"], ans.get("activationMethods") or [{"type": "TEXT_TO_CARDHOLDER_NUMBER",
                                                                              "value": "***-***-1234"}]

    def retries_exceeded():
        tur, corr, methods = second_yellow()
        good_code = "".join(secrets.choice("123456789") for _ in range(6))
        st, ans = deliver(tur, corr, good_code, pick_method(methods))
        expect(st == 200 and "errorCode" not in ans, "deliver: HTTP %d %s" % (st, json.dumps(ans)[:200]))
        results = []
        for _ in range(3):
            st, ans = validate(tur, corr, "000000")
            results.append(ans.get("result") if isinstance(ans, dict) else None)
        expect(results[:2] == ["INCORRECT_CODE", "INCORRECT_CODE"] and results[2] == "INCORRECT_CODE_RETRIES_EXCEEDED",
               "results %r" % results)
        st, ans = validate(tur, corr, good_code)
        expect(ans.get("result") != "SUCCESS", "the right code still succeeded after the retries were exhausted")
        return "%s; then the right code -> %s" % (", ".join(results), ans.get("result") or ans.get("errorCode"))

    def issuer_generated():
        tur, corr, methods = second_yellow()
        st, ans = deliver(tur, corr, None, pick_method(methods))
        expect(st == 200 and "errorCode" not in ans, "deliver: HTTP %d %s" % (st, json.dumps(ans)[:200]))
        events = c.webhooks.wait_otp(tur)
        expect(events, "no token.otp_requested webhook")
        gen = (events[-1].get("data") or {}).get("code")
        expect(isinstance(gen, str) and gen, "the webhook carried no code")
        st, ans = validate(tur, corr, gen)
        expect(st == 200 and ans.get("result") == "SUCCESS", "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        return "issuer-generated code of %d characters validated" % len(gen)

    def alphanumeric_code():
        tur, corr, methods = second_yellow()
        code8 = "A1B2C3D4"  # the document's example form: 1-32 characters, not only digits
        st, ans = deliver(tur, corr, code8, pick_method(methods))
        expect(st == 200 and "errorCode" not in ans, "deliver: HTTP %d %s" % (st, json.dumps(ans)[:200]))
        events = c.webhooks.wait_otp(tur)
        expect(events and (events[-1].get("data") or {}).get("code") == code8, "the webhook did not carry %s" % code8)
        st, ans = validate(tur, corr, code8)
        expect(st == 200 and ans.get("result") == "SUCCESS", "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        return "relayed and validated"

    r.check("yellow: 3 wrong codes -> INCORRECT_CODE_RETRIES_EXCEEDED", retries_exceeded)
    r.check("yellow: an alphanumeric activationCode (A1B2C3D4)", alphanumeric_code)
    r.check("yellow: deliverActivationCode without a code -> issuer generates, validates", issuer_generated)


def token_by_ref(c, card_id, tur):
    st, body = c.server.api("GET", "/v1/tokens?card_id=%s&limit=100" % card_id, key=c.api_key)
    if st != 200:
        raise RuntimeError("GET /v1/tokens answered %d: %s" % (st, body))
    for t in body.get("data") or body.get("tokens") or body.get("items") or []:
        if t.get("network_token_ref") == tur:
            return t
    return None


def check_recorded(c, r):
    def recorded():
        missing = [t for t in c.approved if not token_by_ref(c, c.cards["good"]["id"], t)]
        expect(not missing, "%d of %d approved tokens not found by network_token_ref" % (len(missing), len(c.approved)))
        states = {token_by_ref(c, c.cards["good"]["id"], t)["state"] for t in c.approved}
        return "%d tokens, states %s" % (len(c.approved), sorted(states))
    r.check("approved tokens recorded under tokenUniqueReference", recorded)

    def ntu():
        tur = c.approved[1]
        body = {"requestId": new_request_id(), "reasonCode": "STATUS_UPDATE",
                "tokens": [{"tokenUniqueReference": tur, "status": "SUSPENDED", "suspendedBy": ["TOKEN_REQUESTOR"]}]}
        st, ans = c.mdes.post("notifyTokenUpdated", body)
        expect(st == 200 and "errorCode" not in ans and ans.get("responseId"), "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        s1 = token_by_ref(c, c.cards["good"]["id"], tur)["state"]
        body = {"requestId": new_request_id(), "reasonCode": "STATUS_UPDATE",
                "tokens": [{"tokenUniqueReference": tur, "status": "ACTIVE"}]}
        st, ans = c.mdes.post("notifyTokenUpdated", body)
        expect(st == 200 and "errorCode" not in ans, "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        s2 = token_by_ref(c, c.cards["good"]["id"], tur)["state"]
        expect((s1, s2) == ("suspended", "active"), "states after SUSPENDED, ACTIVE: %s, %s" % (s1, s2))
        return "SUSPENDED -> suspended, ACTIVE -> active"
    def ntu_deactivated():
        tur = c.approved[2]
        body = {"requestId": new_request_id(), "reasonCode": "STATUS_UPDATE",
                "tokens": [{"tokenUniqueReference": tur, "status": "DEACTIVATED"}]}
        st, ans = c.mdes.post("notifyTokenUpdated", body)
        expect(st == 200 and "errorCode" not in ans and ans.get("responseId"), "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        s1 = token_by_ref(c, c.cards["good"]["id"], tur)["state"]
        expect(s1 == "deleted", "state after DEACTIVATED: %s" % s1)
        return "DEACTIVATED -> deleted"

    if len(c.approved) >= 3:
        r.check("notifyTokenUpdated STATUS_UPDATE suspend/activate", ntu)
        r.check("notifyTokenUpdated STATUS_UPDATE DEACTIVATED", ntu_deactivated)


def network_token_fallback(c, recommendation="approve"):
    """Without the MDES listener, a token for the Customer Service check comes through
    Provisio's own network API (openapi.yaml: /v1/network/token-requests)."""
    if not getattr(c, "network_key", None):
        st, body = c.server.api("POST", "/v1/network-keys", {}, c.api_key)
        expect(st in (200, 201), "POST /v1/network-keys answered %d: %s" % (st, body))
        c.network_key = body["network_key"]
    nk = c.network_key
    card = c.cards["cs"]
    tur = new_tur()
    st, body = c.server.api("POST", "/v1/network/token-requests",
                            {"pan": card["pan"], "expiry_month": card["month"], "expiry_year": card["year"],
                             "wallet": "google_pay", "network_token_ref": tur,
                             "risk": {"device_score": 5, "account_score": 5, "wallet_recommendation": recommendation}}, nk)
    expect(st == 200 and body.get("state") in ("active", "pending_verification"), "token request answered %d: %s" % (st, body))
    return tur


def check_customer_service(c, r, via_mdes):
    signing_key = rsa.generate_private_key(65537, 2048)
    consumer_key = "mdes-blackbox-" + secrets.token_hex(8) + "!abc"
    standin = cs_standin.CustomerServiceStandIn(signing_key.public_key(), consumer_key).start()
    c.standin = standin
    pem = signing_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()).decode()

    def settings():
        st, body = c.server.api("PUT", "/v1/settings/network",
                                {"dialect": "mdes", "customer_service_url": standin.url,
                                 "oauth_consumer_key": consumer_key, "oauth_signing_key_pem": pem}, c.api_key)
        expect(st == 200, "PUT /v1/settings/network answered %d: %s" % (st, body))
        expect("oauth_signing_key_pem" not in json.dumps(body) and "PRIVATE KEY" not in json.dumps(body),
               "the signing key came back")
        return "dialect %s, customer_service_url %s" % (body.get("dialect"), standin.url)

    ok, _ = r.check("customer service: PUT /v1/settings/network (mdes)", settings)
    if not ok:
        return

    def get_token():
        card_id = c.cards["cs"]["id"]
        if via_mdes:
            tur, body, st, ans = authorize(c, c.cards["cs"], mode="CBC", wrap="SHA256", bits=256)
            expect(is_decision(st, ans) and ans["decision"] == "APPROVED", "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        else:
            tur = network_token_fallback(c)
        tok = token_by_ref(c, card_id, tur)
        expect(tok is not None, "token not found")
        c.cs_token = (tok["id"], tur)
        return "token %s (%s)" % (tok["id"], "authorizeService" if via_mdes else "Provisio network API fallback")

    ok, _ = r.check("customer service: an active token", get_token)
    if not ok:
        return
    token_id, tur = c.cs_token

    def transition(action, reason, operation, want_reason, want_state):
        before = len(standin.records_for(operation))
        st, body = c.server.api("POST", "/v1/tokens/%s/transitions" % token_id,
                                {"action": action, "reason_code": reason}, c.api_key)
        recs = standin.records_for(operation)[before:]
        expect(recs, "no POST /v2/%s reached the stand-in (Provisio answered %d: %s)" % (operation, st, json.dumps(body)[:200]))
        rec = recs[0]
        expect(rec.verified, "OAuth verification failed: " + rec.reason)
        ctype = {k.lower(): v for k, v in rec.headers.items()}.get("content-type", "")
        expect(ctype.split(";")[0].strip().lower() == "application/json", "Content-Type %r, [CS] says application/json" % ctype)
        expect(not rec.shape_problems, "body: " + "; ".join(rec.shape_problems))
        inner = rec.body[cs_standin.OPERATIONS[operation][0]]
        expect(inner["TokenUniqueReference"] == tur, "TokenUniqueReference %r" % inner["TokenUniqueReference"])
        expect(inner.get("ReasonCode") == want_reason, "ReasonCode %r, expected %r for %s" %
               (inner.get("ReasonCode"), want_reason, reason))
        expect(st == 200, "Provisio answered %d: %s" % (st, json.dumps(body)[:200]))
        expect(body.get("state") == want_state, "token state %s" % body.get("state"))
        return "POST %s/v2/%s signature and body hash verified, ReasonCode %s, AuditInfo %s" % (
            standin.base_path, operation, inner.get("ReasonCode"),
            "/".join(inner["AuditInfo"].get(k, "?")[:20] for k in ("UserId", "UserName")))

    def activate():
        card = c.cards["cs"]
        if via_mdes:
            wpdi = decisioning("REQUIRE_ADDITIONAL_AUTHENTICATION", device="2")
            ytur, body, st, ans = authorize(c, card, wpdi=wpdi, mode="GCM", wrap=None, bits=128)
            expect(is_decision(st, ans) and ans["decision"] == "REQUIRE_ADDITIONAL_AUTHENTICATION",
                   "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        else:
            ytur = network_token_fallback(c, "require_verification")
        tok = token_by_ref(c, card["id"], ytur)
        expect(tok and tok["state"] == "pending_verification", "token %s" % (tok or {}).get("state"))
        before = len(standin.records_for("token/activate"))
        st, body = c.server.api("POST", "/v1/tokens/%s/activation" % tok["id"],
                                {"mode": "customer_service", "reason_code": "agent_verified"}, c.api_key)
        recs = standin.records_for("token/activate")[before:]
        expect(recs, "no POST /v2/token/activate reached the stand-in (Provisio answered %d: %s)" % (st, json.dumps(body)[:200]))
        expect(recs[0].verified, "OAuth verification failed: " + recs[0].reason)
        expect(not recs[0].shape_problems, "body: " + "; ".join(recs[0].shape_problems))
        inner = recs[0].body["TokenActivateRequest"]
        expect(inner["TokenUniqueReference"] == ytur, "TokenUniqueReference %r" % inner["TokenUniqueReference"])
        expect(inner["ReasonCode"] == "C", "ReasonCode %r for an agent's activation" % inner["ReasonCode"])
        expect(st == 200 and body.get("state") == "active", "Provisio answered %d: %s" % (st, json.dumps(body)[:200]))
        return "POST %s/v2/token/activate verified, ReasonCode C, token active" % standin.base_path

    r.check("customer service: agent activation -> /v2/token/activate, OAuth verified", activate)
    r.check("customer service: suspend -> /v2/token/suspend, OAuth verified",
            transition, "suspend", "device_lost", "token/suspend", "L", "suspended")
    r.check("customer service: resume -> /v2/token/unsuspend, OAuth verified",
            transition, "resume", "device_found", "token/unsuspend", "F", "active")

    def all_verified_so_far():
        bad = [x for x in standin.records if not x.verified]
        expect(not bad, "unverified: " + "; ".join("%s: %s" % (x.operation, x.reason) for x in bad))
        return "%d requests (%s), every one verified" % (len(standin.records),
                                                          ", ".join(sorted({x.operation for x in standin.records})))
    r.check("customer service: every request so far verified", all_verified_so_far)

    def refused_signature():
        other = rsa.generate_private_key(65537, 2048).public_key()
        real, standin.public_key = standin.public_key, other
        try:
            before = len(standin.records_for("token/suspend"))
            st, body = c.server.api("POST", "/v1/tokens/%s/transitions" % token_id,
                                    {"action": "suspend", "reason_code": "fraud"}, c.api_key)
            recs = standin.records_for("token/suspend")[before:]
        finally:
            standin.public_key = real
        expect(recs and not recs[0].verified, "the stand-in did not see an unverifiable request")
        expect(st != 200, "Provisio reported success although MDES refused the signature")
        tok = token_by_ref(c, c.cards["cs"]["id"], tur)
        expect(tok["state"] == "active", "token state %s after a refused suspend" % tok["state"])
        return "stand-in refused (%s); Provisio answered %d %s; token still active" % (
            recs[0].reason[:40], st, (body.get("error") or {}).get("code") if isinstance(body, dict) else "")
    r.check("customer service: a refused signature changes nothing", refused_signature)

    r.check("customer service: delete -> /v2/token/delete, OAuth verified",
            transition, "delete", "customer_request", "token/delete", "D", "deleted")


def check_tenants_apart(c, r, args):
    def other_tenant():
        out = run_cli(args.provisio, ["tenants", "create", "--name", "Other Bank", "--database", c.server.database])
        t = json.loads(out)
        pan = luhn_pan("5")
        c.all_pans.append(pan)
        st, card = c.server.api("POST", "/v1/cards", {"customer_ref": "other", "pan": pan, "expiry_month": 12,
                                                      "expiry_year": 2030, "cardholder_name": "Other"}, t["api_key"])
        expect(st in (200, 201), "other tenant's card: %d %s" % (st, card))
        k = json.loads(run_cli(args.provisio, ["tenants", "mdes-key", "--tenant-id", t["tenant_id"],
                                               "--database", c.server.database, "--keys", c.server.keys]))
        expect(k["public_key_fingerprint"] != c.fingerprint, "two tenants share a key")
        # The other tenant's card, sent to this tenant: no such card here.
        p = mdes_crypto.encrypt_payload(funding_plaintext(pan, 12, 2030), c.mdes_public, c.fingerprint, "GCM", "SHA256", 128)
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        expect(is_decision(st, ans) and ans["decision"] == "DECLINED", "HTTP %d %s" % (st, json.dumps(ans)[:200]))
        # A payload wrapped for the other tenant's key, sent to this tenant: not this tenant's key.
        other_pub = serialization.load_pem_public_key(k["public_key_pem"].encode())
        p = mdes_crypto.encrypt_payload(funding_plaintext(c.cards["good"]["pan"], 12, 2030), other_pub,
                                        k["public_key_fingerprint"], "GCM", "SHA256", 128)
        st, ans = c.mdes.post("authorizeService", authorize_body(new_tur(), p))
        expect_error_shape(st, ans, "a payload for another tenant's key")
        return "the other tenant's card is DECLINED here; its key's payload is refused (%s)" % ans["errorCode"]
    r.check("tenants apart: another tenant's card and key", other_tenant)


def check_database(c, r):
    def no_pan_in_db():
        blobs = b""
        for name in os.listdir(c.tmp):
            if name.startswith("provisio.sqlite"):
                with open(os.path.join(c.tmp, name), "rb") as f:
                    blobs += f.read()
        leaked = [p[-4:] for p in c.all_pans if p.encode() in blobs]
        expect(not leaked, "PANs ending %s are in the SQLite files in clear" % ", ".join(leaked))
        return "%d PANs, none in %d bytes of SQLite files" % (len(c.all_pans), len(blobs))
    r.check("no PAN in clear in the database files", no_pan_in_db)


def check_logs(c, r):
    def no_pan():
        text = c.server.log_text()
        leaked = [p[-4:] for p in c.all_pans if p in text]
        expect(not leaked, "a PAN ending %s appears in the server's output" % ", ".join(leaked))
        return "%d PANs, none in %d bytes of server output" % (len(c.all_pans), len(text))
    r.check("no PAN in the server's output", no_pan)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--provisio", help="path to the provisio binary; without it only the self-tests run")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, database)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    r = Reporter(verbose=args.verbose)
    started = time.monotonic()

    selftest.run(r)
    if not args.provisio:
        ok = r.summary()
        return 0 if ok else 1
    args.provisio = os.path.abspath(args.provisio)

    c = Context()
    c.tmp = tempfile.mkdtemp(prefix="mdes-blackbox-")
    c.server = None
    c.webhooks = None
    c.standin = None
    try:
        def snapshot():
            # A private copy: a rebuild of the shared .build cannot replace the binary mid-run.
            path = os.path.join(c.tmp, "provisio")
            shutil.copy2(args.provisio, path)
            args.provisio = path
            return "%s (%d MB)" % (os.path.basename(args.provisio), os.path.getsize(path) // 1000000)
        ok, _ = r.check("setup: a private copy of the provisio binary", snapshot)
        if not ok:
            raise _Abort()
        ok, _ = r.check("setup: PKI and tenant", setup, c, r, args)
        if not ok:
            raise _Abort()
        with_mdes = True
        ok, _ = r.check("setup: provisio serve with the MDES listener (mutual TLS)", start_server, c, r, args, True)
        if not ok:
            with_mdes = False
            if c.server:
                c.server.stop()
            ok, _ = r.check("setup: provisio serve without the MDES listener (for the Customer Service checks)",
                            start_server, c, r, args, False)
            if not ok:
                raise _Abort()
        ok, _ = r.check("setup: cards and otp webhook", create_cards, c)
        if not ok:
            raise _Abort()
        if with_mdes:
            ok, _ = r.check("tenants mdes-key prints an RSA key and a hex fingerprint", mdes_key, c, args)
            if ok:
                r.check("mdes-key fingerprint computation", fingerprint_rule, c)
                c.mdes = MDESClient(c.server.mdes_port, c.tenant_id, c.pki["ca.pem"],
                                    c.pki["client.pem"], c.pki["client-key.pem"])
                r.check("mTLS: client certificate from the trusted CA -> accepted", tls_accepted, c)
                r.check("mTLS: no client certificate -> refused", tls_refused, c, None, None, "no client certificate")
                r.check("mTLS: client certificate from another CA -> refused", tls_refused, c,
                        c.pki["rogue.pem"], c.pki["rogue-key.pem"], "untrusted client certificate")
                check_variants(c, r)
                check_declines(c, r)
                check_doc_options(c, r)
                check_bad_input(c, r)
                check_yellow(c, r)
                check_recorded(c, r)
            else:
                with_mdes = False
        else:
            r.skip("Issuer Outbound checks", "no MDES listener")
        if with_mdes:
            check_tenants_apart(c, r, args)
        check_customer_service(c, r, via_mdes=with_mdes)
        check_logs(c, r)
        check_database(c, r)
    except _Abort:
        pass
    finally:
        for part in (c.standin, c.webhooks):
            if part:
                part.stop()
        if c.server:
            c.server.stop()
        if args.keep:
            print("NOTE kept " + c.tmp)
        else:
            shutil.rmtree(c.tmp, ignore_errors=True)
    print("NOTE %.1f s" % (time.monotonic() - started))
    ok = r.summary()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
