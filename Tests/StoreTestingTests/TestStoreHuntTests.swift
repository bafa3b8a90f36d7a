import Effects
import Store
import StoreTesting
import Testing

/// A pointer whose moves carry a SIMD vector, as a drawing feature's might.
private struct Pointer: Reducer {
  struct State: Equatable { var position = SIMD2<Float>(0, 0) }
  enum Action: Sendable, Equatable {
    case tapped
    case dragged
    case echoed
    case moved(SIMD2<Float>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tapped:
      return .send(.echoed)
    case .dragged:
      return .concatenate(.send(.echoed), .send(.moved(SIMD2(3, 4))))
    case .echoed:
      return .none
    case .moved(let position):
      state.position = position
      return .none
    }
  }
}

extension CaseKey<Pointer.Action, SIMD2<Float>> {
  fileprivate static var moved: Self {
    Self(Pointer.Action.moved) { if case .moved(let position) = $0 { position } else { nil } }
  }
}

/// An editor that closes itself on either of two buttons.
private struct Editor: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable {
    case cancelTapped
    case doneTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> { .dismiss }
}

/// The test store's hunt: where it did not do what its documentation says.
@MainActor
@Suite struct TestStoreHuntTests {
  let messages = Messages()

  /// The docs: `finish()` fails when the feature asked to be dismissed in an exhaustive step
  /// and the test did not read `isDismissed` since. A dismissal of a non-exhaustive setup
  /// excused every later one: only the first dismissal was kept, and the setup's needs no
  /// check, so the exhaustive step's dismissal went unchecked, silently.
  @Test func aDismissalOfAnExhaustiveStepAfterANonExhaustiveOneMustBeChecked() async {
    let store = TestStore(initialState: Editor.State()) { Editor() }
    store.exhaustivity = .off
    await store.send(.cancelTapped)
    #expect(store.isDismissed)  // read before the exhaustive step: it checks nothing after
    store.exhaustivity = .on
    await store.send(.doneTapped)
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.all == [
        """
        The feature asked to be dismissed (Editor.Action.doneTapped returned `.dismiss`), and \
        the test did not check it: a presenting parent would close the feature there. State it \
        with `#expect(store.isDismissed)` after that step. (If nothing presents this feature, \
        as for an app's root, its `.dismiss` closes nothing, and a live store warns.)
        """
      ])

    // Read after the exhaustive step, it is checked, and a later dismissal needs no read.
    let checked = TestStore(initialState: Closer.State(id: 1)) { Closer() }
    checked.exhaustivity = .off
    await checked.send(.closeTapped)
    checked.exhaustivity = .on
    await checked.send(.closeTapped)
    #expect(checked.isDismissed)
    await checked.send(.closeTapped)
    await checked.finish()
  }

  /// A `receive` through a key whose payload is a SIMD vector, that failed, stopped the test
  /// process: to name the case, the store made a sample payload from an empty array literal,
  /// which a SIMD vector refuses (`Not enough elements in sequence`). It makes a zero vector.
  /// A non-exhaustive one that passed, skipping an action, stopped it too: it names the step
  /// that skipped it.
  @Test func aFailedReceiveThroughAKeyCarryingASIMDVectorNamesTheCase() async {
    let store = TestStore(initialState: Pointer.State()) { Pointer() }
    await withKnownIssue {
      await store.receive(.moved)
    } matching: {
      messages.capture($0)
    }
    await store.send(.tapped)
    await withKnownIssue {
      await store.receive(.moved)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.all == [
        """
        Expected to receive an action of the case Pointer.Action.moved (carrying SIMD2<Float>), \
        but nothing arrived, and no effect is running, so none can arrive.
        """,
        """
        Received an action that does not match the key passed to `receive`.
          Expected: an action of the case Pointer.Action.moved (carrying SIMD2<Float>)
          Received: Pointer.Action.echoed
        """,
      ])
    store.exhaustivity = .off
    await store.send(.dragged)
    await store.receive(.moved) { $0.position = SIMD2(3, 4) }
    await store.finish()
  }

  /// Non-exhaustive, a `receive` that found no match said that nothing arrived, then listed
  /// what had arrived and did not match.
  @Test func aNonExhaustiveReceiveThatFindsNoMatchSaysNothingThatMatchesArrived() async {
    let store = TestStore(initialState: Pointer.State()) { Pointer() }
    store.exhaustivity = .off
    await store.send(.tapped)
    await withKnownIssue {
      await store.receive(.moved(SIMD2(1, 2)))
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.all == [
        """
        Expected to receive Pointer.Action.moved(SIMD2<Float>(1.0, 2.0)), but nothing that \
        matches arrived, and no effect is running, so none can arrive.
        Received but not matching:
          • Pointer.Action.echoed
        """
      ])
    // With nothing received, nothing arrived.
    await withKnownIssue {
      await store.receive(.moved)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("but nothing arrived, and no effect is running"))
    await store.finish()
  }

  #if EXIT_TESTS
    /// An `unimplemented` dependency called off the test's task (a `Task.detached`, or another
    /// thread's callback, in a client) found no Swift Testing test there, and reported through
    /// `XCTFail`, which no XCTest test took: the failure was lost, and the test passed. Swift
    /// Testing now records it for the run. (An exit test: the run that records it is the child
    /// process's, whose issues the parent records in this test.)
    @Test func anUnimplementedDependencyCalledOffTheTestsTaskFailsTheRun() async {
      await withKnownIssue {
        await #expect(processExitsWith: .success) {
          let load: @Sendable () async throws -> String = unimplemented("load")
          let call = Task.detached { () -> Bool in (try? await load()) == nil }
          _ = await call.value
        }
      } matching: { issue in
        issue.comments.contains {
          $0.rawValue.hasPrefix("load was called, but this test does not expect it")
        }
      }
    }
  #endif
}

/// A payload of one's own that takes `nil`, whose initializer counts its calls.
private struct Choice: Equatable, Sendable, ExpressibleByNilLiteral {
  static let nilLiteralCalls = NilLiteralCalls()
  var name: String?

  init(name: String) { self.name = name }

  init(nilLiteral: ()) {
    Self.nilLiteralCalls.count.withLock { $0 += 1 }
    name = nil
  }
}

private final class NilLiteralCalls: Sendable {
  let count = Locked(0)
}

private struct Picker: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable {
    case picked(Choice)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

extension CaseKey<Picker.Action, Choice> {
  fileprivate static var picked: Self {
    Self(Picker.Action.picked) { if case .picked(let choice) = $0 { choice } else { nil } }
  }
}

extension TestStoreHuntTests {
  /// To name a key's case in a failed `receive`, the store makes a sample payload from a
  /// literal, which must run none of the test's code: it made one of a type of one's own
  /// through its `init(nilLiteral:)`, as it does an optional.
  @Test func aFailedReceiveRunsNoNilLiteralInitializerOfTheTests() async {
    let store = TestStore(initialState: Picker.State()) { Picker() }
    await withKnownIssue {
      await store.receive(.picked)
    } matching: {
      messages.capture($0)
    }
    #expect(Choice.nilLiteralCalls.count.withLock { $0 } == 0)
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(messages.all.first?.contains("but nothing arrived") == true, "\(messages.all)")
  }
}
