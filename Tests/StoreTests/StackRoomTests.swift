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
    case bag(Bag)
    case node(Tree)
  }

  /// A leaf of unordered collections, which the canonical form of a state puts in order.
  struct Bag: Codable, Equatable, Sendable {
    /// Written as an array.
    var numbers: Set<Int>
    /// Keys that are not strings or integers: written as a flat array of keys and values.
    var byPoint: [Point: Int]
  }

  struct Point: Codable, Hashable, Sendable {
    var x: Int
    var y: Int
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
    /// Whether each tree ends in a ``Bag`` rather than a number.
    var isBagged = false

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .grow(let leaf):
        state.tree = StackRoomTests.tree(depth: depth, leaf: leaf + offset, isBagged: isBagged)
        return .none
      }
    }
  }

  /// A tree of `depth` levels above `leaf`, or above a bag made of it (see ``bag(_:capacity:)``).
  static func tree(depth: Int, leaf: Int, isBagged: Bool = false, capacity: Int = 0) -> Tree {
    var tree = isBagged ? Tree.bag(bag(leaf, capacity: capacity)) : Tree.leaf(leaf)
    for _ in 0..<depth { tree = .node(tree) }
    return tree
  }

  /// A bag of twenty numbers from `leaf`, and eight points whose `y` is `leaf`: equal bags
  /// made with different capacities iterate in different orders.
  static func bag(_ leaf: Int, capacity: Int = 0) -> Bag {
    var numbers = Set<Int>(minimumCapacity: capacity)
    for number in (leaf..<leaf + 20).reversed() { numbers.insert(number) }
    var byPoint = [Point: Int](minimumCapacity: capacity)
    for x in (0..<8).reversed() { byPoint[Point(x: x, y: leaf)] = x }
    return Bag(numbers: numbers, byPoint: byPoint)
  }

  /// The deepest tree whose log's lines the encoder writes (the state sits two levels down a
  /// line, and the encoder writes 512 levels at most).
  static let deepest = 252

  /// The deepest tree ending in a bag whose log's lines the encoder writes: a bag takes five
  /// levels (`{"bag":{"_0":{"byPoint":[{"x":...`) where a number takes two.
  static let deepestBagged = deepest - 2

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
    /// child finds as its parent's (an exit test's body cannot capture a path), and by the
    /// test, since the two exit tests may run at once.
    static func path(ofTestProcess process: Int32, isBagged: Bool = false) -> String {
      FileManager.default.temporaryDirectory
        .appendingPathComponent("stack-room-tests-\(process)\(isBagged ? "-bagged" : "").jsonl")
        .path
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

    /// The same with a set and a dictionary whose keys are not strings at the deepest level:
    /// the canonical form that puts them in order, which every checkpoint's digest and every
    /// step's changes are taken of, read and wrote the state on the caller's stack, once per
    /// level, and overflowed it.
    @Test func theDeepestStateWithUnorderedCollectionsIsComparedOnASmallStack() async throws {
      let path = Self.path(ofTestProcess: getpid(), isBagged: true)
      try? FileManager.default.removeItem(atPath: path)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        let problems = try await StackRoomTests.problemsReplayingTheDeepestState(
          at: StackRoomTests.path(ofTestProcess: getppid(), isBagged: true), isBagged: true)
        guard problems.isEmpty else {
          FileHandle.standardError.write(Data(problems.joined(separator: "\n").utf8))
          exit(3)
        }
      }
      #expect(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self) == "")
    }
  #endif

  /// What goes wrong when the deepest state a log holds is recorded at `path` and replayed on
  /// a small stack: see ``theDeepestStateALogHoldsIsComparedOnASmallStack()``. With
  /// `isBagged`, each tree ends in a ``Bag``, and equal and different bags as deep are also
  /// compared with `stateChanges(from:to:)`.
  static func problemsReplayingTheDeepestState(at path: String, isBagged: Bool = false)
    async throws -> [String]
  {
    let depth = isBagged ? StackRoomTests.deepestBagged : StackRoomTests.deepest
    try await MainActor.run {
      let store = Store(initialState: Forest.State()) {
        Forest(depth: depth, isBagged: isBagged)
      }
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
        let report = try ActionLogReplayer(feature: "Forest") {
          Forest(depth: depth, isBagged: isBagged)
        }
        .replay(path: path) { step in
          steps.append("\(step.actionSummary) \(step.stateChanges.count)")
        }
        if report.actionCount != 2 { problems.append("replayed \(report.actionCount)") }
        // One after each action, and the final one.
        if report.checkpointsVerified != 3 {
          problems.append("verified \(report.checkpointsVerified) checkpoints")
        }
      } catch {
        problems.append("the replay threw \(error)")
      }
      // From one bag to the next, every point's y and 13 of the numbers sorted as text.
      let changed = isBagged ? Self.bagChanges : 1
      if steps != ["grow(leaf: 1) 1", "grow(leaf: 2) \(changed)"] { problems.append("\(steps)") }
      do {
        _ = try ActionLogReplayer(feature: "Forest") {
          Forest(depth: depth, offset: 1, isBagged: isBagged)
        }
        .replay(path: path)
        problems.append("the replay with another offset did not diverge")
      } catch {
        let message = "\(error)"
        let named = isBagged ? "bag._0.numbers" : "leaf._0: 1 → 2"
        if !message.contains(named) { problems.append(message) }
      }
      if isBagged {
        problems += problemsComparingDeepBags(depth: depth)
      }
      let bad = String(repeating: "[", count: 500) + "tru" + String(repeating: "]", count: 500)
      if JSONCheck.check(Data(bad.utf8)).problem == nil {
        problems.append("a bad token 500 levels down was not found")
      }
      return problems
    }
  }

  /// How many fields differ between the bags of two leaves one apart.
  static let bagChanges = 21

  /// What goes wrong when trees `depth` levels deep, ending in bags, are compared with
  /// `stateChanges(from:to:)` (on the caller's stack): equal bags that iterate in different
  /// orders must compare equal, and different ones name what changed.
  static func problemsComparingDeepBags(depth: Int) -> [String] {
    var problems: [String] = []
    let roomy = Forest.State(tree: tree(depth: depth, leaf: 1, isBagged: true, capacity: 4096))
    let tight = Forest.State(tree: tree(depth: depth, leaf: 1, isBagged: true))
    let other = Forest.State(tree: tree(depth: depth, leaf: 2, isBagged: true))
    if case .bag(let bag) = roomy.tree.deepest, case .bag(let tightBag) = tight.tree.deepest,
      Array(bag.numbers) == Array(tightBag.numbers)
    {
      problems.append("the equal bags iterate alike")
    }
    let equal = stateChanges(from: roomy, to: tight)
    if !equal.isEmpty { problems.append("equal bags differ: \(equal)") }
    let changes = stateChanges(from: roomy, to: other)
    let isNamed = { (line: String) in line.hasPrefix("tree.node._0") && line.contains(".bag._0.") }
    if changes.count != bagChanges || !changes.allSatisfy(isNamed) {
      problems.append("the changes between different bags: \(changes)")
    }
    return problems
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

extension StackRoomTests.Tree {
  /// The leaf or bag at the bottom of the tree.
  var deepest: Self {
    var tree = self
    while case .node(let child) = tree { tree = child }
    return tree
  }
}
