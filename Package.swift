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
        // The test helpers another package's tests depend on (chapter 12), as swift-nio ships NIOTestUtils, and the
        // lock they share with this package.
        .library(name: "PortableTestSupport", targets: ["PortableTestSupport"]),
        .library(name: "POILock", targets: ["POILock"]),
    ],
    // Toolchain only: the package must build offline on a fresh machine.
    dependencies: [],
    // Layers, each target importing only targets of a lower layer: chapter 12 draws them and says what each holds,
    // and scripts/tool check-layout, which holds them (its LAYERS), checks every import against them. Two targets stand
    // apart, for tests only: PortableTestSupport (a product) and POITestSupport (this package's own).
    targets: [
        // A lock ThreadSanitizer sees (Synchronization's Mutex is not seen on Linux): docs/linux-and-swift6.md.
        .target(name: "POILock", swiftSettings: swiftSettings),
        // Places, coordinates, distances, the one "nearest places" ordering, and numbers as text writes them.
        .target(name: "POIDomain", swiftSettings: swiftSettings),
        // The POSIX socket calls: owned descriptors, a listener, lines, blocking work on threads of its own.
        .target(name: "POISockets", dependencies: ["POILock"], swiftSettings: swiftSettings),
        // HTTP's words shared by the client's errors and the server: the reason phrases.
        .target(name: "POIHTTP", swiftSettings: swiftSettings),

        // The talk's networking layer: APIRequest, PointsOfInterestRequest, APIRequestLoader (URLSession).
        .target(
            name: "POINetworking", dependencies: ["POIDomain", "POIHTTP", "POILock"], swiftSettings: swiftSettings),
        // The talk's location service: LocationFetcher, CurrentLocationProvider, gpsd on Linux.
        .target(
            name: "POILocation", dependencies: ["POIDomain", "POILock", "POISockets"], swiftSettings: swiftSettings),
        // The stub server: the places over HTTP on POSIX sockets, with fault scenarios for end-to-end tests.
        .target(
            name: "POIServer", dependencies: ["POIDomain", "POILock", "POISockets", "POIHTTP"],
            swiftSettings: swiftSettings
        ),

        // App logic: the places list model, FeaturedPlaceManager, the launch shortcut. No server, no URLSession.
        .target(name: "POIApp", dependencies: ["POIDomain", "POILocation", "POILock"], swiftSettings: swiftSettings),

        // What both command lines share: option declarations, the small parser, exit statuses, usage errors. Its
        //    numbers are read as the server reads its own, by POIDomain's Numeral.
        .target(name: "POICommandLine", dependencies: ["POIDomain"], swiftSettings: swiftSettings),
        // poi's commands: nearby (with the in-process server when none is given) and featured.
        .target(
            name: "POICommands",
            dependencies: [
                "POICommandLine", "POIApp", "POIDomain", "POILocation", "POINetworking", "POIServer", "POISockets",
            ],
            swiftSettings: swiftSettings
        ),
        // poi-server's command, beside the server: it links neither URLSession nor the gpsd client.
        .target(
            name: "POIServerCommand",
            dependencies: ["POICommandLine", "POIServer", "POIDomain", "POISockets"],
            swiftSettings: swiftSettings
        ),

        // The thin executables.
        .executableTarget(name: "poi", dependencies: ["POICommands", "POICommandLine"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "poi-server", dependencies: ["POIServerCommand", "POICommandLine"], swiftSettings: swiftSettings),

        // Apart: the test helpers any package's tests can depend on (MockURLProtocol, ManualClock, BuiltProduct,
        // ProgramUnderTest...), built on the toolchain and POILock alone; chapter 12 says how. A product.
        .target(name: "PortableTestSupport", dependencies: ["POILock"], swiftSettings: swiftSettings),
        // Apart: this package's own test helpers (faults, sockets, gpsd fakes, recorded tracks, poi as a program
        // under test); not a product.
        .target(
            name: "POITestSupport",
            dependencies: [
                "POIApp", "POICommandLine", "POICommands", "POILocation", "POILock", "POISockets",
                "PortableTestSupport",
            ],
            swiftSettings: swiftSettings
        ),

        // The test pyramid: one target per tier, so `swift test --filter UnitTests` runs one tier (pyramid.json adds
        // PortableTestSupportTests, below, to the integration tier). Each lists exactly the modules its files import.
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "POIApp", "POICommandLine", "POICommands", "POIDomain", "POIHTTP", "POILocation", "POILock",
                "POINetworking", "POIServer", "POIServerCommand", "POISockets", "POITestSupport", "PortableTestSupport",
            ],
            path: "Tests/Unit",
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "POIApp", "POICommandLine", "POICommands", "POIDomain", "POILocation", "POILock", "POINetworking",
                "POIServer", "POIServerCommand", "POISockets", "POITestSupport", "PortableTestSupport",
            ],
            path: "Tests/Integration",
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "POIDomain", "POILock", "POINetworking", "POISockets", "POITestSupport", "PortableTestSupport",
            ],
            path: "Tests/EndToEnd",
            swiftSettings: testSwiftSettings
        ),
        // The portable helpers' own tests, which depend on the helpers and their lock alone: chapter 12's fresh
        // package runs them through the products. pyramid.json puts them in the integration tier (URLSession over
        // the stub, launched processes).
        .testTarget(
            name: "PortableTestSupportTests",
            dependencies: ["PortableTestSupport", "POILock"],
            swiftSettings: testSwiftSettings
        ),
        // Not a tier: the workshop's hidden tests, switched on by scripts/workshop (docs/workshop.md).
        .testTarget(
            name: "WorkshopTests",
            dependencies: ["POIApp", "POIDomain", "POILocation", "POILock", "POINetworking", "PortableTestSupport"],
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
