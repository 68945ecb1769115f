// swift-tools-version: 6.1
import PackageDescription

// Layering (see README): ProvisioCore imports only Foundation; cryptography lives in
// ProvisioCrypto; the sandbox counterparty and the CLI sit on top of both.
// Platforms: iOS 14 is what the SDK's targets (ProvisioKit, ProvisioClient, ProvisioCore) really
// need: PassKit's Wallet extension API starts there (README, "The iOS SDK"; IOSDeploymentFloorTests
// and AppleDeclarationTests fail if their sources use newer API). macOS 14 is the server's:
// swift-openapi-hummingbird declares macOS 14, and every target shares this list.
// The iOS SDK stands alone: every package only the server side uses (Hummingbird, NIO, the
// databases, swift-crypto…) is a dependency under the `Server` trait, which is on by default, so
// `swift run provisio demo` and `swift test` build everything from the root. An app that wants the
// SDK alone depends on this package with `traits: []`: SwiftPM then resolves only the SDK's
// packages (the OpenAPI runtime, its URLSession transport, HTTP types), which
// Tools/check-sdk-consumer.sh proves in CI. (A trait-gated dependency is left out of the consumer's
// resolution altogether, not only its build; measured with SwiftPM 6.3.)
let serverOnly: TargetDependencyCondition? = .when(traits: ["Server"])

let package = Package(
    name: "Provisio",
    platforms: [.macOS(.v14), .iOS(.v14)],
    products: [
        .library(name: "ProvisioCore", targets: ["ProvisioCore"]),
        .library(name: "ProvisioCrypto", targets: ["ProvisioCrypto"]),
        .library(name: "ProvisioSandbox", targets: ["ProvisioSandbox"]),
        .library(name: "ProvisioSandboxServer", targets: ["ProvisioSandboxServer"]),
        .library(name: "ProvisioClient", targets: ["ProvisioClient"]),
        .library(name: "ProvisioKit", targets: ["ProvisioKit"]),
        .executable(name: "provisio", targets: ["provisio"]),
    ],
    traits: [
        .trait(
            name: "Server",
            description: "The server, the sandbox, the CLI and their packages; off for an app that uses the SDK alone."),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        // One minor version: CProvisioP256 calls BoringSSL internals verified in 4.5.2. Bumped on
        // purpose, after checking those symbols and their meaning in the new BoringSSL again.
        .package(url: "https://github.com/apple/swift-crypto.git", .upToNextMinor(from: "4.5.2")),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        // NIOHTTPTypes (ProvisioServer's connection guard): already in the graph through
        // hummingbird, declared because ProvisioServer imports it (Tools/check-imports.py).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
    ],
    targets: [
        .target(name: "ProvisioCore"),
        // The strict JSON parser every outside document goes through, its exact value and
        // canonical form, the flat-object writer the sealed payloads use, and the error object of
        // every wire (WireError): server side only, so the iOS SDK's ProvisioCore carries no
        // parser it never runs (the SDK reads error answers in ProvisioClient).
        .target(name: "ProvisioJSON", dependencies: ["ProvisioCore"]),
        // The outbound (SSRF) address policy: IP addresses, their classes, CIDR allow-lists and
        // tenant URL checks. Server side only, so the iOS SDK's ProvisioCore does not carry it.
        .target(name: "ProvisioOutbound", dependencies: ["ProvisioCore"]),
        // Fixed-point P-256 multiplication over the nistz256 assembly swift-crypto links on Linux.
        .target(name: "CProvisioP256"),
        .target(
            name: "ProvisioCrypto",
            dependencies: [
                "ProvisioJSON",
                "ProvisioCore",
                "CProvisioP256",
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: serverOnly),
                .product(name: "X509", package: "swift-certificates", condition: serverOnly),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: serverOnly),
            ],
            resources: [.copy("Resources/apple-root-ca-g3.pem")]
        ),
        .target(
            name: "ProvisioSandbox",
            dependencies: [
                "ProvisioCore",
                "ProvisioCrypto",
                "ProvisioSandboxAPI",
                // SandboxClient's calls to the Android wallets' control APIs.
                "ProvisioSandboxGoogleWalletAPI",
                "ProvisioSandboxSamsungWalletAPI",
                "ProvisioNetworkAPI",
                "ProvisioWireClient",
                // The sandbox's MDES calls the issuer with the client generated from the MDES document,
                // over mutual TLS (NIOSSL's configuration for AsyncHTTPClient).
                "ProvisioSandboxMDESIssuerAPI",
                // The sandbox's Google Wallet opens Google's opaque payment cards with a key pair of its own.
                "ProvisioOpenPGP",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client", condition: serverOnly),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: serverOnly),
                .product(name: "NIOCore", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: serverOnly),
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: serverOnly),
                .product(name: "X509", package: "swift-certificates", condition: serverOnly),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: serverOnly),
            ]
        ),
        // The sandbox counterparty as its own HTTP service (`provisio sandbox serve`).
        .target(
            name: "ProvisioSandboxServer",
            dependencies: [
                "ProvisioCore",
                "ProvisioCrypto",
                "ProvisioSandbox",
                "ProvisioSandboxAPI",
                // The Android wallets' control APIs, each a document of its own.
                "ProvisioSandboxGoogleWalletAPI",
                "ProvisioSandboxSamsungWalletAPI",
                "ProvisioSandboxConnectorAPI",
                // The issuer's signing key registered with Google Wallet.
                "ProvisioOpenPGP",
                // The MDES Customer Service API the sandbox's MDES serves.
                "ProvisioSandboxMDESCustomerServiceAPI",
                "ProvisioHTTP",
                "ProvisioJSON",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird", condition: serverOnly),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird", condition: serverOnly),
                .product(name: "Logging", package: "swift-log", condition: serverOnly),
            ],
            resources: [
                .copy("Resources/sandbox-openapi.yaml"), .copy("Resources/sandbox-google-wallet-openapi.yaml"),
                .copy("Resources/sandbox-samsung-wallet-openapi.yaml"),
            ]
        ),
        // The HTTP stack Provisio's server and the sandbox's share: wire errors and their codes,
        // request ids, strict bodies and queries, bearer parsing, the generated operations' routing.
        .target(
            name: "ProvisioHTTP",
            dependencies: [
                "ProvisioJSON",
                "ProvisioCore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird", condition: serverOnly),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird", condition: serverOnly),
                .product(name: "Logging", package: "swift-log", condition: serverOnly),
                .product(name: "NIOCore", package: "swift-nio", condition: serverOnly),
                // RunningApplication stops in-process servers gracefully through a ServiceGroup.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: serverOnly),
            ]
        ),
        // What the generated clients of the wire share (the sandbox's clients, Provisio's network
        // connector): the bearer key, bounded and strict answers, refusals as the caller's errors.
        .target(
            name: "ProvisioWireClient",
            dependencies: [
                "ProvisioJSON",
                "ProvisioCore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The card network connector boundary: the port ProvisioServer calls (`NetworkConnector`,
        // its commands and answer, the dialects) and one folder per dialect a network speaks,
        // with its document and its connector. The Provisio dialect calls the network through
        // the client generated from its document, over the transport the server gives it.
        .target(
            name: "ProvisioNetworkConnector",
            dependencies: [
                "ProvisioCore",
                "ProvisioJSON",
                "ProvisioOutbound",
                "ProvisioWireClient",
                "ProvisioConnectorAPI",
                // The MDES dialect: its generated client and the OAuth 1.0a signer.
                "ProvisioCrypto",
                "ProvisioMDESCustomerServiceAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: [
                "Provisio/network-connector-openapi.yaml",
                // Provisio's own description of the MDES APIs (docs/mdes.md), from which Tools/generate-wire.sh
                // generates ProvisioMDESIssuerAPI, ProvisioMDESCustomerServiceAPI and their sandbox twins.
                "MDES/mdes-issuer-outbound-openapi.yaml", "MDES/mdes-customer-service-openapi.yaml",
            ]
        ),
        .target(
            name: "ProvisioServer",
            dependencies: [
                "ProvisioJSON",
                "ProvisioCore",
                "ProvisioOutbound",
                "ProvisioCrypto",
                "ProvisioAPI",
                "ProvisioHTTP",
                // The card network's connector port and its dialects.
                "ProvisioNetworkConnector",
                // The MDES Issuer Outbound listener's generated server types.
                "ProvisioMDESIssuerAPI",
                // Google's opaque payment card: the tenant's issuer key, Google's keys.
                "ProvisioOpenPGP",
                // Card products' art is held to the rules `provisio doctor` applies (PNG corners).
                "ProvisioDoctor",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird", condition: serverOnly),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                .product(name: "X509", package: "swift-certificates", condition: serverOnly),
                .product(name: "Hummingbird", package: "hummingbird", condition: serverOnly),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: serverOnly),
                .product(name: "NIOCore", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOPosix", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: serverOnly),
                .product(name: "SQLKit", package: "sql-kit", condition: serverOnly),
                "CSQLite",
                .product(name: "PostgresKit", package: "postgres-kit", condition: serverOnly),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: serverOnly),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: serverOnly),
                .product(name: "Logging", package: "swift-log", condition: serverOnly),
                .product(name: "Prometheus", package: "swift-prometheus", condition: serverOnly),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: serverOnly),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: serverOnly),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth", condition: serverOnly),
                .product(name: "Mustache", package: "swift-mustache", condition: serverOnly),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/Console")]
        ),
        // The system's SQLite, whose C API the store's SQLite driver calls (Debian's libsqlite3-dev,
        // Homebrew's sqlite or the macOS SDK's). No package brings a SQLite of its own (sqlite-nio
        // did, before issue 22), so the process links exactly one: two copies in one process would
        // each keep their own POSIX locks on a database file, and closing a descriptor in one drops
        // the other's locks.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Starts child processes (the benchmarks' servers, the tests' CLI runs) over swift-subprocess:
        // Foundation's Process crashes on Linux in processes with many open descriptors.
        .target(
            name: "ProvisioProcess",
            dependencies: [
                "ProvisioCore",
                .product(name: "Subprocess", package: "swift-subprocess", condition: serverOnly),
                .product(name: "SystemPackage", package: "swift-system", condition: serverOnly),
            ]
        ),
        .testTarget(name: "ProvisioProcessTests", dependencies: ["ProvisioProcess"]),
        .executableTarget(
            name: "provisio",
            dependencies: [
                "ProvisioDoctor",
                "ProvisioProcess",
                "ProvisioCore",
                "ProvisioOutbound",
                "ProvisioCrypto",
                "ProvisioSandbox",
                "ProvisioSandboxServer",
                "ProvisioServer",
                "ProvisioHTTP",
                "ProvisioAPI",
                "ProvisioClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client", condition: serverOnly),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: serverOnly),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: serverOnly),
                .product(name: "Logging", package: "swift-log", condition: serverOnly),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: serverOnly),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: serverOnly),
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                // `demo --network mdes` makes the issuer's OAuth signing key (RSA).
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: serverOnly),
                .product(name: "NIOCore", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOPosix", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: serverOnly),
                // `bench apple-pay` drives the MDES listener over mutual TLS (NIOTLS: the handshake's event).
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: serverOnly),
                .product(name: "NIOTLS", package: "swift-nio", condition: serverOnly),
                .product(name: "Hummingbird", package: "hummingbird", condition: serverOnly),
            ]
        ),
        // Linux only: the PassKit / UIKit subset ProvisioKit uses, transcribed from Apple's
        // documentation and backed by a pluggable device (the sandbox wallet in tests).
        .target(name: "PassKitStandIn"),
        // Provisio's API generated from openapi.yaml by Tools/generate-wire.sh: the types, the
        // server protocol `provisio serve` implements and the client the demo and tests use.
        .target(
            name: "ProvisioAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The sandbox's API, generated from its sandbox-openapi.yaml by Tools/generate-wire.sh: the
        // types, the server protocol `provisio sandbox serve` implements, and the client of its
        // control API (SandboxClient).
        .target(
            name: "ProvisioSandboxAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The sandbox's Google Wallet and Samsung Wallet control APIs, generated from
        // sandbox-google-wallet-openapi.yaml and sandbox-samsung-wallet-openapi.yaml by
        // Tools/generate-wire.sh: types, server protocol and client.
        .target(
            name: "ProvisioSandboxGoogleWalletAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        .target(
            name: "ProvisioSandboxSamsungWalletAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The network connector's Provisio dialect, generated from network-connector-openapi.yaml by
        // Tools/generate-wire.sh: types and client, for ProvisioNetworkConnector (Provisio's side).
        .target(
            name: "ProvisioConnectorAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The same document's types and server protocol, which the sandbox's network serves.
        .target(
            name: "ProvisioSandboxConnectorAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // Mastercard MDES's Issuer Outbound API, generated from Provisio's description of it
        // (ProvisioNetworkConnector/MDES/mdes-issuer-outbound-openapi.yaml) by Tools/generate-wire.sh:
        // types and server protocol, for Provisio's MDES listener.
        .target(
            name: "ProvisioMDESIssuerAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The same document's types and client, with which the sandbox's MDES calls the issuer.
        .target(
            name: "ProvisioSandboxMDESIssuerAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // Mastercard MDES's Customer Service API, generated from Provisio's description of it
        // (ProvisioNetworkConnector/MDES/mdes-customer-service-openapi.yaml): types and client, for
        // the MDES dialect's connector.
        .target(
            name: "ProvisioMDESCustomerServiceAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The same document's types and server protocol, which the sandbox's MDES serves.
        .target(
            name: "ProvisioSandboxMDESCustomerServiceAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The card network's part of Provisio's API (types and client), for the sandbox network.
        .target(
            name: "ProvisioNetworkAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The app-facing part of Provisio's API, generated from openapi.yaml by Tools/generate-wire.sh
        // (types and client only; committed, and CI checks that regenerating changes nothing).
        .target(
            name: "ProvisioMobileAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // Typed async client of Provisio's mobile API over the generated client (URLSession;
        // builds for iOS too).
        .target(
            name: "ProvisioClient",
            dependencies: [
                "ProvisioCore", "ProvisioMobileAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The iOS SDK: PassKit / UIKit adapters over ProvisioCore and ProvisioClient.
        .target(
            name: "ProvisioKit",
            dependencies: [
                "ProvisioCore", "ProvisioClient", .target(name: "PassKitStandIn", condition: .when(platforms: [.linux])),
            ]
        ),
        // Examples/IssuerApp: the parts of the example issuer app and its two Wallet extensions that
        // touch only ProvisioKit and PassKit, compiled on Linux against PassKitStandIn. The SwiftUI /
        // UIKit screens, Info.plists and entitlements are built by the Xcode project (see its README).
        .target(
            name: "IssuerAppExampleExtensions",
            dependencies: [
                "ProvisioKit", "ProvisioClient", "ProvisioCore",
                .target(name: "PassKitStandIn", condition: .when(platforms: [.linux])),
            ],
            path: "Examples/IssuerApp",
            exclude: [
                "README.md", "project.yml",
                "App/IssuerApp.swift", "App/CardListView.swift", "App/AppSupport.swift", "App/Info.plist",
                "App/IssuerApp.entitlements", "App/Assets.xcassets",
                "NonUIExtension/Info.plist", "NonUIExtension/NonUIExtension.entitlements",
                "UIExtension/AuthorizationViewController.swift", "UIExtension/Info.plist",
                "UIExtension/UIExtension.entitlements",
            ],
            sources: [
                "Shared/IssuerBackend.swift", "Shared/IssuerAppSettings.swift", "Shared/ExampleLog.swift",
                "App/WalletCardsModel.swift", "App/WalletExtensionPublisher.swift",
                "NonUIExtension/IssuerWalletExtensionHandler.swift",
                "UIExtension/WalletAuthorizationViewController.swift",
            ]
        ),
        // The system's zlib, for the doctor's PNG decoding: Debian's zlib1g-dev, the macOS SDK's.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // `provisio doctor`: reads an issuer's Xcode project, source folder or built .app (Info.plists,
        // entitlements, card art) and reports every Wallet-extension misconfiguration with a stable code.
        .target(
            name: "ProvisioDoctor",
            dependencies: [
                "ProvisioCore",
                "ProvisioOutbound",
                "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: serverOnly),
                .product(name: "NIOCore", package: "swift-nio", condition: serverOnly),
            ]
        ),
        .testTarget(
            name: "ProvisioDoctorTests",
            dependencies: [
                "ProvisioHTTP",
                "ProvisioDoctor",
                "ProvisioCore",
                .product(name: "Hummingbird", package: "hummingbird", condition: serverOnly),
                .product(name: "Logging", package: "swift-log", condition: serverOnly),
            ]
        ),
        // Every parser of outside input as a fuzz target with invariant checks (see Fuzz/Corpus).
        // `provisio-fuzz` is libFuzzer's entry in the fuzz build (Tools/fuzz.sh, -DPROVISIO_LIBFUZZER)
        // and a replay command of saved inputs in the ordinary one.
        .target(
            name: "ProvisioFuzzing",
            dependencies: [
                "ProvisioJSON",
                "ProvisioCore", "ProvisioCrypto", .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                .product(name: "X509", package: "swift-certificates", condition: serverOnly),
            ]
        ),
        .executableTarget(
            name: "provisio-fuzz",
            dependencies: ["ProvisioFuzzing"]
        ),
        .testTarget(name: "ProvisioFuzzingTests", dependencies: ["ProvisioFuzzing", "ProvisioCore"]),
        .testTarget(name: "ProvisioCoreTests", dependencies: ["ProvisioCore"]),
        .testTarget(name: "ProvisioJSONTests", dependencies: ["ProvisioJSON", "ProvisioCore"]),
        .testTarget(name: "ProvisioOutboundTests", dependencies: ["ProvisioOutbound", "ProvisioCore"]),
        // OpenPGP messages (RFC 4880 / RFC 9580) for Google's opaque payment card: RSA keys, a
        // signed literal encrypted to the wallet's key (SEIPD v1, AES-256) and the reverse, with
        // the system's zlib for compressed packets. Server side only, like ProvisioCrypto.
        .target(
            name: "ProvisioOpenPGP",
            dependencies: [
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: serverOnly),
            ]
        ),
        // Round trips, tampering, limits, and GnuPG in both directions (gpg from Debian, .ci/run).
        .testTarget(
            name: "ProvisioOpenPGPTests",
            dependencies: [
                "ProvisioOpenPGP",
                "ProvisioProcess",
            ]
        ),
        .testTarget(
            name: "ProvisioCryptoTests",
            dependencies: [
                "ProvisioCore",
                "ProvisioCrypto",
                "ProvisioSandbox",
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: serverOnly),
                .product(name: "X509", package: "swift-certificates", condition: serverOnly),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: serverOnly),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ProvisioServerTests",
            dependencies: [
                "ProvisioCore",
                "ProvisioJSON",
                "ProvisioOutbound",
                "ProvisioHTTP",
                "ProvisioProcess",
                "ProvisioCrypto",
                "ProvisioSandbox",
                "ProvisioSandboxServer",
                "ProvisioSandboxAPI",
                "ProvisioSandboxGoogleWalletAPI",
                "ProvisioSandboxSamsungWalletAPI",
                "ProvisioNetworkAPI",
                "ProvisioConnectorAPI",
                "ProvisioNetworkConnector",
                "ProvisioServer",
                "ProvisioAPI",
                "ProvisioOpenPGP",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client", condition: serverOnly),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: serverOnly),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                // The MDES stand-in verifies OAuth signatures with an RSA public key.
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: serverOnly),
                .product(name: "Hummingbird", package: "hummingbird", condition: serverOnly),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: serverOnly),
                .product(name: "SQLKit", package: "sql-kit", condition: serverOnly),
                // SQLiteNativeConnectionTests call the driver with SQLite's result codes.
                "CSQLite",
                .product(name: "Logging", package: "swift-log", condition: serverOnly),
                .product(name: "Yams", package: "Yams", condition: serverOnly),
                .product(name: "X509", package: "swift-certificates", condition: serverOnly),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: serverOnly),
                .product(name: "NIOCore", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOPosix", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: serverOnly),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: serverOnly),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: serverOnly),
            ]
        ),
        // Runs the built `provisio` binary as a subprocess, as an issuer would.
        .testTarget(
            name: "ProvisioCLITests",
            dependencies: [
                "provisio",
                "ProvisioCore",
                "ProvisioProcess",
                "ProvisioCrypto",
                "ProvisioServer",
                "ProvisioAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client", condition: serverOnly),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: serverOnly),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SQLKit", package: "sql-kit", condition: serverOnly),
                .product(name: "Logging", package: "swift-log", condition: serverOnly),
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: serverOnly),
            ]
        ),
        .testTarget(
            name: "PassKitStandInTests",
            dependencies: [
                "ProvisioCore", "ProvisioProcess",
                .target(name: "PassKitStandIn", condition: .when(platforms: [.linux])),
            ],
            // Read from the checkout by AppleDeclarationTests (the manifest of Apple's declarations).
            exclude: ["AppleDeclarations.json"]
        ),
        .testTarget(
            name: "ProvisioKitTests",
            dependencies: [
                "ProvisioHTTP",
                "ProvisioKit",
                "ProvisioClient",
                "ProvisioCore",
                "ProvisioCrypto",
                "ProvisioSandbox",
                // The sandbox's HTTP service: the network the token changes reach (LiveNetworkConnector).
                "ProvisioSandboxServer",
                "ProvisioServer",
                .target(name: "PassKitStandIn", condition: .when(platforms: [.linux])),
                "ProvisioAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                // RecordingTransport wraps the client's own URLSession transport.
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client", condition: serverOnly),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
                .product(name: "Hummingbird", package: "hummingbird", condition: serverOnly),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: serverOnly),
                .product(name: "Logging", package: "swift-log", condition: serverOnly),
            ]
        ),
        .testTarget(
            name: "ProvisioSandboxTests",
            dependencies: [
                "ProvisioCore", "ProvisioCrypto", "ProvisioSandbox",
                .product(name: "Crypto", package: "swift-crypto", condition: serverOnly),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
