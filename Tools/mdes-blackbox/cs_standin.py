"""A minimal stand-in for MDES's Customer Service API (document 2.2.2), on loopback.

It verifies every request with this folder's own OAuth 1.0a code (oauth1.py) against the
public half of the signing key the test handed to Provisio, checks the request body's shape
against the document (TokenSuspendRequest etc.: required fields, lengths, reason codes,
AuditInfo), records what it saw, and answers in the document's response shape. A request
that fails verification is answered 401 in the document's error shape, as the real gateway
would refuse it.
"""

import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import oauth1

# operation -> (request wrapper, response wrapper, allowed ReasonCode values or None)
OPERATIONS = {
    "token/suspend": ("TokenSuspendRequest", "TokenSuspendResponse", set("LSTZ")),
    "token/unsuspend": ("TokenUnsuspendRequest", "TokenUnsuspendResponse", set("FTZ")),
    "token/delete": ("TokenDeleteRequest", "TokenDeleteResponse", set("LSFTCDZ")),
    "token/activate": ("TokenActivateRequest", "TokenActivateResponse", set("AC")),
    "search": ("SearchRequest", "SearchResponse", None),
}


def check_shape(operation, body):
    """Problems with the body against Customer Service 2.2.2; [] when it conforms."""
    problems = []
    wrapper, _, reasons = OPERATIONS[operation]
    if not isinstance(body, dict) or list(body.keys()) != [wrapper]:
        return ["body is not {\"%s\": {...}}" % wrapper]
    inner = body[wrapper]
    if not isinstance(inner, dict):
        return ["%s is not an object" % wrapper]
    tur = inner.get("TokenUniqueReference")
    if not isinstance(tur, str) or not 48 <= len(tur) <= 64:
        problems.append("TokenUniqueReference missing or not 48-64 characters")
    if reasons is not None:
        rc = inner.get("ReasonCode")
        if rc not in reasons:
            problems.append("ReasonCode %r not one of %s" % (rc, "/".join(sorted(reasons))))
    if "CommentText" in inner and not (isinstance(inner["CommentText"], str) and 1 <= len(inner["CommentText"]) <= 500):
        problems.append("CommentText not 1-500 characters")
    audit = inner.get("AuditInfo")
    if not isinstance(audit, dict):
        problems.append("AuditInfo missing")
    else:
        for field, lo, hi in (("UserId", 4, 50), ("UserName", 4, 200), ("Organization", 4, 200)):
            v = audit.get(field)
            if not isinstance(v, str) or not lo <= len(v) <= hi:
                problems.append("AuditInfo.%s missing or not %d-%d characters" % (field, lo, hi))
    return problems


class Record:
    def __init__(self, operation, path, verified, reason, body, shape_problems, headers):
        self.operation = operation
        self.path = path
        self.verified = verified
        self.reason = reason
        self.body = body
        self.shape_problems = shape_problems
        self.headers = headers


class CustomerServiceStandIn:
    def __init__(self, public_key, consumer_key, base_path="/mdes/csapi"):
        self.public_key = public_key
        self.consumer_key = consumer_key
        self.base_path = base_path.rstrip("/")
        self.records = []
        self.seen_nonces = set()
        self.lock = threading.Lock()
        self.token_status = {}  # TUR -> CurrentStatusCode
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _answer(self, status, obj):
                data = json.dumps(obj).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                standin._handle(self, raw)

            def do_GET(self):
                self._answer(404, {"Errors": {"Error": [{"Source": "System", "ReasonCode": "NOT_FOUND",
                                                          "Description": "no such resource"}]}})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self):
        return "http://127.0.0.1:%d%s" % (self.port, self.base_path)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def _handle(self, h, raw):
        path = h.path.split("?", 1)[0]
        prefix = self.base_path + "/v2/"
        operation = path[len(prefix):] if path.startswith(prefix) else None
        host = h.headers.get("Host") or ("127.0.0.1:%d" % self.port)
        url = "http://%s%s" % (host, h.path)
        try:
            oauth1.verify_request("POST", url, raw, h.headers.get("Authorization"), self.public_key,
                                  self.consumer_key, seen_nonces=self.seen_nonces)
            verified, reason = True, "verified"
        except oauth1.VerificationError as e:
            verified, reason = False, str(e)
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            body = None
        problems = check_shape(operation, body) if operation in OPERATIONS else ["unknown operation"]
        rec = Record(operation, path, verified, reason, body, problems, dict(h.headers))
        with self.lock:
            self.records.append(rec)
        if not verified:
            return h._answer(401, {"Errors": {"Error": [{"Source": "Gateway", "ReasonCode": "AUTHENTICATION_FAILED",
                                                         "Description": "OAuth signature verification failed"}]}})
        if operation not in OPERATIONS:
            return h._answer(404, {"Errors": {"Error": [{"Source": "System", "ReasonCode": "NOT_FOUND",
                                                         "Description": "no such operation"}]}})
        if problems:
            return h._answer(400, {"Errors": {"Error": [{"Source": "INPUT", "ReasonCode": "INVALID_FIELD_VALUE",
                                                         "Description": "; ".join(problems)[:256]}]}})
        wrapper, response_wrapper, _ = OPERATIONS[operation]
        tur = body[wrapper]["TokenUniqueReference"]
        if operation == "token/suspend":
            self.token_status[tur] = "S"
        elif operation in ("token/unsuspend", "token/activate"):
            self.token_status[tur] = "A"
        elif operation == "token/delete":
            self.token_status[tur] = "D"
        if operation == "search":
            status = self.token_status.get(tur, "A")
            return h._answer(200, {"SearchResponse": {"Accounts": {"Account": [{
                "Tokens": {"Token": [{"TokenUniqueReference": tur, "CurrentStatusCode": status,
                                      "Suspenders": {}}]}}]}}})
        return h._answer(200, {response_wrapper: {"Token": {"TokenUniqueReference": tur,
                                                            "CommentId": secrets.token_hex(6)}}})

    def records_for(self, operation):
        with self.lock:
            return [r for r in self.records if r.operation == operation]
