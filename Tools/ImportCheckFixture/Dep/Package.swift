// swift-tools-version: 6.1
// A dependency of the import check's fixture (see ../Package.swift).
import PackageDescription

let package = Package(
    name: "Dep",
    products: [
        .library(name: "DepKit", targets: ["DepKit"]),
        .library(name: "DepExtra", targets: ["DepExtra"]),
    ],
    targets: [
        .target(name: "DepKit", dependencies: ["DepInternal"]),
        .target(name: "DepExtra"),
        // Not in any product: a package depending on Dep must not import it.
        .target(name: "DepInternal"),
    ]
)
