// swift-tools-version: 6.1
import PackageDescription

// Builds the code generators `Tools/generate-wire.sh` runs: swift-openapi-generator's command-line
// tool, and generate-error-codes (error-codes.yaml to Swift constants, statuses and the document's
// `ErrorCode` list). It is a package of its own so that they (OpenAPIKit, Yams, …) are built only
// when the wire code is regenerated or checked in CI, never by `swift build` of Provisio itself.
let package = Package(
    name: "WireGenerator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
        // The version swift-openapi-generator 1.14.3 resolves, so the two agree.
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
    ],
    targets: [
        .executableTarget(
            name: "generate-error-codes",
            dependencies: [.product(name: "Yams", package: "Yams")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
