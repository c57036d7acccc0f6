// swift-tools-version: 6.0
// The benchmark lives in its own package so that the root package stays free of dependencies:
// only this package depends on the peers it measures against.
import PackageDescription

let package = Package(
    name: "DependencyStoreBenchmarks",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [
        .package(name: "DependencyStore", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                .product(name: "DependencyStore", package: "DependencyStore"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
