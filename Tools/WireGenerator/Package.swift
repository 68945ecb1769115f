// swift-tools-version: 6.1
import PackageDescription

// Builds swift-openapi-generator's command-line tool for `Tools/generate-wire.sh`. It is a
// package of its own so that the generator (OpenAPIKit, Yams, …) is built only when the wire
// code is regenerated or checked in CI, never by `swift build` of Provisio itself.
let package = Package(
    name: "WireGenerator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")
    ],
    targets: []
)
