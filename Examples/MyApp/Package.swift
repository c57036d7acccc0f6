// swift-tools-version: 6.0
// A package of a user's own that depends on DependencyStore exactly as Docs/GettingStarted.md
// says: `.ci/check-consumer` checks that the lines between the markers are the guide's, points
// the guide's URL at this clone (a SwiftPM mirror, since no release is published), then builds it
// with warnings as errors and runs its tests.
import PackageDescription

let package = Package(
    name: "MyApp",
    // From Docs/GettingStarted.md, "Add the package":
    // --- begin GettingStarted
platforms: [.macOS(.v10_15), .iOS(.v13)],   // at least DependencyStore's
dependencies: [
    // No release is tagged yet: follow the main branch (`from: "0.1.0"` once one is).
    .package(url: "https://github.com/OWNER/DependencyStore", branch: "main"),
],
targets: [
    .target(name: "MyApp", dependencies: [
        .product(name: "DependencyStore", package: "DependencyStore"),
    ]),
    .testTarget(name: "MyAppTests", dependencies: [
        "MyApp",
        .product(name: "DependencyStoreTesting", package: "DependencyStore"),
    ]),
]
    // --- end GettingStarted
)
