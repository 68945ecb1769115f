#!/usr/bin/env bash
# Generates the Kotlin client an Android app uses (the mobile routes for Google Pay and Samsung
# Pay) from Provisio's OpenAPI document with a standard generator, openapi-generator 7.26.0
# (PyPI's openapi-generator-cli, which bundles the jar; it needs java 11 or later), and fails
# when the generator warns about the document or the client lacks an expected class or field.
# The Kotlin is not compiled here: Debian's kotlinc is 1.3, and the client's dependencies
# (OkHttp, Moshi) are not installable offline.
#
#   Tools/check-kotlin-client.sh [--output DIR] [--document FILE] [--self-test]
#
# --document checks another copy of the document (the default is the server's); --self-test
# first proves the check fails on a copy with a type the generator cannot map. --output keeps the generated client (a Gradle project) in DIR; otherwise it goes to a
# temporary directory that is removed. The generator lives in a venv under .build/.
set -euo pipefail
cd "$(dirname "$0")/.."

version="7.26.0"
output=""
self_test=false
document="Sources/ProvisioServer/Resources/openapi.yaml"
while [ $# -gt 0 ]; do
    case "$1" in
        --output) output="$2"; shift 2 ;;
        --document) document="$2"; shift 2 ;;
        --self-test) self_test=true; shift ;;
        *) echo "usage: $0 [--output DIR] [--document FILE] [--self-test]" >&2; exit 2 ;;
    esac
done

if ! command -v java >/dev/null; then
    echo "check-kotlin-client: java is missing (Debian: apt-get install default-jre-headless)" >&2
    exit 1
fi
venv="$(printf 'openapi-generator-cli==%s' "$version" |
    .ci/pinned-venv.sh "${PROVISIO_KOTLIN_GENERATOR_VENV:-.build/kotlin-client/openapi-generator-$version}")"

work="$(mktemp -d -t provisio-kotlin-XXXXXX)"
trap 'rm -rf "$work"' EXIT
if [ -z "$output" ]; then output="$work/client"; fi

if [ "$self_test" = true ]; then
    python3 - "$document" "$work/broken.yaml" <<'PY'
import sys

import yaml

with open(sys.argv[1], encoding="utf-8") as file:
    document = yaml.safe_load(file)
document["components"]["schemas"]["MobileCard"]["properties"]["id"]["type"] = "strang"
with open(sys.argv[2], "w", encoding="utf-8") as file:
    yaml.safe_dump(document, file, sort_keys=False, allow_unicode=True)
PY
    if "$0" --document "$work/broken.yaml" >"$work/self-test.log" 2>&1; then
        cat "$work/self-test.log" >&2
        echo "check-kotlin-client: self-test: a type the generator cannot map went unnoticed" >&2
        exit 1
    fi
    grep -q "Unknown type found in the schema: strang" "$work/self-test.log" ||
        { cat "$work/self-test.log" >&2; echo "check-kotlin-client: self-test failed for another reason" >&2; exit 1; }
    echo "check-kotlin-client: self-test: a broken document fails the check"
fi

# The mobile document: the operations tagged Mobile that an Android app calls (Apple's is
# PassKit's), with only the components they reach. The whole document would also bring the
# 3.1 `webhooks` section, which this generator files under the same WebhooksApi as the
# Webhooks-tagged paths (a FILEPATH_COLLISION), and nothing an app needs.
python3 - "$document" "$work/mobile.yaml" <<'PY'
import sys

import yaml

source, target = sys.argv[1], sys.argv[2]
with open(source, encoding="utf-8") as file:
    document = yaml.safe_load(file)
paths = {}
for path, item in document["paths"].items():
    operations = {
        method: operation
        for method, operation in item.items()
        if isinstance(operation, dict) and "Mobile" in operation.get("tags", [])
        and "ApplePay" not in operation.get("operationId", "")
    }
    if operations:
        if "parameters" in item:
            operations["parameters"] = item["parameters"]
        paths[path] = operations
components = document["components"]
reached = set()


def walk(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/components/"):
                kind, name = value.split("/", 3)[2:]
                if name not in components.get(kind, {}):
                    sys.exit(f"check-kotlin-client: {value} names no component")
                if (kind, name) not in reached:
                    reached.add((kind, name))
                    walk(components[kind][name])
            else:
                walk(value)
    elif isinstance(node, list):
        for value in node:
            walk(value)


walk(paths)
operations = [o for item in paths.values() for o in item.values() if isinstance(o, dict) and "operationId" in o]
schemes = {name for operation in operations for requirement in operation.get("security", []) for name in requirement}
kept = {}
for kind, section in components.items():
    names = schemes if kind == "securitySchemes" else {name for (k, name) in reached if k == kind}
    if names & section.keys():
        kept[kind] = {name: value for name, value in section.items() if name in names}
document["paths"], document["components"] = paths, kept
document.pop("webhooks", None)
document["tags"] = [tag for tag in document.get("tags", []) if tag["name"] == "Mobile"]
with open(target, "w", encoding="utf-8") as file:
    yaml.safe_dump(document, file, sort_keys=False, allow_unicode=True)
print("mobile operations:", ", ".join(sorted(o["operationId"] for o in operations)))
PY

rm -rf "$output"
status=0
"$venv/bin/openapi-generator-cli" generate -i "$work/mobile.yaml" -g kotlin -o "$output" \
    --package-name provisio.mobile.client --additional-properties=library=jvm-okhttp4 \
    >"$work/generator.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    cat "$work/generator.log" >&2
    echo "check-kotlin-client: the generator failed (exit $status)" >&2
    exit 1
fi
# Two warnings are the generator's, whatever the document: its 3.1 support is a beta, and under
# 3.1 it logs a null schema name for every `additionalProperties: false` (the same schema in a
# 3.0 document is silent). Provisio refuses unknown fields, so the document keeps saying so.
# Anything else it warns about is about the document, and fails the check.
complaints="$(grep -E 'WARN|ERROR' "$work/generator.log" |
    grep -vF 'OpenAPI 3.1 support is still in beta' |
    grep -vxF '[main] WARN  o.o.codegen.utils.ModelUtils - Failed to get the schema name: null' || true)"
if [ -n "$complaints" ]; then
    printf '%s\n' "$complaints" >&2
    echo "check-kotlin-client: the generator warns about openapi.yaml (above)" >&2
    exit 1
fi

# The client an Android app needs: one API class with the three calls, and the models with the
# wire names the app hands to TapAndPay and the Samsung Pay SDK.
root="$output/src/main/kotlin/provisio/mobile/client"
missing=()
expect() { # file, fixed string
    grep -qF -- "$2" "$root/$1" 2>/dev/null || missing+=("$1: $2")
}
expect apis/MobileApi.kt "fun listMobileCards() : MobileCardList"
expect apis/MobileApi.kt "fun provisionGooglePayFromMobile(id: kotlin.String, pushProvisioningRequest: PushProvisioningRequest"
expect apis/MobileApi.kt ") : WalletPushData"
expect apis/MobileApi.kt "fun provisionSamsungPayFromMobile(id: kotlin.String, samsungPayRequest: SamsungPayRequest"
expect apis/MobileApi.kt ") : SamsungPayPushData"
for field in credentials_request user_address; do expect models/PushProvisioningRequest.kt "@Json(name = \"$field\")"; done
for field in server_session_id stable_hardware_id wallet_id google_opaque_payment_card_requested; do
    expect models/GooglePaymentCredentialsRequest.kt "@Json(name = \"$field\")"
done
for field in opaque_payment_card google_opaque_payment_card network token_service_provider display_name last_digits \
    user_address; do
    expect models/WalletPushData.kt "@Json(name = \"$field\")"
done
expect models/WalletPushData.kt 'TOKEN_PROVIDER_VISA("TOKEN_PROVIDER_VISA")'
for field in device_id wallet_user_id; do expect models/SamsungPayRequest.kt "@Json(name = \"$field\")"; done
for field in card_type tokenization_provider provision_payload display_name last_digits; do
    expect models/SamsungPayPushData.kt "@Json(name = \"$field\")"
done
expect models/SamsungPayPushData.kt 'VI("VI")'
for field in id last4 network primary_account_identifier; do expect models/MobileCard.kt "@Json(name = \"$field\")"; done
expect models/Error.kt "class Error"
# Nothing of the issuer's API or Apple's: an app holds no API key.
for absent in apis/CardsApi.kt apis/WebhooksApi.kt models/ApplePayRequest.kt models/Card.kt; do
    [ ! -e "$root/$absent" ] || missing+=("$absent should not be generated")
done
if [ "${#missing[@]}" -ne 0 ]; then
    printf 'missing: %s\n' "${missing[@]}" >&2
    echo "check-kotlin-client: the Kotlin client lacks the above" >&2
    exit 1
fi
echo "check-kotlin-client: openapi-generator $version, kotlin (jvm-okhttp4): $(find "$root" -name '*.kt' | wc -l) files, no warnings"
