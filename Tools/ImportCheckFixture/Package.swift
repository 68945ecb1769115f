// swift-tools-version: 6.1
// The fixture of `Tools/check-imports.py --self-test`, not part of Provisio's package. As committed,
// every import here is declared and the check passes; the self-test copies this directory and
// edits the copy (drops a declaration, adds an import) to prove the check then fails.
import PackageDescription

let package = Package(
    name: "ImportCheckFixture",
    dependencies: [
        // A local package: products DepKit and DepExtra, and DepInternal, a module no product exposes.
        .package(path: "Dep")
    ],
    targets: [
        .target(name: "Lib"),
        .target(
            name: "App",
            // The self-test removes "Lib" from this line to make App's imports of Lib undeclared.
            dependencies: ["Lib", .product(name: "DepKit", package: "Dep")]
        ),
        .testTarget(name: "AppTests", dependencies: ["App"]),
    ]
)
