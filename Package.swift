// swift-tools-version: 6.2
import PackageDescription

/// Swift Testing's exit tests (`#expect(processExitsWith:)`, which check that a program stops)
/// run where a test can start a process: not on iOS, tvOS, watchOS or visionOS, where they do
/// not compile. Tests that use them are inside `#if EXIT_TESTS`.
let exitTestSettings: [SwiftSetting] = [
  .define("EXIT_TESTS", .when(platforms: [.macOS, .linux, .windows]))
]

/// CI's checks, on when `UNIDIRECTIONAL_STORE_STRICT_CHECKS` is set (`.ci/run` sets it):
/// warnings are errors, and so are an expression that takes over a second to type-check and a
/// function body that takes over 2.5 s. Given here rather than with `-Xswiftc`, so that
/// `swift test` builds with the settings the build step used and reuses what it built, instead
/// of compiling the package again. Added to every target at the end of this file, so a new
/// target cannot miss them. Any value but empty or `0` turns them on. A package that depends
/// on this one gets no unsafe flags unless its environment sets the variable (SwiftPM would
/// then refuse the dependency: hence the long name).
let strictChecks: [SwiftSetting] =
  ["", "0", nil].contains(Context.environment["UNIDIRECTIONAL_STORE_STRICT_CHECKS"])
  ? []
  : [
    .unsafeFlags([
      "-warnings-as-errors",
      "-Xfrontend", "-warn-long-expression-type-checking=1000",
      "-Xfrontend", "-warn-long-function-bodies=2500",
    ])
  ]

let package = Package(
  name: "swift-unidirectional-store",
  platforms: [
    // Synchronization.Mutex and task executor preferences need these releases.
    .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
  ],
  products: [
    .library(name: "Store", targets: ["Store"]),
    .library(name: "Effects", targets: ["Effects"]),
    // Test-only helpers: link from test targets, never from an app.
    .library(name: "StoreTesting", targets: ["StoreTesting"]),
    .library(name: "CartFeature", targets: ["CartFeature"]),
    .library(name: "AccountFeature", targets: ["AccountFeature"]),
    .library(name: "AppFeature", targets: ["AppFeature"]),
  ],
  targets: [
    .target(name: "Effects"),
    .target(name: "Store", dependencies: ["Effects"]),
    .target(name: "StoreTesting", dependencies: ["Store", "Effects"]),
    .target(name: "CartFeature", dependencies: ["Store", "Effects"]),
    .target(name: "AccountFeature", dependencies: ["Store", "Effects"]),
    .target(
      name: "AppFeature",
      dependencies: ["CartFeature", "AccountFeature", "Store", "Effects"]
    ),
    .executableTarget(
      name: "demo",
      dependencies: ["AppFeature", "CartFeature", "AccountFeature", "Store", "Effects"],
      resources: [.copy("Resources/sample-session.jsonl")],
      // A command-line program: everything runs on the main actor.
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    .executableTarget(
      name: "bench",
      dependencies: [
        "Store", "Effects",
        // Only to time TestStore.send; not linked where XCTest is not a runtime library.
        .target(name: "StoreTesting", condition: .when(platforms: [.linux])),
      ]
    ),
    .testTarget(
      name: "StoreTests", dependencies: ["Store", "Effects"], swiftSettings: exitTestSettings),
    .testTarget(
      name: "FeatureTests",
      dependencies: [
        "AppFeature", "CartFeature", "AccountFeature", "StoreTesting", "Store", "Effects",
      ]
    ),
    .testTarget(
      name: "StoreTestingTests", dependencies: ["StoreTesting", "Store", "Effects"],
      swiftSettings: exitTestSettings),
    .testTarget(name: "DemoTests", dependencies: ["demo", "Store", "Effects"]),
    // Features written for, and tests run in, a module isolated to the main actor by default,
    // as Xcode 26 makes app targets: the Store documentation's "Modules Isolated to the Main
    // Actor" article is checked here.
    .testTarget(
      name: "MainActorDefaultTests", dependencies: ["StoreTesting", "Store", "Effects"],
      swiftSettings: [.defaultIsolation(MainActor.self)]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + strictChecks
}
