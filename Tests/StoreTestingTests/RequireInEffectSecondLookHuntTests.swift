import Effects
import Store
import StoreTesting
import Testing

/// A second look at 2bacd07 (a failed `#require` in an effect fails the test once): the other
/// ways a test store reports what an effect threw.
@MainActor
@Suite struct RequireInEffectSecondLookHuntTests {
  private let issues = RecordedIssues()

  /// What `catch:` made of a failed `#require`'s error, dropped as the effect was cancelled
  /// before it reached a reducer, was a runtime warning naming the error ("threw an error:
  /// ExpectationFailedError(…). The action `catch:` made of it, … was dropped"): a second
  /// failure, where the error thrown a moment later, once cancelled, ends the effect quietly.
  @Test(arguments: [false, true])
  func aFailedRequiresCaughtActionDroppedFailsTheTestOnce(handlerSends: Bool) async {
    let store = TestStore(initialState: RequireInEffectLoader.State()) { RequireInEffectLoader() }
    await issues.expectKnown {
      await store.send(handlerSends ? .requireThenDropHandledTapped : .requireThenDropTapped)
      await store.receive(.cancel)
      await store.finish()
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
    #expect(store.state == RequireInEffectLoader.State())
  }

  /// So with an `unimplemented` stub's error: its call failed the test, naming the stub.
  @Test func anUnimplementedStubsCaughtActionDroppedFailsTheTestOnce() async {
    let store = TestStore(initialState: RequireInEffectLoader.State()) { RequireInEffectLoader() }
    await issues.expectKnown {
      await store.send(.stubThenDropTapped)
      await store.receive(.cancel)
      await store.finish()
    }
    #expect(issues.texts.count == 1, "\(issues.texts)")
    #expect(issues.texts.first?.contains("stub") == true, "\(issues.texts)")
    #expect(store.state == RequireInEffectLoader.State())
  }

  /// A real error dropped so is still a failure, the warning naming the error and the action.
  @Test func aRealErrorsCaughtActionDroppedIsStillAFailure() async {
    let store = TestStore(initialState: RequireInEffectLoader.State()) { RequireInEffectLoader() }
    await issues.expectKnown {
      await store.send(.failThenDropTapped)
      await store.receive(.cancel)
      await store.finish()
    }
    #expect(issues.texts.count == 1, "\(issues.texts)")
    let text = issues.texts.first ?? ""
    #expect(text.contains("threw an error: disk full"), "\(text)")
    #expect(text.contains("The action `catch:` made of it, "), "\(text)")
  }

  /// An error of the effect's own that wraps a failed `#require`'s is not the check's error:
  /// the test store cannot see into it, and reports it as any error with no `catch:`.
  @Test func aFailedRequiresErrorWrappedInTheEffectsOwnIsReported() async {
    let store = TestStore(initialState: RequireInEffectLoader.State()) { RequireInEffectLoader() }
    await issues.expectKnown {
      await store.send(.requireWrappedTapped)
      await store.finish()
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 2, "\(issues.texts)")
    #expect(
      issues.texts.contains { $0.contains("no catch action handles: Wrapped(") },
      "\(issues.texts)")
  }
}
