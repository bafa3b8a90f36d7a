import Effects
import Observation
import Testing

@testable import Store

/// A send to a store whose child, row or screen is gone, made by an observer told of the
/// change right after it queued an action that brings a newcomer back in its place (the
/// scoping hunt): the root queues both, and the store's send found its state only absent,
/// so the action went to the parent and, reduced after the newcomer came, drove it. Each
/// queued send is looked at again just before it is reduced: it is ignored with a warning,
/// as the same two sends are outside an observer.
@MainActor
@Suite struct QueuedStaleSendTests {
  /// Runs `answer` once, in the `onChange` of an observer of what `read` reads.
  func onFirstChange(
    of read: @escaping @MainActor () -> Void, _ answer: @escaping @MainActor () -> Void
  ) -> () -> Bool {
    var answered = false
    withObservationTracking(read) {
      MainActor.assumeIsolated {
        guard !answered else { return }
        answered = true
        answer()
      }
    }
    return { answered }
  }

  @Test func aRemovedRowsStoreDoesNotDriveTheRowAddedBackBeforeItsSend() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let removed = try! #require(rows[id: 1])
    _ = removed.title
    let answered = onFirstChange(of: { _ = h.store.scope(state: \.rows, action: .probeRows).ids }) {
      h.store.send(.mutate { $0.rows.insert(ProbeRow.State(id: 1, title: "newcomer"), at: 0) })
      removed.send(.rename("sent to the removed row's store"))
    }
    h.send(.mutate { _ = $0.rows.remove(id: 1) })
    #expect(answered())
    #expect(h.state.rows[id: 1]?.title == "newcomer")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  @Test func aDismissedChildsStoreDoesNotDriveTheChildPresentedBeforeItsSend() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    h.send(.mutate { $0.child = ProbeChild.State(value: 0) })
    let dismissed = try! #require(h.store.scope(state: \.child, action: .probeChild))
    _ = dismissed.value
    let answered = onFirstChange(of: { _ = h.store.scope(state: \.child, action: .probeChild) }) {
      h.store.send(.mutate { $0.child = ProbeChild.State(value: 100) })
      dismissed.send(.inc)
    }
    h.send(.mutate { $0.child = nil })
    #expect(answered())
    #expect(h.state.child?.value == 100)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  @Test func aPoppedScreensStoreDoesNotDriveTheScreenOfANewStackWithItsID() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    h.send(.mutate { $0.path.append(ProbeRow.State(id: 1, title: "first")) })
    let id = try! #require(h.state.path.ids.first)
    let popped = try! #require(h.store.scope(state: \.path, action: .probePath)[id: id])
    _ = popped.title
    let answered = onFirstChange(of: { _ = h.store.scope(state: \.path, action: .probePath).ids }) {
      // A new stack numbers its screens from 0 again: its first has the popped one's id.
      h.store.send(.mutate { $0.path = StackState([ProbeRow.State(id: 2, title: "newcomer")]) })
      popped.send(.rename("sent to the popped screen's store"))
    }
    h.send(.mutate { _ = $0.path.popLast() })
    #expect(answered())
    #expect(h.state.path[id: id]?.title == "newcomer")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  /// A dismissal, a new presentation and the send, all queued by one observer: the store's
  /// hook sees the child gone between the first two, as it does outside an observer (the
  /// review: the send drove the new child).
  @Test func aDismissalAPresentationAndTheSendInOneObserverDoNotDriveTheNewChild() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    h.send(.mutate { $0.child = ProbeChild.State(value: 0) })
    let first = try! #require(h.store.scope(state: \.child, action: .probeChild))
    _ = first.value
    let answered = onFirstChange(of: { _ = h.store.state.title }) {
      h.store.send(.mutate { $0.child = nil })
      h.store.send(.mutate { $0.child = ProbeChild.State(value: 100) })
      first.send(.inc)
    }
    h.send(.mutate { $0.title = "changed" })
    #expect(answered())
    #expect(h.state.child?.value == 100)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  /// A store scoped from a derived store (a row's detail) sends through its parent's: both
  /// checks are asked, the detail's first (the review: the row's replaced the detail's).
  @Test func aDismissedDetailOfARowDoesNotDriveTheDetailPresentedBeforeItsSend() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    h.send(.mutate { $0.rows[id: 1]?.detail = ProbeDetail.State(note: "old") })
    let row = try! #require(h.store.scope(state: \.rows, action: .probeRows)[id: 1])
    let dismissed = try! #require(row.scope(state: \.detail, action: .probeDetail))
    _ = dismissed.note
    let answered = onFirstChange(of: { _ = row.scope(state: \.detail, action: .probeDetail) }) {
      h.store.send(.mutate { $0.rows[id: 1]?.detail = ProbeDetail.State(note: "newcomer") })
      dismissed.send(.note("sent to the dismissed detail's store"))
    }
    h.send(.mutate { $0.rows[id: 1]?.detail = nil })
    #expect(answered())
    #expect(h.state.rows[id: 1]?.detail?.note == "newcomer")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  /// The check drops only what was taken over: a live row's store, and a removed row's
  /// store whose row nothing replaced (its action reaches the parent, which reports the
  /// missing row as before), are queued and reduced as ever.
  @Test func queuedSendsOfOtherStoresAreReducedAsBefore() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let (live, removed) = (try! #require(rows[id: 2]), try! #require(rows[id: 1]))
    _ = (live.title, removed.title)
    let answered = onFirstChange(of: { _ = h.store.scope(state: \.rows, action: .probeRows).ids }) {
      live.send(.rename("renamed from an observer"))
      removed.send(.rename("too late"))
    }
    h.send(.mutate { _ = $0.rows.remove(id: 1) })
    #expect(answered())
    #expect(h.state.rows.map(\.title) == ["renamed from an observer", "r3"])
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == false)
  }
}
