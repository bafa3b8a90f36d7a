import Effects
import Foundation
import Testing

@testable import Store

@MainActor
@Suite struct EffectTests {
  let clock = TestClock()

  @Test func incrementingIDsStartWhereAskedAndEachGeneratorStartsAgain() {
    let fromZero = UUIDGenerator.incrementing()
    #expect(fromZero() == UUID(counting: 0))
    #expect(fromZero() == UUID(counting: 1))
    let fromTen = UUIDGenerator.incrementing(from: 10)
    #expect(fromTen() == UUID(counting: 10))
    #expect(fromTen().uuidString == "00000000-0000-0000-0000-00000000000B")
    #expect(UUIDGenerator.incrementing(from: 10)() == UUID(counting: 10))
  }

  @Test func aUUIDCountsFromAnyIntegerType() {
    let index = 11
    #expect(UUID(counting: index) == UUID(counting: UInt64(11)))
    #expect(UUID(counting: Int8(11)).uuidString == "00000000-0000-0000-0000-00000000000B")
    #expect(UUID(counting: -1).uuidString == "00000000-0000-0000-0000-FFFFFFFFFFFF")
  }

  @Test func anIncrementingGeneratorStartsFromAnInt() {
    let start = 10
    #expect(UUIDGenerator.incrementing(from: start)() == UUID(counting: 10))
    #expect(UUIDGenerator.incrementing()() == UUID(counting: 0))
  }

  nonisolated func record(_ entry: String, after seconds: Int) -> Effect<LogFeature.Action> {
    .run { [clock] send in
      try await clock.sleep(for: .seconds(seconds))
      send(.record(entry))
    }
  }

  @Test func mergeRunsEffectsConcurrently() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in .merge(record("slow", after: 2), record("fast", after: 1)) }
    )
    harness.send(.start("x"))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start x", "fast"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start x", "fast", "slow"])
  }

  @Test func concatenateRunsEffectsInOrder() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in
        .concatenate(record("first", after: 2), .send(.record("between")), record("last", after: 1))
      }
    )
    harness.send(.start("x"))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(2))
    #expect(harness.state.log == ["start x", "first", "between"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start x", "first", "between", "last"])
  }

  @Test func concatenatedPartsStartWithinOneAdvance() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in .concatenate(record("a", after: 1), record("b", after: 1)) }
    )
    harness.send(.start("x"))
    await clock.advance(by: .seconds(2))
    #expect(harness.state.log == ["start x", "a", "b"])
    #expect(clock.now == TestClock.Instant(offset: .seconds(2)))
  }

  /// A concatenation grown one part at a time is one flat sequence: its parts start in a
  /// loop. Nested, each level started the next recursively, and a few thousand levels
  /// overflowed the stack.
  @Test func aConcatenationGrownInALoopIsFlatAndRunsInOrder() async {
    let count = 3_000
    let grown = { @Sendable [clock] () -> Effect<LogFeature.Action> in
      var effect = Effect<LogFeature.Action>.none
      for index in 0..<count {
        let part: Effect<LogFeature.Action> =
          index.isMultiple(of: 2)
          ? .send(.record("\(index)"))
          : .run { send in
            try await clock.sleep(for: .seconds(1))
            send(.record("\(index)"))
          }
        effect = effect.concatenate(with: part)
      }
      return effect
    }
    guard case .concatenate(let parts) = grown().operation else {
      Issue.record("not a concatenation")
      return
    }
    #expect(parts.count == count)
    let harness = Harness(initialState: LogFeature.State(), reducer: LogFeature { _ in grown() })
    harness.send(.start("x"))
    await clock.advance(by: .seconds(count))
    // Typed, outside `#expect`: inside it, the sum of a literal and a mapped range took the
    // type checker a quarter of a second.
    let expected: [String] = ["start x"] + (0..<count).map { String($0) }
    #expect(harness.state.log == expected)
  }

  /// A concatenation after another part is one part: its leading sends are reduced
  /// together, so one cannot stop the next by cancelling the whole, as when it is returned
  /// directly (and as `debounce` runs it, after its wait); so it is not spliced in.
  @Test func aConcatenationAfterAnotherPartIsOnePart() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { name in
        switch name {
        case "x":
          return Effect.concatenate(
            .run { _ in }, .concatenate(.send(.stop("all")), .send(.record("b")))
          )
          .cancellable(id: "all")
        default: return .none
        }
      }
    )
    harness.send(.start("x"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start x", "stop all", "b"])
  }

  /// Merging onto a merge gives one flat merge, whose parts start in a loop.
  @Test func aMergeGrownInALoopIsFlat() {
    var effect = Effect<LogFeature.Action>.none
    for index in 0..<100 { effect = effect.merge(with: .send(.record("\(index)"))) }
    guard case .merge(let parts) = effect.operation else {
      Issue.record("not a merge")
      return
    }
    #expect(parts.count == 100)
  }

  /// A later part of a concatenation starts all its effects before reducing what its
  /// `.send`s deliver, as the part would had it been returned directly: sends in order, a
  /// sibling started before a sent action cancels it.
  @Test(arguments: [false, true])
  func aLaterPartStartsAllItsEffectsBeforeItsSentActionsAreReduced(late: Bool) async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] name in
        switch name {
        case "b": return .send(.record("d"))
        case "x":
          let part = Effect<LogFeature.Action>.merge(
            .send(.start("b")),
            .send(.record("c")),
            .send(.stop("work")),
            Effect.run { send in
              try await clock.sleep(for: .seconds(5))
              send(.record("work done"))
            }
            .cancellable(id: "work")
          )
          return late ? .concatenate(record("a", after: 1), part) : part
        default: return .none
        }
      }
    )
    harness.send(.start("x"))
    await clock.advance(by: .seconds(10))
    let steps = ["start b", "c", "stop work", "d"]
    #expect(harness.state.log == ["start x"] + (late ? ["a"] : []) + steps)
  }

  @Test func finishWaitsForTheEffectsOfAnActionALaterPartSends() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] name in
        name == "b"
          ? Effect.run { send in
            try await clock.sleep(for: .seconds(5))
            send(.record("b done"))
          }
          : .concatenate(
            Effect.run { _ in try await clock.sleep(for: .seconds(1)) },
            .send(.start("b")))
      }
    )
    let task = harness.send(.start("a"))
    let finished = Flag()
    // On the test executor: it runs, once resumed, when the harness settles.
    Task(executorPreference: harness.executor) {
      await task.finish()
      finished.set()
    }
    harness.settle()
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "start b"])
    #expect(!finished.isSet, "b's effect, which a's task covers, is running")
    await clock.advance(by: .seconds(5))
    #expect(harness.state.log.last == "b done")
    #expect(finished.isSet)
  }

  @Test func anActionALaterPartSentCancellingTheSequenceStopsTheRest() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] _ in
        Effect.concatenate(
          .run { _ in try await clock.sleep(for: .seconds(1)) },
          .send(.stop("sequence")),
          .send(.record("after stop"))
        )
        .cancellable(id: "sequence")
      }
    )
    harness.send(.start("a"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "stop sequence"])
  }

  @Test func concatenatingSynchronousEffectsStaysSynchronous() {
    let store = Store(initialState: LogFeature.State()) {
      LogFeature { name in
        guard name == "x" else { return .none }
        return .concatenate(.send(.record("1")), .none, .send(.record("2")))
      }
    }
    let task = store.send(.start("x"))
    #expect(store.log == ["start x", "1", "2"])
    #expect(!task.isRunning)
  }

  nonisolated func sendThenRun(_ name: String) -> Effect<LogFeature.Action> {
    switch name {
    case "x": .concatenate(.send(.start("a")), record("x done", after: 1))
    case "a": record("a done", after: 5)
    default: .none
    }
  }

  @Test func effectsOfAnActionSentFirstInAConcatenationBelongToTheSendersTask() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: LogFeature { [self] in sendThenRun($0) })
    let task = harness.send(.start("x"))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start x", "start a", "x done"])
    #expect(task.isRunning)  // "a done" is still to come
    await clock.advance(by: .seconds(4))
    #expect(harness.state.log.last == "a done")
    #expect(!task.isRunning)
  }

  @Test func cancellingTheSendersTaskCancelsTheEffectsOfAnActionItSent() {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: LogFeature { [self] in sendThenRun($0) })
    let task = harness.send(.start("x"))
    #expect(clock.sleeperCount == 2)
    task.cancel()
    harness.settle()
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func cancellingAConcatenationStopsTheRest() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { name in
        .concatenate(record("a", after: 1), record("b", after: 1)).cancellable(id: name)
      }
    )
    harness.send(.start("x"))
    harness.send(.stop("x"))
    await clock.advance(by: .seconds(5))
    #expect(harness.state.log == ["start x", "stop x"])
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func mapTransformsEveryAction() async {
    enum Parent: Sendable, Hashable { case child(String) }
    let received = Collected<Parent>()
    let effect = Effect<String>.merge(
      .send("sync"),
      .run { send in send("async") },
      .run { _ in
        throw Boom()
      } catch: {
        "caught \($0)"
      }
    )
    .map(Parent.child)
    await received.run(effect)
    #expect(Set(received.values) == [.child("sync"), .child("async"), .child("caught boom")])
  }

  /// `catch: { error, send in ... }` can send several actions, after asynchronous work.
  @Test func aCatchWithSendCanSendSeveralActions() async {
    let caught = Locked<[String]>([])
    let log = WarningLog()
    let harness = Harness(
      initialState: LogFeature.State(),
      warnings: log.handler,
      reducer: LogFeature { [clock] name in
        .run { _ in
          // Any error, even the one a cancelled sleep throws, comes out as `Boom`.
          do { try await clock.sleep(for: .seconds(1)) } catch { throw Boom() }
          throw Boom()
        } catch: { error, send in
          caught.withLock { $0.append(name) }
          send(.fail("\(error)"))
          try? await clock.sleep(for: .seconds(1))
          send(.record("retried \(name)"))
        }
        .cancellable(id: name)
      }
    )
    harness.send(.start("a"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "failed: boom"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "failed: boom", "retried a"])
    #expect(harness.core.runtime.runningCount == 0)
    // Cancelled while it works, the effect ends without calling `catch`, whatever it throws.
    harness.send(.start("b"))
    harness.send(.stop("b"))
    await clock.advance(by: .seconds(3))
    #expect(harness.state.log.suffix(2) == ["start b", "stop b"])
    #expect(harness.core.runtime.runningCount == 0)
    #expect(caught.withLock { $0 } == ["a"])
    // What it threw once cancelled is reported, not handed to `catch`.
    #expect(log.messages.count == 1)
    #expect(
      log.messages.first?.hasPrefix(
        #"An effect started by action LogFeature.Action.start("b") threw an error after it was cancelled: boom."#
      ) == true, "\(log.messages)")
  }

  @Test func noneAndEmptyCompositionsCollapse() {
    #expect(Effect<Int>.none.isNone)
    #expect(Effect<Int>.merge(.none, .none).isNone)
    #expect(Effect<Int>.concatenate([]).isNone)
    #expect(Effect<Int>.none.map { $0 + 1 }.isNone)
    #expect(Effect<Int>.none.cancellable(id: "a").isNone)
  }
}
