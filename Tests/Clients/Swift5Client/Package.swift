// swift-tools-version: 6.0
// A client of DependencyStore in the Swift 5 language mode, as many apps still are: CI builds it
// with warnings as errors, so the shapes below must compile without a warning in that mode too.
import PackageDescription

let package = Package(
    name: "Swift5Client",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(name: "DependencyStore", path: "../../..")],
    targets: [
        .target(name: "Swift5Client", dependencies: [.product(name: "DependencyStore", package: "DependencyStore")])
    ],
    swiftLanguageModes: [.v5]
)
