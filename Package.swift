// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "DependencyStore",
    platforms: [
        .iOS(.v13),
        .macOS(.v10_15),
        .tvOS(.v13),
        .watchOS(.v6),
    ],
    products: [
        .library(name: "DependencyStore", targets: ["DependencyStore"]),
        .library(name: "Services", targets: ["Services"]),
        .executable(name: "access-token-cli", targets: ["AccessTokenCLI"]),
    ],
    targets: [
        .target(name: "DependencyStore"),
        .target(name: "Services", dependencies: ["DependencyStore"]),
        .executableTarget(name: "AccessTokenCLI", dependencies: ["DependencyStore", "Services"]),
        .testTarget(name: "DependencyStoreTests", dependencies: ["DependencyStore"]),
        .testTarget(
            name: "ServicesTests",
            // The CLI is a dependency so that it is built before the tests that run it.
            dependencies: ["DependencyStore", "Services", "AccessTokenCLI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
