// swift-tools-version: 6.0
// An example server in a package of its own, so that the root package stays free of dependencies:
// only this package depends on Hummingbird. It depends on the root package by path.
import PackageDescription

let package = Package(
    name: "PriceServer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "price-server", targets: ["PriceServerApp"])
    ],
    dependencies: [
        .package(name: "DependencyStore", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
    ],
    targets: [
        // The routes, the wiring through the store and the hand-wired twin: a library, so that the
        // tests can call the handlers without starting a server.
        .target(
            name: "PriceServer",
            dependencies: [
                .product(name: "DependencyStore", package: "DependencyStore"),
                .product(name: "Services", package: "DependencyStore"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The command line: parses the options and runs the server.
        .executableTarget(
            name: "PriceServerApp",
            dependencies: [
                "PriceServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PriceServerTests",
            dependencies: [
                "PriceServer",
                .product(name: "DependencyStore", package: "DependencyStore"),
                .product(name: "Services", package: "DependencyStore"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
