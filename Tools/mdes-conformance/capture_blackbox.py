#!/usr/bin/env python3
"""Runs the independent MDES client (Tools/mdes-blackbox/run.py) against the built provisio and
records every exchange on both APIs as JSONL for validate.py:

    python3 Tools/mdes-conformance/capture_blackbox.py --provisio .build/debug/provisio --out CAPTURE.jsonl

The client is not changed: its MDES side (`MDESClient.post_raw`, every request it sends to
Provisio's listener over mutual TLS: the encryption matrix, declines, the yellow path,
notifications and each bad-input case) and its Customer Service stand-in (`_handle`, every
request Provisio signs and sends, and the stand-in's answer) are wrapped here. Exits with
run.py's status; its output goes to stderr.
"""

import argparse
import json
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "mdes-blackbox"))

import cs_standin  # noqa: E402
import provisio_harness  # noqa: E402

LOCK = threading.Lock()


def text(raw):
    if raw is None:
        return None
    return raw.decode("utf-8", "replace") if isinstance(raw, (bytes, bytearray)) else raw


def record(out, api, path, request, status, response):
    line = json.dumps({"api": api, "path": path, "request": text(request), "status": status, "response": text(response)})
    with LOCK:
        out.write(line + "\n")
        out.flush()


def install(out):
    post_raw = provisio_harness.MDESClient.post_raw

    def recording_post_raw(self, operation, raw, timeout=20):
        # post_raw parses the answer; the raw bytes are read again through a wrapped connection.
        seen = {}
        connection = provisio_harness.http.client.HTTPSConnection
        original_getresponse = connection.getresponse

        def getresponse(conn):
            response = original_getresponse(conn)
            data = response.read()
            seen["status"], seen["body"] = response.status, data
            response.read = lambda *_: data
            return response

        connection.getresponse = getresponse
        try:
            status, answer = post_raw(self, operation, raw, timeout)
        finally:
            connection.getresponse = original_getresponse
        record(out, "issuer-outbound", self.path(operation), raw, seen.get("status", status), seen.get("body"))
        return status, answer

    provisio_harness.MDESClient.post_raw = recording_post_raw

    handle = cs_standin.CustomerServiceStandIn._handle

    def recording_handle(self, h, raw):
        answer = h._answer
        path = h.path

        def recording_answer(status, obj):
            record(out, "customer-service", path, raw, status, json.dumps(obj))
            return answer(status, obj)

        # One handler serves a keep-alive connection's requests: unwrap after each.
        h._answer = recording_answer
        try:
            return handle(self, h, raw)
        finally:
            h._answer = answer

    cs_standin.CustomerServiceStandIn._handle = recording_handle


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--provisio", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    with open(args.out, "w", encoding="utf-8") as out:
        install(out)
        import run  # noqa: E402  (after the wrapping: run.py imports the wrapped classes' modules)

        sys.argv = ["run.py", "--provisio", args.provisio]
        stdout = sys.stdout
        sys.stdout = sys.stderr
        try:
            return run.main()
        finally:
            sys.stdout = stdout


if __name__ == "__main__":
    sys.exit(main())
