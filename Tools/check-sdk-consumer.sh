#!/usr/bin/env bash
# Proves the iOS SDK stands alone: a scratch app package depends on this repository by URL (a
# file:// URL to this clone, at its HEAD commit, as an app would add it from GitHub) with
# `traits: []`, uses the SDK's products (ProvisioKit, ProvisioClient, ProvisioCore), resolves, and
# builds. It fails if the resolution brings any package but the SDK's own, or if the SDK does not
# build without the server side.
#
#   Tools/check-sdk-consumer.sh            # resolve and build (CI)
#   Tools/check-sdk-consumer.sh --resolve  # resolve only (seconds, not minutes)
#
# Checks the committed HEAD (or $SDK_CONSUMER_REVISION), not the working tree: commit first.
set -euo pipefail
cd "$(dirname "$0")/.."
repository="$(pwd)"
revision="${SDK_CONSUMER_REVISION:-$(git rev-parse HEAD)}"
identity="$(basename "$repository" | tr '[:upper:]' '[:lower:]')"

# What an app that adds ProvisioKit may resolve: this repository and the packages the SDK's targets
# (ProvisioKit, ProvisioClient, ProvisioMobileAPI, ProvisioCore) use, and what those use in turn.
allowed=("$identity" swift-openapi-runtime swift-openapi-urlsession swift-http-types swift-collections)

consumer="$(mktemp -d -t provisio-sdk-consumer-XXXXXX)"
trap 'rm -rf "$consumer"' EXIT
mkdir -p "$consumer/Sources/IssuerApp"
cat >"$consumer/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "IssuerApp",
    platforms: [.iOS(.v14), .macOS(.v14)],
    dependencies: [
        .package(url: "file://$repository", revision: "$revision", traits: []),
    ],
    targets: [
        .target(
            name: "IssuerApp",
            dependencies: [
                .product(name: "ProvisioKit", package: "$identity"),
                .product(name: "ProvisioClient", package: "$identity"),
                .product(name: "ProvisioCore", package: "$identity"),
            ]),
    ]
)
EOF
cat >"$consumer/Sources/IssuerApp/IssuerApp.swift" <<'EOF'
import ProvisioClient
import ProvisioCore
import ProvisioKit

/// Names a type of each SDK module (the card type is ProvisioCore's), so the build proves they
/// compile and link without the server.
public func sdkTypes() -> [Any.Type] { [InAppProvisioning.self, ProvisioMobileClient.self, WalletCard.self] }
EOF

swift package --package-path "$consumer" resolve >&2
pins="$(python3 -c 'import json,sys; print("\n".join(p["identity"] for p in json.load(open(sys.argv[1]))["pins"]))' \
    "$consumer/Package.resolved")"
echo "The SDK consumer resolved: $(echo "$pins" | tr '\n' ' ')"
status=0
while read -r pin; do
    [ -z "$pin" ] && continue
    ok=false
    for name in "${allowed[@]}"; do [ "$pin" = "$name" ] && ok=true; done
    if ! $ok; then
        echo "error: an app that adds ProvisioKit resolves '$pin', which only the server side needs" >&2
        status=1
    fi
done <<<"$pins"
[ "$status" -ne 0 ] && exit "$status"

if [ "${1:-}" != "--resolve" ]; then
    swift build --package-path "$consumer" >&2
    echo "The SDK consumer builds ProvisioKit, ProvisioClient and ProvisioCore without the Server trait."
fi
