import Foundation
import Testing

/// The package's code takes its locks through `Locked` (or, on the action path in `Store`,
/// `ModuleLock`), never through a bare `Mutex`: on Linux, a thread that waits for a `Mutex` gets
/// it from the kernel in uninstrumented code, and ThreadSanitizer, seeing no hand-off, reports
/// the accesses of two critical sections as a race (four threads adding to one `Mutex<Int>`
/// 50,000 times each: a report in each of three runs, and the exact total). Those reports hide
/// real ones, and came back each time a new file took a `Mutex`: this check names the line.
@Suite struct LockUseTests {
  /// The files that wrap a `Mutex`.
  static let wrappers = [
    "Sources/Effects/Runtime/Locked.swift", "Sources/Store/Internal/ModuleLock.swift",
  ]

  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// `path:line: text` for each line of code (not a comment) under `folder` that makes a
  /// `Mutex`, outside the files `skipped` (paths from the package's root) and this one.
  static func bareMutexes(under folder: String, skipping skipped: [String] = wrappers) throws
    -> [String]
  {
    let root = packageRoot
    let thisFile = URL(fileURLWithPath: #filePath).standardizedFileURL.path
    let files = try #require(
      FileManager.default.enumerator(
        at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil))
    var found: [String] = []
    for case let file as URL in files where file.pathExtension == "swift" {
      let path = String(
        file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
      guard !skipped.contains(path), file.standardizedFileURL.path != thisFile else { continue }
      let lines = try String(contentsOf: file, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated() {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { continue }
        if code.contains("Mutex<") || code.contains("Mutex(") {
          found.append("\(path):\(index + 1): \(code)")
        }
      }
    }
    return found.sorted()
  }

  @Test(arguments: ["Sources", "Tests"])
  func noFileButTheWrappersMakesAMutex(folder: String) throws {
    let found = try Self.bareMutexes(under: folder)
    #expect(
      found.isEmpty,
      "use Locked (ModuleLock on Store's action path) instead of Mutex:\n\(found.joined(separator: "\n"))"
    )
  }

  /// The check reads the files it means to: left in, the wrappers' own `Mutex`es are found,
  /// each named by its file and line.
  @Test func theCheckFindsTheWrappersOwnMutexes() throws {
    let found = try Self.bareMutexes(under: "Sources", skipping: [])
    for wrapper in Self.wrappers {
      let lines = try String(
        contentsOf: Self.packageRoot.appendingPathComponent(wrapper), encoding: .utf8
      ).split(separator: "\n", omittingEmptySubsequences: false)
      let line = try #require(lines.firstIndex { $0.contains("let mutex: Mutex<Value>") })
      #expect(found.contains("\(wrapper):\(line + 1): private let mutex: Mutex<Value>"), "\(found)")
    }
    #expect(found.count == 2 * Self.wrappers.count, "\(found)")
  }
}
