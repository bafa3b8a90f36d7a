import Effects
import Store
import StoreTesting
import Testing

/// The test store's hunt: where it did not do what its documentation says.
@MainActor
@Suite struct TestStoreHuntTests {
  let messages = Messages()

  /// The docs: `finish()` fails when the feature asked to be dismissed in an exhaustive step
  /// and the test did not read `isDismissed` since. A dismissal of a non-exhaustive setup
  /// excused every later one: only the first dismissal was kept, and the setup's needs no
  /// check, so the exhaustive step's dismissal went unchecked, silently.
  @Test func aDismissalOfAnExhaustiveStepAfterANonExhaustiveOneMustBeChecked() async {
    let store = TestStore(initialState: Closer.State(id: 1)) { Closer() }
    store.exhaustivity = .off
    await store.send(.closeTapped)
    #expect(store.isDismissed)  // read before the exhaustive step: it checks nothing after
    store.exhaustivity = .on
    await store.send(.closeTapped)
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.all == [
        """
        The feature asked to be dismissed (Closer.Action.closeTapped returned `.dismiss`), and \
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
}
