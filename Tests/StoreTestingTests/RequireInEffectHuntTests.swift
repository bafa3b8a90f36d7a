import Effects
import Store
import StoreTesting
import Testing

/// A `#require` that fails in an effect run by a test store records its failure, at its line,
/// and throws: the effect's error was reported again, a second failure of one mistake.
@MainActor
@Suite struct RequireInEffectHuntTests {
  private let issues = RecordedIssues()

  /// With no `catch:`, the runtime warning that asks for one ("threw an error that no catch
  /// action handles: ExpectationFailedError(…). Pass `catch:` to `.run`") failed the test a
  /// second time, with advice that does not fit a check of the test.
  @Test func aFailedRequireInAnEffectWithNoCatchFailsTheTestOnce() async {
    let store = TestStore(initialState: RequireInEffectLoader.State()) {
      RequireInEffectLoader(load: { nil })
    }
    // Started inside `expectKnown` (`withKnownIssue`): the effect's task records the
    // `#require`'s failure in the scope it was started in.
    await issues.expectKnown {
      await store.send(.loadTapped)
      await store.finish()
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
  }

  /// Nor once the effect was cancelled: not reported again as thrown after the cancellation.
  @Test func aFailedRequireInAnEffectOnceCancelledFailsTheTestOnce() async {
    let store = TestStore(initialState: RequireInEffectLoader.State()) {
      RequireInEffectLoader(load: { nil })
    }
    await issues.expectKnown {
      await store.send(.loadWhenWokenTapped)
      await store.send(.cancel)
      await store.finish()
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
  }

  /// A `catch:` still turns the error into an action, as it does `UnimplementedError`: the
  /// test receives it, and fails once, for the `#require`.
  @Test func aFailedRequireInAnEffectWithACatchIsTurnedIntoItsAction() async {
    let store = TestStore(initialState: RequireInEffectLoader.State()) {
      RequireInEffectLoader(load: { nil })
    }
    await issues.expectKnown {
      await store.send(.loadCaughtTapped)
      await store.receive(.failed("no count")) { $0.failure = "no count" }
      await store.finish()
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
  }

  /// A `#require` that passes lets the effect go on.
  @Test func aPassingRequireInAnEffectSendsOn() async {
    let store = TestStore(initialState: RequireInEffectLoader.State()) {
      RequireInEffectLoader(load: { 3 })
    }
    await store.send(.loadTapped)
    await store.receive(.loaded(3)) { $0.count = 3 }
    await store.finish()
  }
}
