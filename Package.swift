// swift-tools-version: 6.1
import PackageDescription

// Layering (see README): ProvisioCore imports only Foundation; cryptography lives in
// ProvisioCrypto; the sandbox counterparty and the CLI sit on top of both.
let package = Package(
    name: "Provisio",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "ProvisioCore", targets: ["ProvisioCore"]),
        .library(name: "ProvisioCrypto", targets: ["ProvisioCrypto"]),
        .library(name: "ProvisioSandbox", targets: ["ProvisioSandbox"]),
        .executable(name: "provisio", targets: ["provisio"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
    ],
    targets: [
        .target(name: "ProvisioCore"),
        .target(
            name: "ProvisioCrypto",
            dependencies: [
                "ProvisioCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Resources/apple-root-ca-g3.pem")]
        ),
        .target(
            name: "ProvisioSandbox",
            dependencies: [
                "ProvisioCore",
                "ProvisioCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "provisio",
            dependencies: [
                "ProvisioCore",
                "ProvisioCrypto",
                "ProvisioSandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "ProvisioCoreTests", dependencies: ["ProvisioCore"]),
        .testTarget(
            name: "ProvisioCryptoTests",
            dependencies: [
                "ProvisioCore",
                "ProvisioCrypto",
                "ProvisioSandbox",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // Runs the built `provisio` binary as a subprocess, as an issuer would.
        .testTarget(
            name: "ProvisioCLITests",
            dependencies: [
                "provisio",
                "ProvisioCore",
                "ProvisioCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
