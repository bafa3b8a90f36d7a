import Foundation

extension Demo {
  /// The resource bundle SwiftPM builds for this target, which it puts next to the executable.
  static var resourceBundleName: String {
    #if canImport(Darwin)
      "swift-unidirectional-store_demo.bundle"
    #else
      "swift-unidirectional-store_demo.resources"
    #endif
  }

  /// The path of the bundled sample log, or `nil` when the resource bundle is not next to the
  /// executable (a binary copied elsewhere without it).
  ///
  /// Looked up by hand because SwiftPM's `Bundle.module` stops the program when its bundle is
  /// missing. Besides the executable's directory, the directories of the bundle holding this
  /// code and of the loaded bundles are tried: a test bundle sits next to the resource bundle
  /// in the build directory.
  ///
  /// - Parameter directories: Where to look for the resource bundle, first match wins.
  static func bundledSamplePath(in directories: [URL] = defaultSampleDirectories) -> String? {
    for directory in directories {
      let bundleURL = directory.appendingPathComponent(resourceBundleName)
      guard FileManager.default.fileExists(atPath: bundleURL.path),
        let path = Bundle(url: bundleURL)?.path(forResource: "sample-session", ofType: "jsonl")
      else { continue }
      return path
    }
    return nil
  }

  private static var defaultSampleDirectories: [URL] {
    // Under `swift test` on macOS, the main bundle is the test runner's, in the toolchain,
    // and the test bundle that holds this code may be loaded without being listed in
    // `allBundles`; the bundle this code is in is asked for by name. Here (on Linux, and in
    // the executable) it is the main bundle.
    [Bundle.main.bundleURL, Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent()]
      + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
  }
}

/// A class of this module's, for `Bundle(for:)`: the bundle (or executable) this code was
/// linked into.
private final class BundleMarker {}
