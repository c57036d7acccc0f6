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
        .library(name: "DependencyStoreTesting", targets: ["DependencyStoreTesting"]),
        .library(name: "Services", targets: ["Services"]),
        .executable(name: "access-token-cli", targets: ["AccessTokenCLI"]),
    ],
    targets: [
        .target(name: "DependencyStore", dependencies: ["DependencyStoreAtomics"]),
        // Acquire/release loads and stores, which the standard library offers only from iOS 18,
        // and the C thread-local where a thread finds its resolution stack.
        .target(name: "DependencyStoreAtomics"),
        // Test support (a Swift Testing trait, an XCTest base class, assertions): its own target,
        // so the core never imports a test framework.
        .target(name: "DependencyStoreTesting", dependencies: ["DependencyStore"]),
        .target(name: "Services", dependencies: ["DependencyStore"]),
        .executableTarget(name: "AccessTokenCLI", dependencies: ["DependencyStore", "Services"]),
        .testTarget(name: "DependencyStoreTests", dependencies: ["DependencyStore", "DependencyStoreTesting"]),
        .testTarget(
            name: "ServicesTests",
            // The CLI is a dependency so that it is built before the tests that run it.
            dependencies: ["DependencyStore", "DependencyStoreTesting", "Services", "AccessTokenCLI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
