#!/usr/bin/env python3
"""Validates captured MDES traffic against Provisio's own OpenAPI documents of the two APIs.

    python3 Tools/mdes-conformance/validate.py CAPTURE.jsonl

CAPTURE.jsonl has one exchange a line:
    {"api": "issuer-outbound" | "customer-service", "path": "/…/authorizeService",
     "request": "<body as sent>", "status": 200, "response": "<body as answered>"}

Every request is validated against its operation's requestBody schema and every answer against
the schema of its status (the exact code, else `default`), with full JSON Schema (2020-12:
required, types, enums, lengths, patterns, anyOf). A request its schema refuses is accepted only
when it was refused with an error in the document's error shape: that is bad input sent on
purpose (malformed JSON, a field missing or too long), and refusing it is what the document asks.

Prints one FAIL line per problem naming the operation, the direction and the schema path, never
a value from the message (the answers carry masked contact details, the requests the encrypted
card, and a failing value could be a card number). Exits 1 on any FAIL, 2 on a bad setup.

Adaptations of the OpenAPI documents for a JSON Schema validator, all here:
  * both documents are OpenAPI 3.1, whose Schema Object is JSON Schema 2020-12, so no
    `nullable` or `exclusiveMinimum` rewriting is needed (an OpenAPI 3.0 document would need it);
  * `$ref: '#/components/…'` is resolved by validating each operation's schema inside a root
    that carries the document's `components`, so the references resolve as written;
  * response `$ref`s to `#/components/responses/…` are followed here, by hand;
  * `example`/`examples` are annotations and ignored; `format` is not asserted (2020-12's
    default); the document's own bounds and patterns carry what the formats say.
"""

import json
import os
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as error:  # the test reads this line and says what to install
    print("SETUP missing python module: %s (Debian: apt-get install python3-jsonschema python3-yaml)" % error.name)
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCUMENTS = {
    "issuer-outbound": "Sources/ProvisioNetworkConnector/MDES/mdes-issuer-outbound-openapi.yaml",
    "customer-service": "Sources/ProvisioNetworkConnector/MDES/mdes-customer-service-openapi.yaml",
}


class Document:
    def __init__(self, api):
        with open(os.path.join(ROOT, DOCUMENTS[api]), encoding="utf-8") as handle:
            self.doc = yaml.safe_load(handle)
        self.api = api
        self.operations = []  # (regex over the path's end, operationId, operation)
        for template, item in self.doc["paths"].items():
            for method, operation in item.items():
                if method != "post":
                    continue
                # Templates become [^/]+; the match is on the path's end, so a deployment's base
                # path (the Customer Service's /mdes/csapi) may precede it.
                pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
                self.operations.append((re.compile(pattern), operation["operationId"], operation))

    def operation(self, path):
        for pattern, name, operation in self.operations:
            if pattern.search(path.split("?", 1)[0]):
                return name, operation
        return None, None

    def validator(self, schema):
        root = dict(schema)
        root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        root["components"] = self.doc["components"]
        return jsonschema.Draft202012Validator(root)

    def response(self, operation, status):
        responses = operation.get("responses", {})
        answer = responses.get(str(status)) or responses.get("default")
        if answer and "$ref" in answer:
            answer = self.doc["components"]["responses"][answer["$ref"].rsplit("/", 1)[-1]]
        return ((answer or {}).get("content", {}).get("application/json") or {}).get("schema")


def where(error):
    instance = "$" + "".join("[%d]" % p if isinstance(p, int) else "." + str(p) for p in error.absolute_path)
    schema = "/".join(str(p) for p in error.absolute_schema_path)
    if error.validator == "required":
        # The missing name comes from the document, not from the message.
        missing = [name for name in error.validator_value if isinstance(error.instance, dict) and name not in error.instance]
        instance += " missing " + ",".join(missing)
    return "%s (keyword %s, schema path %s)" % (instance, error.validator, schema)


def problems(document, schema, text):
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return ["not JSON"]
    errors = sorted(document.validator(schema).iter_errors(value), key=lambda e: list(e.absolute_schema_path))
    return [where(e) for e in errors]


def main():
    if len(sys.argv) != 2:
        print("usage: validate.py CAPTURE.jsonl")
        return 2
    documents = {api: Document(api) for api in DOCUMENTS}
    counts, failures, refused = {}, 0, 0
    with open(sys.argv[1], encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip()]
    for number, line in enumerate(lines, 1):
        exchange = json.loads(line)
        document = documents[exchange["api"]]
        name, operation = document.operation(exchange["path"])
        if operation is None:
            print("FAIL %s line %d: no operation of the document has this path" % (exchange["api"], number))
            failures += 1
            continue
        status = exchange.get("status")
        request_schema = operation["requestBody"]["content"]["application/json"]["schema"]
        request_problems = problems(document, request_schema, exchange.get("request"))
        answer_schema = document.response(operation, status)
        if answer_schema is None:
            answer_problems = ["the document declares no JSON answer for status %s" % status]
        else:
            answer_problems = problems(document, answer_schema, exchange.get("response"))
        if request_problems and not answer_problems and status is not None and 400 <= status < 500:
            refused += 1  # bad input on purpose, refused in the document's error shape
        else:
            for problem in request_problems:
                print("FAIL %s %s request (answered %s): %s" % (document.api, name, status, problem))
                failures += 1
        for problem in answer_problems:
            print("FAIL %s %s response %s: %s" % (document.api, name, status, problem))
            failures += 1
        key = "%s %s %s" % (document.api, name, status)
        counts[key] = counts.get(key, 0) + 1
    for key in sorted(counts):
        print("COUNT %s: %d" % (key, counts[key]))
    print("SUMMARY %d exchanges, %d schema-invalid requests refused as the document asks, %d failures"
          % (len(lines), refused, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
