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
  /// missing. Besides the executable's directory, the directories of the loaded bundles are
  /// tried: a test bundle sits next to the resource bundle in the build directory.
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
    [Bundle.main.bundleURL]
      + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
  }
}
