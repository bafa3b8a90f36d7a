import Effects
import Foundation
import Testing

@testable import Store

/// The readers of JSON recurse once per level of nesting; a text nested deeper than
/// `StackRoom.callerNesting` is read on a thread with a stack of its own, so that the deepest
/// state a log can hold is compared on the 512 KB stack of a secondary thread on Apple
/// platforms, in a debug build.
@Suite struct StackRoomTests {
  /// A tree as deep as it is made: two levels of JSON a level (`{"node":{"_0":...}}`).
  indirect enum Tree: Codable, Equatable, Sendable {
    case leaf(Int)
    case node(Tree)
  }

  struct Forest: Reducer {
    struct State: Codable, Equatable, Sendable {
      var tree: Tree = .leaf(0)
    }
    enum Action: Codable, Equatable, Sendable {
      case grow(leaf: Int)
    }
    /// How many levels each grown tree has.
    let depth: Int
    /// Added to each leaf: a replay with another offset than the recording's diverges.
    var offset = 0

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .grow(let leaf):
        state.tree = StackRoomTests.tree(depth: depth, leaf: leaf + offset)
        return .none
      }
    }
  }

  /// A tree of `depth` levels above `leaf`.
  static func tree(depth: Int, leaf: Int) -> Tree {
    var tree = Tree.leaf(leaf)
    for _ in 0..<depth { tree = .node(tree) }
    return tree
  }

  /// The deepest tree whose log's lines the encoder writes (the state sits two levels down a
  /// line, and the encoder writes 512 levels at most).
  static let deepest = 252

  @Test func nestingIsCountedOutsideStrings() {
    #expect(JSONGrammar.nests(deeperThan: 2, Array("[[[1]]]".utf8)))
    #expect(!JSONGrammar.nests(deeperThan: 3, Array("[[[1]]]".utf8)))
    #expect(!JSONGrammar.nests(deeperThan: 1, Array(#"["[[[\"[{", "]]][", 1]"#.utf8)))
    #expect(JSONGrammar.nests(deeperThan: 1, Array(#"{"a": [{}]}"#.utf8)))
    // A closing bracket with none open makes no room for more.
    #expect(JSONGrammar.nests(deeperThan: 1, Array("]]]]]][[".utf8)))
    #expect(!JSONGrammar.nests(deeperThan: 1, Array(#"[1, "[[[[ unended"#.utf8)))
  }

  @Test func aShallowTextIsReadWhereItIsAskedForAndADeepOneOnAThreadOfItsOwn() {
    let caller = Thread.current
    let nested = { (levels: Int) in
      Data((String(repeating: "[", count: levels) + String(repeating: "]", count: levels)).utf8)
    }
    let shallow = nested(StackRoom.callerNesting)
    let deep = nested(StackRoom.callerNesting + 1)
    #expect(StackRoom.run(reading: shallow) { Thread.current == caller })
    #expect(!StackRoom.run(reading: deep) { Thread.current == caller })
    #expect(!StackRoom.run(reading: shallow, deep) { Thread.current == caller })
    // Either way, the body's result is what it returns.
    #expect(StackRoom.run(reading: deep) { JSONValue(parsing: deep) } == JSONValue(parsing: deep))
  }

  @Test func changesUnderADeepTreeAreListedAsUnderAShallowOne() {
    let old = Forest.State(tree: Self.tree(depth: Self.deepest, leaf: 1))
    let new = Forest.State(tree: Self.tree(depth: Self.deepest, leaf: 2))
    let lines = stateChanges(from: old, to: new)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("tree.node._0.node._0") == true)
    #expect(lines.first?.hasSuffix(".leaf._0: 1 → 2") == true)
  }

  #if EXIT_TESTS
    /// Where the child process writes its log: named by the test process's id, which the
    /// child finds as its parent's (an exit test's body cannot capture a path).
    static func path(ofTestProcess process: Int32) -> String {
      FileManager.default.temporaryDirectory
        .appendingPathComponent("stack-room-tests-\(process).jsonl").path
    }

    /// On a thread with the stack of a secondary thread on Apple platforms (512 KB), in a
    /// child process, so that an overflow fails this test instead of ending the run: the
    /// deepest state a log holds is recorded, replayed step by step (each step's changes and
    /// its action's summary), replayed into a divergence that names the leaf, and a line of
    /// the same depth with a bad token is checked.
    @Test func theDeepestStateALogHoldsIsComparedOnASmallStack() async throws {
      let path = Self.path(ofTestProcess: getpid())
      try? FileManager.default.removeItem(atPath: path)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        let problems = try await StackRoomTests.problemsReplayingTheDeepestState(
          at: StackRoomTests.path(ofTestProcess: getppid()))
        guard problems.isEmpty else {
          FileHandle.standardError.write(Data(problems.joined(separator: "\n").utf8))
          exit(3)
        }
      }
      #expect(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self) == "")
    }
  #endif

  /// What goes wrong when the deepest state a log holds is recorded at `path` and replayed on
  /// a small stack: see ``theDeepestStateALogHoldsIsComparedOnASmallStack()``.
  static func problemsReplayingTheDeepestState(at path: String) async throws -> [String] {
    let depth = StackRoomTests.deepest
    try await MainActor.run {
      let store = Store(initialState: Forest.State()) { Forest(depth: depth) }
      let recorder = try store.recordActions(
        to: path, feature: "Forest", checkpointInterval: 1, time: { 0 })
      store.send(.grow(leaf: 1))
      store.send(.grow(leaf: 2))
      try recorder.finish()
    }
    return StackRoomTests.onSmallStack {
      var problems: [String] = []
      var steps: [String] = []
      do {
        let report = try ActionLogReplayer(feature: "Forest") { Forest(depth: depth) }
          .replay(path: path) { step in
            steps.append("\(step.actionSummary) \(step.stateChanges.count)")
          }
        if report.actionCount != 2 { problems.append("replayed \(report.actionCount)") }
      } catch {
        problems.append("the replay threw \(error)")
      }
      if steps != ["grow(leaf: 1) 1", "grow(leaf: 2) 1"] { problems.append("\(steps)") }
      do {
        _ = try ActionLogReplayer(feature: "Forest") { Forest(depth: depth, offset: 1) }
          .replay(path: path)
        problems.append("the replay with another offset did not diverge")
      } catch {
        let message = "\(error)"
        if !message.contains("leaf._0: 1 → 2") { problems.append(message) }
      }
      let bad = String(repeating: "[", count: 500) + "tru" + String(repeating: "]", count: 500)
      if JSONCheck.check(Data(bad.utf8)).problem == nil {
        problems.append("a bad token 500 levels down was not found")
      }
      return problems
    }
  }

  /// Whether this process runs under ThreadSanitizer (its runtime is linked in).
  static let isThreadSanitized = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

  /// The result of `body`, run on a thread with a stack of 512 KB (4 MB under
  /// ThreadSanitizer).
  static func onSmallStack<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
    let result = Locked<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let value = body()
      result.withLock { $0 = value }
      done.signal()
    }
    // ThreadSanitizer's instrumentation makes every frame larger, the encoder's and the
    // decoder's (which run where the caller is) too: 4 MB there.
    thread.stackSize = isThreadSanitized ? 4 << 20 : 512 << 10
    thread.start()
    done.wait()
    return result.withLock { $0! }
  }
}
