#!/usr/bin/env bash
# Generates the Swift wire code (types, server stubs, clients) from the OpenAPI documents,
# which are the single contract of Provisio's, the sandbox's and the network connector's HTTP APIs
# (the Provisio dialect's and Mastercard MDES's, as Provisio describes them).
#
#   Tools/generate-wire.sh           regenerate into Sources/*/Generated
#   Tools/generate-wire.sh --check   fail if regenerating would change any committed file (CI)
#
# The generated code is committed (not produced by the build plugin): a first `swift build`
# then does not have to build the generator and OpenAPIKit; see the README for the figures.
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
[ "${1:-}" = "--check" ] && check=true

swift build --package-path Tools/WireGenerator --product swift-openapi-generator >&2
swift build --package-path Tools/WireGenerator --product generate-error-codes >&2
bin="$(swift build --package-path Tools/WireGenerator --show-bin-path)"
generator="$bin/swift-openapi-generator"

# module  document  (the module's openapi-generator-config.yaml says what to generate)
targets=(
    "ProvisioAPI Sources/ProvisioServer/Resources/openapi.yaml"
    "ProvisioMobileAPI Sources/ProvisioServer/Resources/openapi.yaml"
    "ProvisioNetworkAPI Sources/ProvisioServer/Resources/openapi.yaml"
    "ProvisioSandboxAPI Sources/ProvisioSandboxServer/Resources/sandbox-openapi.yaml"
    "ProvisioSandboxGoogleWalletAPI Sources/ProvisioSandboxServer/Resources/sandbox-google-wallet-openapi.yaml"
    "ProvisioSandboxSamsungWalletAPI Sources/ProvisioSandboxServer/Resources/sandbox-samsung-wallet-openapi.yaml"
    "ProvisioConnectorAPI Sources/ProvisioNetworkConnector/Provisio/network-connector-openapi.yaml"
    "ProvisioSandboxConnectorAPI Sources/ProvisioNetworkConnector/Provisio/network-connector-openapi.yaml"
    "ProvisioMDESIssuerAPI Sources/ProvisioNetworkConnector/MDES/mdes-issuer-outbound-openapi.yaml"
    "ProvisioSandboxMDESIssuerAPI Sources/ProvisioNetworkConnector/MDES/mdes-issuer-outbound-openapi.yaml"
    "ProvisioMDESCustomerServiceAPI Sources/ProvisioNetworkConnector/MDES/mdes-customer-service-openapi.yaml"
    "ProvisioSandboxMDESCustomerServiceAPI Sources/ProvisioNetworkConnector/MDES/mdes-customer-service-openapi.yaml"
)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
status=0

# Error codes first: error-codes.yaml gives each module its constants, ProvisioHTTP the statuses,
# and the served document its ErrorCode list, which the modules below are generated from.
served=Sources/ProvisioServer/Resources/openapi.yaml
"$bin/generate-error-codes" error-codes.yaml "$served" "$out/errors" >&2
while IFS= read -r generated; do
    relative="${generated#"$out/errors/"}"
    if $check; then
        if ! cmp -s "$generated" "$relative"; then
            diff -u "$relative" "$generated" >&2 || true
            echo "error: $relative is not what error-codes.yaml generates; run Tools/generate-wire.sh" >&2
            status=1
        fi
    else
        mkdir -p "$(dirname "$relative")"
        cp "$generated" "$relative"
    fi
done < <(find "$out/errors" -type f | sort)
for entry in "${targets[@]}"; do
    read -r module document <<<"$entry"
    config="Sources/$module/openapi-generator-config.yaml"
    # A module with a `filter:` keeps the components its operations use; the generator's filter
    # leaves `webhooks:` alone, whose references would then dangle. Webhooks are the issuer's side
    # of the wire, never a filtered module's, so such a module reads the document without them
    # (every line from the top-level `webhooks:` key to the next top-level key).
    if grep -q '^filter:' "$config"; then
        mkdir -p "$out/documents"
        awk '/^webhooks:/ { skip = 1; next } /^[^ #]/ { skip = 0 } !skip' "$document" >"$out/documents/$module.yaml"
        document="$out/documents/$module.yaml"
    fi
    "$generator" generate --config "$config" --output-directory "$out/$module" "$document" >&2
    if $check; then
        if ! diff -r "$out/$module" "Sources/$module/Generated" >&2; then
            echo "error: Sources/$module/Generated is not what $document generates; run Tools/generate-wire.sh" >&2
            status=1
        fi
    else
        rm -rf "Sources/$module/Generated"
        mkdir -p "Sources/$module/Generated"
        cp "$out/$module"/*.swift "Sources/$module/Generated/"
        echo "generated Sources/$module/Generated from $document" >&2
    fi
done
exit "$status"
