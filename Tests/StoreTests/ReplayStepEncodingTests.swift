import Effects
import Foundation
import Testing

@testable import Store

/// A replay's steps share the encodings of their states: a timeline that prints each step's
/// changes encodes each state once, and a checkpoint digests the encoding a step made.
@MainActor
@Suite struct ReplayStepEncodingTests {
  /// How many times each state was encoded, by its run and count.
  nonisolated static let encodings = Locked<[String: Int]>([:])

  struct Counter: Reducer {
    struct State: Equatable, Codable {
      /// Tells one test's states from another's in `encodings`.
      var run: String
      var count = 0
      /// Encoded in canonical (sorted) order, so the shared encoding must be canonical too.
      var tags: Set<String> = []

      func encode(to encoder: any Encoder) throws {
        ReplayStepEncodingTests.encodings.withLock { $0["\(run)#\(count)", default: 0] += 1 }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(run, forKey: .run)
        try container.encode(count, forKey: .count)
        try container.encode(tags, forKey: .tags)
      }
    }
    enum Action: Equatable, Codable, Sendable {
      case add(Int)
    }
    var factor = 1

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .add(let amount):
        state.count += amount * factor
        state.tags.insert("t\(state.count % 7)")
      }
      return .none
    }
  }

  let directory = TemporaryDirectory("replay-step-encoding-tests")
  let run = UUID().uuidString

  /// Records `count` actions of `.add(1)`, a checkpoint every `interval`, and returns the
  /// log's path.
  func record(_ count: Int, interval: Int = 4) throws -> String {
    let store = Store(initialState: Counter.State(run: run)) { Counter() }
    let file = directory.path("log.jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Counter", checkpointInterval: interval, time: { 0 })
    for _ in 0..<count { store.send(.add(1)) }
    try recorder.finish()
    return file
  }

  func replayer(factor: Int = 1) -> ActionLogReplayer<Counter> {
    ActionLogReplayer(feature: "Counter") { Counter(factor: factor) }
  }

  func encodingCount(after sequence: Int) -> Int {
    Self.encodings.withLock { $0["\(run)#\(sequence)", default: 0] }
  }

  @Test func aTimelineEncodesEachStateOnceAndTheCheckpointsDigestThoseEncodings() throws {
    let file = try record(30)
    Self.encodings.withLock { $0 = $0.filter { !$0.key.hasPrefix(run) } }
    var steps: [ReplayStep<Counter.State, Counter.Action>] = []
    var changes: [[String]] = []
    let report = try replayer().replay(path: file) { step in
      steps.append(step)
      changes.append(step.stateChanges)
    }
    #expect(report.checkpointsVerified == 8)
    #expect(report.isComplete)
    // Each state after an action was encoded as one step's `stateAfter` alone: not again as
    // the next step's `stateBefore`, nor for the checkpoints after actions 4, 8, ... 28 and
    // the final one. Without the shared encodings, the states in the middle are encoded twice
    // as often as the last, and the checkpoints' once more.
    let counts = (1...30).map(encodingCount(after:))
    #expect(counts[0] > 0)
    #expect(counts.allSatisfy { $0 == counts[0] }, "\(counts)")
    // And they are the changes a fresh encoding of both states gives.
    for (step, listed) in zip(steps, changes) {
      #expect(listed == stateChanges(from: step.stateBefore, to: step.stateAfter))
      #expect(!listed.isEmpty)
    }
  }

  @Test func aStateSetAnewOnAStepIsEncodedAnew() throws {
    let file = try record(12)
    var checked = 0
    _ = try replayer().replay(path: file) { step in
      var later = step
      later.stateAfter.count += 100
      #expect(
        later.stateChanges == stateChanges(from: step.stateBefore, to: later.stateAfter))
      var earlier = step
      earlier.stateBefore = Counter.State(run: run, count: -5)
      #expect(
        earlier.stateChanges == stateChanges(from: earlier.stateBefore, to: step.stateAfter))
      // The copies' states were not kept for the step, nor for the next one.
      #expect(step.stateChanges == stateChanges(from: step.stateBefore, to: step.stateAfter))
      #expect(step.stateChanges.contains("count: \(step.sequence - 1) → \(step.sequence)"))
      checked += 1
    }
    #expect(checked == 12)
  }

  @Test func stepsAskedLaterAndOutOfOrderListTheirOwnChanges() throws {
    let file = try record(10)
    var steps: [ReplayStep<Counter.State, Counter.Action>] = []
    _ = try replayer().replay(path: file) { steps.append($0) }
    for step in steps.reversed() + steps {
      #expect(step.stateChanges == stateChanges(from: step.stateBefore, to: step.stateAfter))
    }
  }

  /// Steps share their replay's encodings across threads (`ReplayStep` is `Sendable`): each
  /// lists its own changes, whichever thread asks first.
  @Test func stepsAskedFromManyThreadsAtOnceListTheirOwnChanges() async throws {
    let file = try record(40)
    var steps: [ReplayStep<Counter.State, Counter.Action>] = []
    _ = try replayer().replay(path: file) { steps.append($0) }
    let expected = steps.map { stateChanges(from: $0.stateBefore, to: $0.stateAfter) }
    let asked = steps
    let results = await withTaskGroup(of: [[String]].self) { group in
      for reversed in [false, true, false, true, false, true, false, true] {
        group.addTask {
          let order = reversed ? Array(asked.indices.reversed()) : Array(asked.indices)
          var lists = [[String]](repeating: [], count: asked.count)
          for index in order { lists[index] = asked[index].stateChanges }
          return lists
        }
      }
      var results: [[[String]]] = []
      for await lists in group { results.append(lists) }
      return results
    }
    #expect(results.count == 8)
    for lists in results { #expect(lists == expected) }
  }

  @Test func aDivergenceReadsTheSameWhenTheStepsListedTheirChanges() throws {
    let file = try record(10)
    func failure(listingChanges: Bool) -> String {
      do {
        _ = try replayer(factor: 2).replay(path: file) { step in
          if listingChanges { _ = step.stateChanges }
        }
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    let plain = failure(listingChanges: false)
    #expect(plain.contains("checkpoint"), "\(plain)")
    #expect(failure(listingChanges: true) == plain)
  }
}
