// swift-tools-version: 6.2
// The package of the PointsOfInterest showcase: the app of WWDC 2018 session 417
// "Testing Tips & Tricks", rebuilt as running software, with a test target per tier of the test pyramid.

import PackageDescription

/// Settings every target shares: Swift 6 language mode (set below) plus the upcoming features that keep
/// the code explicit about existentials, imports and what each file uses.
let swiftSettings: [SwiftSetting] = [
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0335-existential-any.md
    .enableUpcomingFeature("ExistentialAny"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0444-member-import-visibility.md
    .enableUpcomingFeature("MemberImportVisibility"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0409-access-level-on-imports.md
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Settings of the test targets: Swift 6 language mode only.
///
/// The talk's test code must compile as an attendee types it in, and it writes protocol types without `any` and relies on Foundation's members being visible
/// through `import XCTest`; the upcoming features above would reject both.
let testSwiftSettings: [SwiftSetting] = []

let package = Package(
    name: "PointsOfInterest",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "poi", targets: ["poi"]),
        .executable(name: "poi-server", targets: ["poi-server"]),
        .library(name: "POIDomain", targets: ["POIDomain"]),
        .library(name: "POINetworking", targets: ["POINetworking"]),
        .library(name: "POILocation", targets: ["POILocation"]),
        .library(name: "POIServer", targets: ["POIServer"]),
        .library(name: "POIApp", targets: ["POIApp"]),
    ],
    // Toolchain only: the package must build offline on a fresh machine.
    dependencies: [],
    targets: [
        // Places, coordinates and distances.
        .target(name: "POIDomain", swiftSettings: swiftSettings),
        // The talk's networking layer: APIRequest, PointsOfInterestRequest, APIRequestLoader.
        .target(name: "POINetworking", dependencies: ["POIDomain"], swiftSettings: swiftSettings),
        // The few POSIX socket calls shared by the gpsd client, the stub server and the fake gpsd.
        .target(name: "POISockets", swiftSettings: swiftSettings),
        // The talk's location service: LocationFetcher, CurrentLocationProvider, gpsd on Linux.
        .target(name: "POILocation", dependencies: ["POIDomain", "POISockets"], swiftSettings: swiftSettings),
        // The stub server: the places over HTTP on POSIX sockets, with fault scenarios for end-to-end tests.
        .target(name: "POIServer", dependencies: ["POIDomain", "POISockets"], swiftSettings: swiftSettings),
        // App logic: the places list model, FeaturedPlaceManager, the launch shortcut.
        .target(
            name: "POIApp",
            dependencies: ["POIDomain", "POINetworking", "POILocation", "POIServer"],
            swiftSettings: swiftSettings
        ),
        // The thin executables: the CLI and the stub server.
        .executableTarget(name: "poi", dependencies: ["POIApp"], swiftSettings: swiftSettings),
        .executableTarget(name: "poi-server", dependencies: ["POIApp"], swiftSettings: swiftSettings),
        // Test helpers shared by the test tiers (MockURLProtocol); not a product.
        .target(
            name: "POITestSupport",
            dependencies: ["POINetworking", "POILocation", "POISockets"], swiftSettings: swiftSettings),

        // The test pyramid: one target per tier, so `swift test --filter UnitTests` runs one tier.
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "POIDomain", "POINetworking", "POILocation", "POIServer", "POIApp", "POISockets", "POITestSupport",
            ],
            path: "Tests/Unit",
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "POIDomain", "POINetworking", "POILocation", "POIServer", "POIApp", "POISockets", "POITestSupport",
            ],
            path: "Tests/Integration",
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "POIDomain", "POINetworking", "POILocation", "POIServer", "POIApp", "POISockets", "POITestSupport",
            ],
            path: "Tests/EndToEnd",
            swiftSettings: testSwiftSettings
        ),
        // Not a tier: the workshop's hidden tests, switched on by scripts/workshop (docs/workshop.md).
        .testTarget(
            name: "WorkshopTests",
            dependencies: ["POIDomain", "POINetworking", "POIApp", "POITestSupport"],
            path: "Tests/Workshop",
            swiftSettings: testSwiftSettings
        ),
        // Not a tier: an on-demand measurement of the talk's advice on predicate expectations.
        .testTarget(
            name: "ComparisonTests",
            path: "Tests/Comparisons",
            swiftSettings: testSwiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
