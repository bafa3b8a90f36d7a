import Foundation

/// A directory of a suite's own for the logs its tests write, removed with the suite.
final class TemporaryDirectory: Sendable {
  let url: URL

  /// Creates a new directory whose name starts with `prefix`.
  init(_ prefix: String) {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The URL of the file `name` in the directory.
  func appendingPathComponent(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// The path of the file `name` in the directory.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// The lines of the file at `file`.
  func lines(_ file: String) throws -> [String] {
    try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
  }
}
