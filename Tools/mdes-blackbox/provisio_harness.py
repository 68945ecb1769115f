"""Starting `provisio serve` and talking to its public interfaces: the issuer REST API
(README, docs/api.md, the served /openapi.yaml) and the MDES listener (mutual TLS)."""

import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def clean_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROVISIO_")}
    return env


def run_cli(binary, args, timeout=60):
    p = subprocess.run([binary] + args, capture_output=True, text=True, timeout=timeout, env=clean_env())
    if p.returncode != 0:
        raise RuntimeError("provisio %s exited %d: %s" % (" ".join(args[:2]), p.returncode,
                                                         (p.stderr or p.stdout).strip()[-400:]))
    return p.stdout


class ProvisioServer:
    def __init__(self, binary, workdir, pki_paths=None, with_mdes=True):
        self.binary = binary
        self.workdir = workdir
        self.database = os.path.join(workdir, "provisio.sqlite")
        self.keys = os.path.join(workdir, "keys")
        self.http_port = free_port()
        self.mdes_port = free_port() if with_mdes else None
        self.pki = pki_paths
        self.log_path = os.path.join(workdir, "serve-%d.log" % self.http_port)
        self.proc = None

    def command(self):
        cmd = [self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.http_port),
               "--database", self.database, "--keys", self.keys, "--outbound-allow", "127.0.0.0/8"]
        if self.mdes_port:
            cmd += ["--mdes-port", str(self.mdes_port), "--mdes-tls-cert", self.pki["server.pem"],
                    "--mdes-tls-key", self.pki["server-key.pem"], "--mdes-client-ca", self.pki["ca.pem"]]
        return cmd

    def start(self, timeout=40):
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(self.command(), stdout=self.log, stderr=subprocess.STDOUT,
                                     env=clean_env(), cwd=self.workdir, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("provisio serve exited %d: %s" % (self.proc.returncode, self.log_tail()))
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/health" % self.http_port, timeout=1) as r:
                    if r.status == 200 and (not self.mdes_port or self._mdes_listening()):
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError("provisio serve not ready within %ds: %s" % (timeout, self.log_tail()))

    def _mdes_listening(self):
        try:
            socket.create_connection(("127.0.0.1", self.mdes_port), timeout=0.5).close()
            return True
        except OSError:
            return False

    def log_tail(self, n=600):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")[-n:].strip()
        except OSError:
            return ""

    def log_text(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if getattr(self, "log", None):
            self.log.close()

    # --- the issuer API ---
    def api(self, method, path, body=None, key=None, expect=None):
        data = json.dumps(body).encode("utf-8") if body is not None else None
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.http_port, path), data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if key:
            req.add_header("Authorization", "Bearer " + key)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        try:
            obj = json.loads(raw) if raw else None
        except ValueError:
            obj = {"_raw": raw[:200].decode("utf-8", "replace")}
        if expect is not None and status != expect:
            raise RuntimeError("%s %s answered %d: %s" % (method, path, status, json.dumps(obj)[:300]))
        return status, obj


class MDESClient:
    """Plays MDES: POSTs to the issuer's Pre-Digitization endpoints over mutual TLS."""

    def __init__(self, port, tenant_id, ca_file, cert_file=None, key_file=None):
        self.port = port
        self.tenant_id = tenant_id
        self.ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=ca_file)
        if cert_file:
            self.ctx.load_cert_chain(cert_file, key_file)

    def path(self, operation):
        return "/mdes/%s/issuerServices/1/0/%s" % (self.tenant_id, operation)

    def post_raw(self, operation, raw, timeout=20):
        conn = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.ctx, timeout=timeout)
        try:
            conn.request("POST", self.path(operation), body=raw,
                         headers={"Content-Type": "application/json", "Accept": "application/json"})
            resp = conn.getresponse()
            data = resp.read()
            status = resp.status
        finally:
            conn.close()
        try:
            obj = json.loads(data) if data else None
        except ValueError:
            obj = {"_raw": data[:200].decode("utf-8", "replace")}
        return status, obj

    def post(self, operation, body, timeout=20):
        return self.post_raw(operation, json.dumps(body).encode("utf-8"), timeout)


def standard_webhook_valid(secret, headers, raw):
    """Standard Webhooks (named by Provisio's openapi.yaml): v1 = base64 HMAC-SHA256 over
    "{webhook-id}.{webhook-timestamp}.{body}" keyed with the base64 part of whsec_…"""
    import base64
    import hashlib
    import hmac
    key = base64.b64decode(secret.split("_", 1)[1])
    msg = ("%s.%s." % (headers.get("webhook-id"), headers.get("webhook-timestamp"))).encode() + raw
    want = base64.b64encode(hmac.new(key, msg, hashlib.sha256).digest()).decode()
    sigs = [p.split(",", 1)[1] for p in (headers.get("webhook-signature") or "").split() if p.startswith("v1,")]
    return any(hmac.compare_digest(want, s) for s in sigs)


class WebhookReceiver:
    """Receives Provisio's token.otp_requested webhooks and answers the channels it "sent" to."""

    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    event = json.loads(raw)
                except ValueError:
                    event = None
                if isinstance(event, dict):
                    event["_headers"] = {k.lower(): v for k, v in self.headers.items()}
                    event["_raw"] = raw
                with receiver.lock:
                    receiver.events.append(event)
                answer = json.dumps({"channels": [{"type": "sms", "masked": "***-***-1234"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def otp_events(self, network_token_ref=None):
        with self.lock:
            out = [e for e in self.events if isinstance(e, dict) and e.get("type") == "token.otp_requested"]
        if network_token_ref:
            out = [e for e in out if ((e.get("data") or {}).get("token") or {}).get("network_token_ref") == network_token_ref]
        return out

    def wait_otp(self, network_token_ref, count=1, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            events = self.otp_events(network_token_ref)
            if len(events) >= count:
                return events
            time.sleep(0.05)
        return self.otp_events(network_token_ref)
