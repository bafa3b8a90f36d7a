import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A problem the library found at run time that does not stop the app: an action sent to a
/// child that is gone, an effect error nobody handles, and the like.
///
/// Warnings name the problem and the source location it comes from. By default they are
/// printed to standard error, the first eight of each site in full and then, so that a loop
/// cannot flood the output, one each time the site's count doubles, with the count. One kind
/// is counted apart from the other warnings of its site: a child's `.send` dropped because
/// another child took its place, apart from the same reducer's warnings about a missing
/// child. A ``RuntimeWarningHandler`` replaces that printing, which is how a test store turns
/// warnings into test failures.
public struct RuntimeWarning: Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, naming the action, id or effect involved.
  public var message: String
  /// The file the warning is attributed to, as `#fileID` spells it.
  public var fileID: String
  /// The line the warning is attributed to.
  public var line: UInt
  /// For a warning without a line, what the default handler counts it under: its kind, when
  /// its text names something that varies (the action sent). Without it, each text counts
  /// alone, and a loop sending to a removed row's store printed every warning. For a warning
  /// with a line, a kind the default handler counts apart from the other warnings of that
  /// line: a reducer's site warns of more than one problem, and a flood of one must not hide
  /// the other past the handler's limit.
  package var group: String?

  /// Creates a warning.
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - fileID: The file the warning is attributed to.
  ///   - line: The line the warning is attributed to.
  public init(message: String, fileID: String, line: UInt) {
    self.message = message
    self.fileID = fileID
    self.line = line
  }

  /// Creates a warning the library raises on its own account, with no line, counted by the
  /// default handler under `group` whatever its text.
  package init(message: String, fileID: String, group: String) {
    self.init(message: message, fileID: fileID, line: 0)
    self.group = group
  }

  /// The warning as printed: `fileID:line: runtime warning: message`, or `fileID: runtime
  /// warning: message` when it has no line (the library raised it on its own account, and
  /// `fileID` names the module).
  public var description: String {
    line > 0
      ? "\(fileID):\(line): runtime warning: \(message)"
      : "\(fileID): runtime warning: \(message)"
  }
}

/// Receives the runtime warnings of the stores created while it is installed.
///
/// ```swift
/// let warnings = Mutex<[RuntimeWarning]>([])  // import Synchronization
/// let handler = RuntimeWarningHandler { warning in warnings.withLock { $0.append(warning) } }
/// let store = RuntimeWarningHandler.$current.withValue(handler) {
///   Store(initialState: Feature.State()) { Feature() }
/// }
/// // The store keeps `handler`: its warnings go there for its whole life.
/// ```
public struct RuntimeWarningHandler: Sendable {
  private let handle: @Sendable (RuntimeWarning) -> Void

  /// Creates a handler that calls `handle` with each warning.
  ///
  /// - Parameter handle: Receives each warning; it may be called from any thread.
  public init(_ handle: @escaping @Sendable (RuntimeWarning) -> Void) {
    self.handle = handle
  }

  /// Reports a warning to this handler.
  ///
  /// - Parameter warning: The warning.
  public func callAsFunction(_ warning: RuntimeWarning) {
    handle(warning)
  }

  /// The default handler: prints warnings to standard error, the first eight of each site
  /// (file and line) in full, then one each time the site's count doubles, with the count
  /// (one kind is counted apart at its site, as ``RuntimeWarning`` says).
  public static let standardError = printingPerSite(writeToStandardError)

  /// A handler that writes each warning as one line, up to `limit` per site (file and line,
  /// and the warning's group when it has one: a kind counted apart at its site); past that,
  /// the warnings whose number from that site is a power of two, saying how many there
  /// were. A warning raised in a loop cannot flood the output, and its count shows how
  /// often it was raised (to within a factor of two: after 1,000, the last line says 512).
  /// Install a handler of your own to see every one.
  ///
  /// A warning with neither a line nor a group is counted by its text, for up to `textLimit`
  /// distinct texts: past that many, all the counts of texts start over, so that a process
  /// raising ever new texts (a warning naming each action) does not keep them all.
  package static func printingPerSite(
    limit: Int = 8, textLimit: Int = 1_024, _ write: @escaping @Sendable (String) -> Void
  ) -> RuntimeWarningHandler {
    let counts = Locked<(sites: [String: Int], texts: [String: Int])>(([:], [:]))
    return RuntimeWarningHandler { warning in
      // A warning without a source line is keyed by its group, or else by its text, so that
      // distinct problems all print; one with a line and a group, by both.
      let site =
        warning.line > 0
        ? "\(warning.fileID):\(warning.line)" + (warning.group.map { " \($0)" } ?? "")
        : warning.group.map { "\(warning.fileID) \($0)" }
      let count = counts.withLock { counts in
        guard let site else {
          let text = warning.description
          if counts.texts[text] == nil, counts.texts.count >= textLimit {
            counts.texts.removeAll(keepingCapacity: true)
          }
          counts.texts[text, default: 0] += 1
          return counts.texts[text]!
        }
        counts.sites[site, default: 0] += 1
        return counts.sites[site]!
      }
      if count <= limit {
        write(warning.description + "\n")
      } else if count & (count - 1) == 0 {
        write(
          """
          \(warning.description) (\(count) warnings from here so far; past the first \(limit), \
          one is printed each time the count doubles)

          """)
      }
    }
  }

  /// The handler that stores and runtimes capture when they are created.
  ///
  /// Bind it with `$current.withValue(_:operation:)` around the code that creates a store.
  /// Stores keep the handler they captured for their whole life, so warnings raised later by
  /// their effects still reach it.
  @TaskLocal public static var current: RuntimeWarningHandler = .standardError
}

/// Writes `text` to standard error whole (a write may take only part of it), unbuffered.
package func writeToStandardError(_ text: String) {
  var text = text
  text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
      if written <= 0 { break }
      offset += written
    }
  }
}
