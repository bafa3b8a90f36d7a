import Foundation
import Testing

/// Names the package's code keeps to a few files, each for a reason found the hard way; a check
/// names the file and line of any other use.
@Suite struct CodeRuleTests {
  /// A name the package's code uses only in some files, and what to use elsewhere.
  struct Rule: Sendable, CustomTestStringConvertible {
    /// The identifier.
    let name: String
    /// The files allowed to name it, from the package's root.
    let allowedIn: [String]
    /// What to use instead, said with the lines found.
    let instead: String

    var testDescription: String { name }
  }

  /// Locks are taken through `Locked` (or, on the action path in `Store`, `ModuleLock`), never
  /// through a bare `Mutex`: on Linux, a thread that waits for a `Mutex` gets it from the kernel
  /// in uninstrumented code, and ThreadSanitizer, seeing no hand-off, reports the accesses of
  /// two critical sections as a race (four threads adding to one `Mutex<Int>` 50,000 times
  /// each: a report in each of three runs, and the exact total). Those reports hide real ones,
  /// and came back each time a new file took a `Mutex`.
  static let mutex = Rule(
    name: "Mutex",
    allowedIn: ["Sources/Effects/Runtime/Locked.swift", "Sources/Store/Internal/ModuleLock.swift"],
    instead: "use Locked (ModuleLock on Store's action path) instead of Mutex")

  /// Nothing waits for a process with `waitUntilExit()`, which runs the calling thread's run
  /// loop until the process ends: on the main actor, the main run loop runs other tests'
  /// main-actor jobs inside the waiting one (a test that takes 1.7 s alone took 1,305 s in a
  /// full ThreadSanitizer run), and on a thread of its own it polls without pause. The tests
  /// start a process with `Process.start()` (Tests/DemoTests/ProcessSupport.swift) and await
  /// its end.
  static let processWait = Rule(
    name: "waitUntilExit",
    allowedIn: [],
    instead: """
      start the process with Process.start() (Tests/DemoTests/ProcessSupport.swift) and \
      await its end, instead of waitUntilExit()
      """)

  static let rules = [mutex, processWait]

  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// The lines of the Swift source `text` with its comments and the contents of its string
  /// literals blanked out, so that only code is left: `//` and `///` comments, `/* */` blocks
  /// (nested, as Swift nests them, and across lines), `"…"`, `"""…"""` across lines, and raw
  /// strings (`#"…"#`). An interpolation's code is blanked with its string; one that holds a
  /// string literal of its own ends the blanking early, for the rest of its line.
  static func codeLines(of text: String) -> [String] {
    var lines: [String] = []
    var commentDepth = 0
    /// While inside a string: whether it is multi-line, and its raw delimiter's `#`s.
    var string: (multiline: Bool, hashes: Int)?
    let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/")
    let star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\"), space = UInt8(ascii: " ")
    for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      let bytes = Array(line)
      var code: [UInt8] = []
      var index = 0
      func at(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
      }
      /// Whether `count` quotes and then `hashes` `#`s start at `index`.
      func delimiter(quotes count: Int, hashes: Int) -> Bool {
        (0..<count).allSatisfy { at($0) == quote }
          && (0..<hashes).allSatisfy { at(count + $0) == hash }
      }
      while index < bytes.count {
        if commentDepth > 0 {
          if at(0) == star, at(1) == slash {
            commentDepth -= 1
            index += 2
          } else if at(0) == slash, at(1) == star {
            commentDepth += 1
            index += 2
          } else {
            index += 1
          }
          code.append(space)
        } else if let open = string {
          let quotes = open.multiline ? 3 : 1
          if open.hashes == 0, at(0) == backslash {
            index += 2
          } else if delimiter(quotes: quotes, hashes: open.hashes) {
            string = nil
            index += quotes + open.hashes
            code.append(quote)
          } else {
            index += 1
          }
        } else if at(0) == slash, at(1) == slash {
          break
        } else if at(0) == slash, at(1) == star {
          commentDepth = 1
          index += 2
        } else {
          var hashes = 0
          while at(hashes) == hash { hashes += 1 }
          if at(hashes) == quote {
            let multiline = at(hashes + 1) == quote && at(hashes + 2) == quote
            string = (multiline, hashes)
            index += hashes + (multiline ? 3 : 1)
            code.append(quote)
          } else {
            let end = min(index + hashes + 1, bytes.count)
            code.append(contentsOf: bytes[index..<end])
            index = end
          }
        }
      }
      // A single-line string does not go on to the next line.
      if string?.multiline == false { string = nil }
      lines.append(String(decoding: code, as: UTF8.self))
    }
    return lines
  }

  /// Whether `code` holds the identifier `name` (not as part of a longer one).
  static func names(_ name: String, in code: String) -> Bool {
    code.contains(name)
      && code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.contains { $0 == name }
  }

  /// `path:line: text` for each line under `folder` whose code names `name`, outside the
  /// files `skipped` (paths from the package's root).
  static func lines(naming name: String, under folder: String, skipping skipped: [String])
    throws -> [String]
  {
    let root = packageRoot.standardizedFileURL.path
    let files = try #require(
      FileManager.default.enumerator(
        at: packageRoot.appendingPathComponent(folder), includingPropertiesForKeys: nil))
    var found: [String] = []
    for case let file as URL in files where file.pathExtension == "swift" {
      let path = String(file.standardizedFileURL.path.dropFirst(root.count + 1))
      guard !skipped.contains(path) else { continue }
      let text = try String(contentsOf: file, encoding: .utf8)
      let source = text.split(separator: "\n", omittingEmptySubsequences: false)
      for (index, code) in codeLines(of: text).enumerated() where names(name, in: code) {
        found.append("\(path):\(index + 1): \(source[index].trimmingCharacters(in: .whitespaces))")
      }
    }
    return found.sorted()
  }

  @Test(arguments: rules, ["Sources", "Tests"])
  func noOtherFileNamesTheRulesName(rule: Rule, folder: String) throws {
    let found = try Self.lines(naming: rule.name, under: folder, skipping: rule.allowedIn)
    #expect(
      found.isEmpty,
      """
      \(rule.instead):
      \(found.joined(separator: "\n"))
      """
    )
  }

  /// The check reads the files it means to: left in, the wrappers' own `Mutex`es are found,
  /// each named by its file and line.
  @Test func theCheckFindsTheWrappersOwnMutexes() throws {
    for wrapper in Self.mutex.allowedIn {
      let found = try Self.lines(
        naming: "Mutex",
        under: URL(fileURLWithPath: wrapper).deletingLastPathComponent().relativePath,
        skipping: [])
      let lines = try String(
        contentsOf: Self.packageRoot.appendingPathComponent(wrapper), encoding: .utf8
      ).split(separator: "\n", omittingEmptySubsequences: false)
      let stored = try #require(lines.firstIndex { $0.contains("let mutex: Mutex<Value>") })
      let made = try #require(lines.firstIndex { $0.contains("mutex = Mutex(initialValue)") })
      #expect(
        found == [
          "\(wrapper):\(stored + 1): private let mutex: Mutex<Value>",
          "\(wrapper):\(made + 1): mutex = Mutex(initialValue)",
        ])
    }
  }

  /// Code that names `Mutex` is found however it is spelled; the name in a comment, a string
  /// or another identifier is not.
  @Test func onlyCodeCounts() {
    let source = #"""
      let a = Mutex<Int>(0)
      let b = Synchronization.Mutex(0)
      typealias Lock = Mutex
      let c: Mutex <Int> = .init(0)
      // let d = Mutex(0)
      /// `Mutex<Int>` in a doc comment
      let e = makeMutex()  // Mutex(0)
      /* let f = Mutex(0)
         /* nested */ Mutex(0) */ let g = Mutex(0)
      let h = "Mutex(0)"; let i = Mutex(0)
      let j = #"say "Mutex(0)" here"#
      let k = """
        Mutex(0)
        """
      let l = Mutex.self
      """#
    let found = Self.codeLines(of: source).enumerated()
      .filter { Self.names("Mutex", in: $0.element) }.map { $0.offset + 1 }
    #expect(found == [1, 2, 3, 4, 9, 10, 15])
  }

  /// The other rule's name is found the same way: in code, not in a comment or a string.
  @Test func aProcessWaitIsFoundInCodeOnly() {
    let source = #"""
      process.waitUntilExit()
      // process.waitUntilExit()
      let hint = "call waitUntilExit()"
      await offTheCooperativePool { first.waitUntilExit() }
      """#
    let found = Self.codeLines(of: source).enumerated()
      .filter { Self.names(Self.processWait.name, in: $0.element) }.map { $0.offset + 1 }
    #expect(found == [1, 4])
  }

  /// The modules the package's code may import: the toolchain's own (DESIGN.md: no outside
  /// package; no SwiftUI, UIKit or Combine, so that it builds on Linux and compiles unchanged
  /// on Apple platforms) and the package's targets.
  static let importable: Set<String> = [
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Observation",
    "Synchronization", "XCTest", "Testing", "Glibc", "Musl", "Darwin",
    "Effects", "Store", "StoreTesting", "CartFeature", "AccountFeature", "AppFeature", "demo",
  ]

  /// The module each `import` in `code` (lines of code, as ``codeLines(of:)`` leaves them)
  /// names, with the line's number: `import M`, `@testable import M`, `public import M`,
  /// `import struct M.Name`.
  static func imports(in code: [String]) -> [(line: Int, module: String)] {
    let kinds: Set<Substring> = [
      "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
    ]
    let modifiers: Set<Substring> = [
      "public", "package", "internal", "fileprivate", "private", "@testable", "@preconcurrency",
    ]
    var found: [(line: Int, module: String)] = []
    for (index, line) in code.enumerated() {
      var words = line.split(whereSeparator: \.isWhitespace)[...]
      while let first = words.first, modifiers.contains(first) || first.hasPrefix("@_") {
        words = words.dropFirst()
      }
      guard words.first == "import", var name = words.dropFirst().first else { continue }
      if kinds.contains(name), let qualified = words.dropFirst(2).first { name = qualified }
      let module = name.split(separator: ".").first.map(String.init) ?? String(name)
      found.append((index + 1, module.trimmingCharacters(in: CharacterSet(charactersIn: ";"))))
    }
    return found
  }

  /// Each `import` in the Swift files under `folder`: the module, and `path:line: module`.
  static func imports(under folder: String) throws -> [(module: String, place: String)] {
    let root = packageRoot.standardizedFileURL.path
    let files = try #require(
      FileManager.default.enumerator(
        at: packageRoot.appendingPathComponent(folder), includingPropertiesForKeys: nil))
    var found: [(module: String, place: String)] = []
    for case let file as URL in files where file.pathExtension == "swift" {
      let path = String(file.standardizedFileURL.path.dropFirst(root.count + 1))
      let text = try String(contentsOf: file, encoding: .utf8)
      for (line, module) in imports(in: codeLines(of: text)) {
        found.append((module, "\(path):\(line): \(module)"))
      }
    }
    return found
  }

  /// Every `import` in Sources and Tests names a toolchain module or one of the package's
  /// targets.
  @Test(arguments: ["Sources", "Tests"])
  func everyImportIsOfTheToolchainOrThePackage(folder: String) throws {
    let found = try Self.imports(under: folder)
    let count = found.count
    let foreign = found.filter { !Self.importable.contains($0.module) }.map(\.place)
    // The walk read the files: the package imports its modules hundreds of times.
    #expect(count > 100)
    #expect(
      foreign.isEmpty,
      """
      only the toolchain's modules and the package's own may be imported:
      \(foreign.joined(separator: "\n"))
      """)
  }

  /// What a module's sources must not import: the test frameworks and `StoreTesting` stay out
  /// of the libraries an app links and of `demo` (DESIGN.md: the test support is never
  /// linked into an app), and `Effects` stands below `Store`.
  static let forbiddenImports: [(folder: String, modules: Set<String>)] = [
    ("Sources/Effects", ["XCTest", "Testing", "StoreTesting", "Store"]),
    ("Sources/Store", ["XCTest", "Testing", "StoreTesting"]),
    ("Sources/CartFeature", ["XCTest", "Testing", "StoreTesting"]),
    ("Sources/AccountFeature", ["XCTest", "Testing", "StoreTesting"]),
    ("Sources/AppFeature", ["XCTest", "Testing", "StoreTesting"]),
    ("Sources/demo", ["XCTest", "Testing", "StoreTesting"]),
  ]

  @Test(arguments: 0..<6)
  func aLibraryImportsNeitherATestFrameworkNorTheModulesAboveIt(entry: Int) throws {
    let (folder, modules) = Self.forbiddenImports[entry]
    let imports = try Self.imports(under: folder)
    let count = imports.count
    let found = imports.filter { modules.contains($0.module) }.map(\.place)
    #expect(count > 0, "no import read under \(folder)")
    #expect(
      found.isEmpty,
      "\(folder) must not import \(modules.sorted()):\n\(found.joined(separator: "\n"))")
  }

  /// The manifest names no outside package.
  @Test func thePackageDependsOnNoOtherPackage() throws {
    let manifest = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let code = Self.codeLines(of: manifest).joined(separator: "\n")
    #expect(!code.contains(".package("))
    #expect(Self.imports(in: Self.codeLines(of: manifest)).map(\.module) == ["PackageDescription"])
  }

  /// The import check finds each spelling of an import, in code only.
  @Test func anImportIsFoundInEachSpellingInCodeOnly() {
    let source = #"""
      import SwiftUI
      @testable import Store
      public import Combine
      import struct UIKit.UIColor
      @preconcurrency import Dispatch
      // import AppKit
      let text = "import Cocoa"
        #if canImport(Glibc)
          import Glibc
        #endif
      """#
    let found = Self.imports(in: Self.codeLines(of: source))
    #expect(found.map(\.line) == [1, 2, 3, 4, 5, 9])
    #expect(found.map(\.module) == ["SwiftUI", "Store", "Combine", "UIKit", "Dispatch", "Glibc"])
  }
}
