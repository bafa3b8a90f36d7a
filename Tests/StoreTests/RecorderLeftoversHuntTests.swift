import Effects
import Foundation
import Testing

@testable import Store

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Defects the earlier recorder hunts left in the action-log recorder.
@MainActor
@Suite final class RecorderLeftoversHuntTests {
  let directory = TemporaryDirectory("recorder-leftovers-hunt-tests")

  typealias Recorder = ActionLogRecorder<Edges.State, Edges.Action>

  nonisolated static let xs = String(repeating: "x", count: 197)

  /// The texts of `aCutFallsBeforeAnEscapeOrACharacterItWouldSplit`, each with what a cut at
  /// 200 scalars keeps of it. Built one by one: as one array literal, they took five seconds
  /// to type-check, past the build's limit.
  nonisolated static let cuts: [(String, String)] = {
    let xs: String = RecorderLeftoversHuntTests.xs
    let shorter = String(xs.dropFirst())
    let shortest = String(xs.dropFirst(3))
    var cuts: [(String, String)] = []
    // The escape the cut would split, and where the text is cut.
    cuts.append((xs + #"\u{200B}"# + xs, xs))
    cuts.append((xs + #"x\u{1B}"# + xs, xs + "x"))
    cuts.append((xs + #"x\""# + xs, xs + "x"))
    cuts.append((shorter + #"\\\""# + xs, shorter + #"\\"#))
    cuts.append((shortest + #"\u{1B}"# + xs, shortest))
    // An escaped backslash is whole.
    cuts.append((xs + #"\\\""# + xs, xs + #"\\"#))
    // A letter and its accent, a flag, a family: one character each.
    cuts.append((xs + "xe\u{301}" + xs, xs + "x"))
    cuts.append((xs + "x🇫🇷" + xs, xs + "x"))
    cuts.append((xs + "👨‍👩‍👧" + xs, xs))
    // Whole escapes and characters are kept.
    cuts.append((xs + #"\n"# + xs, xs + #"\n"#))
    cuts.append((xs + "é" + xs, xs + "éx"))
    return cuts
  }()

  /// The recorder cuts an action's name at 200 Unicode scalars: the cut fell inside an
  /// escape (`\u{20` of `\u{200B}`, the backslash of `\"`), which then read as another
  /// character or as none, and between a letter and its accent. It falls before them now.
  @Test(arguments: cuts)
  func aCutFallsBeforeAnEscapeOrACharacterItWouldSplit(text: String, kept: String) {
    #expect(Recorder.cut(text, to: 200) == kept + "…")
  }

  /// A text of one character longer than the limit (a letter under thousands of accents) is
  /// still cut, at the limit: no character boundary is near enough.
  @Test func aCharacterLongerThanTheLimitIsCutInside() {
    let accents = String(repeating: "\u{301}", count: 1_000)
    let cut = Recorder.cut("e" + accents, to: 200)
    #expect(cut.unicodeScalars.count == 200)
    #expect(cut.hasSuffix("…"))
    #expect(Recorder.cut("xe" + accents, to: 200) == "x…")
  }

  /// The line saying why the recording stopped names the action cut before the escape the
  /// cut would split, and so does the warning.
  @Test func theStopLineNamesALongActionCutBeforeAnEscape() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Edges.State()) { Edges() }
    }
    let file = directory.path("escape.jsonl")
    let recorder = try store.recordActions(to: file, feature: "Edges", time: { 0 })
    recorder.lineLimit = 2_000
    // `Edges.Action.text("` is 19 scalars: the cut at 199 falls after `\u{1` of the 171st.
    let text = String(repeating: "x", count: 176) + "\u{1B}" + String(repeating: "y", count: 3_000)
    store.send(.text(text))
    #expect(recorder.actionCount == 0)
    let named = #"Edges.Action.text(""# + String(repeating: "x", count: 176) + "…"
    let message = warnings.messages.first ?? ""
    #expect(message.contains("action 1, \(named), could not be written"), "\(message)")
    let stop = try directory.lines(file).last ?? ""
    let reason = try JSONDecoder().decode(StopReason.self, from: Data(stop.utf8)).reason
    #expect(reason.hasPrefix("action 1, \(named), could not be written"), "\(reason)")
  }

  struct StopReason: Decodable {
    var reason: String
  }

  // MARK: - FIFO

  /// What `body` returns, run on a thread of its own: a call that blocks holds that thread,
  /// not the test's.
  nonisolated static func onThread<T: Sendable>(
    _ body: @escaping @Sendable () -> T
  ) async -> T {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: body()) }.start()
    }
  }

  /// A named pipe that no process reads held the recorder's `open` for ever (an `open` to
  /// write a FIFO waits for a reader). It is refused at once now, naming the pipe.
  @Test(.timeLimit(.minutes(10)))
  func aFIFOThatNoProcessReadsIsRefusedAtOnce() async throws {
    let path = directory.path("unread.fifo")
    try #require(mkfifo(path, 0o600) == 0)
    let error = await Self.onThread { () -> ActionLogError? in
      do throws(ActionLogError) {
        _ = try LogFile(creating: path)
        return nil
      } catch {
        return error
      }
    }
    #expect(
      error
        == .cannotWrite(
          path: path,
          reason: """
            it is a named pipe (FIFO) that no process reads; start the process that reads it \
            first, or record to a file
            """))
    // The pipe is still there, a pipe.
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }

  /// A FIFO that a process reads is written as before, and blocking: a line longer than the
  /// pipe holds goes out whole as the reader drains it (left non-blocking, its write failed
  /// once the pipe was full).
  @Test(.timeLimit(.minutes(10)))
  func aFIFOThatAProcessReadsIsWrittenWhole() async throws {
    let path = directory.path("read.fifo")
    try #require(mkfifo(path, 0o600) == 0)
    // Opened to read first, without blocking, so that the log's open finds a reader.
    let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(reader >= 0)
    try #require(fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) & ~O_NONBLOCK) == 0)
    let line = [UInt8](repeating: UInt8(ascii: "z"), count: 300_000)
    var log: LogFile? = try LogFile(creating: path)
    #expect(log?.isCreated == false)
    // Read once the log is open: with no writer yet, a read finds the end at once.
    async let received = Self.onThread { () -> Int in
      var total = 0
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        total += count
      }
      close(reader)
      return total
    }
    try log?.write(line: line)
    log = nil
    #expect(await received == line.count + 1)
  }
}
