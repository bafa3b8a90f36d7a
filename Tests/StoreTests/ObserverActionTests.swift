import Effects
import Observation
import Testing

@testable import Store

/// Actions observers send while told of a change (observation trial): each is reduced once every
/// store has checked the change before it, so a store whose child, row or case went away never
/// finds a newcomer in its place and drives it.
@MainActor
@Suite struct ObserverActionTests {
  @Test func reentrantIdentifiedChildIDFlipBack() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(.mutate { $0.idChild = ProbeIDChild.State(id: 1, value: 1) })
    let c = h.store.scope(state: \.idChild, action: .probeIDChild)!
    _ = c.value
    var once = false
    withObservationTracking {
      _ = h.store.scope(state: \.idChild, action: .probeIDChild)
    } onChange: {
      MainActor.assumeIsolated {
        if !once {
          once = true
          h.store.send(.mutate { $0.idChild = ProbeIDChild.State(id: 1, value: 50) })
        }
      }
    }
    h.send(.mutate { $0.idChild = ProbeIDChild.State(id: 2) })
    #expect(once)
    let c2 = h.store.scope(state: \.idChild, action: .probeIDChild)!
    #expect(c2 !== c, "a later presentation gets a new store")
    #expect(c.value == 1)
    c.send(.inc)
    #expect(h.state.idChild?.value == 50)
  }

  @Test func reentrantRowReaddedWhenParentWatchedFirst() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    _ = h.store.title  // the parent store is watched before the rows are ever scoped
    var seenGone = false
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    _ = r1.title
    var once = false
    withObservationTracking {
      _ = h.store.scope(state: \.rows, action: .probeRows)
    } onChange: {
      MainActor.assumeIsolated {
        if !once {
          once = true
          // The list draws again: row 1 is gone.
          seenGone = h.store.scope(state: \.rows, action: .probeRows)[id: 1] == nil
          h.store.send(.mutate { $0.rows.append(ProbeRow.State(id: 1, title: "new1")) })
        }
      }
    }
    h.send(.mutate { $0.rows.remove(id: 1) })
    #expect(once)
    #expect(seenGone)
    let n1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    #expect(n1 !== r1, "a row added back in a later send gets a store of its own")
    #expect(r1.title == "r1")
    r1.send(.rename("bad"))
    #expect(h.state.rows[id: 1]?.title == "new1")
  }

  @Test func reentrantRepresentDismissedChildStoreStaysStale() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(.mutate { $0.child = ProbeChild.State(value: 1) })
    let c = h.store.scope(state: \.child, action: .probeChild)!
    let vc = ProbeView { _ = c.value }
    var once = false
    withObservationTracking {
      _ = h.store.scope(state: \.child, action: .probeChild)
    } onChange: {
      MainActor.assumeIsolated {
        if !once {
          once = true
          h.store.send(.mutate { $0.child = ProbeChild.State(value: 99) })
        }
      }
    }
    h.send(.mutate { $0.child = nil })
    #expect(once)
    #expect(h.state.child?.value == 99)
    let c2 = h.store.scope(state: \.child, action: .probeChild)!
    #expect(c2 !== c, "a new presentation gets a new store")
    #expect(c.value == 1, "the dismissed child's store keeps its last state")
    c.send(.inc)
    #expect(h.state.child?.value == 99, "the dismissed child's store must not drive the new one")
    _ = vc
  }

  @Test func reentrantRescopeThenRepresent() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(.mutate { $0.child = ProbeChild.State(value: 1) })
    let c = h.store.scope(state: \.child, action: .probeChild)!
    _ = c.value
    var once = false
    var seen: [Bool] = []
    withObservationTracking {
      _ = h.store.scope(state: \.child, action: .probeChild)
    } onChange: {
      MainActor.assumeIsolated {
        // The view re-renders: the child is gone.
        seen.append(h.store.scope(state: \.child, action: .probeChild) == nil)
        if !once {
          once = true
          h.store.send(.mutate { $0.child = ProbeChild.State(value: 99) })
        }
      }
    }
    h.send(.mutate { $0.child = nil })
    #expect(seen == [true])
    let c2 = h.store.scope(state: \.child, action: .probeChild)!
    #expect(c2 !== c)
    #expect(c.value == 1, "the dismissed child's store keeps its last state")
    c.send(.inc)
    #expect(h.state.child?.value == 99, "the dismissed child's store must not drive the new one")
  }

  @Test func reentrantEnumSwitchBack() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    let mode = h.store.scope(state: \.mode, action: .probeMode)
    let a = mode.scope(state: .probeA, action: .probeA)!
    _ = a.value
    var once = false
    withObservationTracking {
      _ = mode.scope(state: .probeA, action: .probeA)
    } onChange: {
      MainActor.assumeIsolated {
        if !once {
          once = true
          h.store.send(.mutate { $0.mode = .a(ProbeChild.State(value: 77)) })
        }
      }
    }
    h.send(.mutate { $0.mode = .b(ProbeChild.State()) })
    #expect(once)
    let a2 = mode.scope(state: .probeA, action: .probeA)!
    #expect(a2 !== a, "a case left and entered again gets a new store")
    #expect(a.value == 0)
    a.send(.inc)
    #expect(h.state.mode == .a(ProbeChild.State(value: 77)))
  }

  @Test func reentrantStackRepush() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(.mutate { $0.path.append(ProbeRow.State(id: 1, title: "s0")) })
    let saved = h.state.path
    h.send(.mutate { $0.path.append(ProbeRow.State(id: 2, title: "s1")) })
    let s1 = h.store.scope(state: \.path, action: .probePath)[id: 1]!
    _ = s1.title
    var once = false
    withObservationTracking {
      _ = h.store.scope(state: \.path, action: .probePath)
    } onChange: {
      MainActor.assumeIsolated {
        if !once {
          once = true
          h.store.send(
            .mutate {
              $0.path = saved; $0.path.append(ProbeRow.State(id: 5, title: "again"))
            })
        }
      }
    }
    h.send(.mutate { $0.path.popLast() })
    let n1 = h.store.scope(state: \.path, action: .probePath)[id: 1]!
    #expect(n1 !== s1)
    #expect(s1.title == "s1")
    s1.send(.rename("bad"))
    #expect(h.state.path[id: 1]?.title == "again")
  }

  @Test func reentrantRowReaddedByListObserver() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    _ = r1.title
    var once = false
    withObservationTracking {
      _ = h.store.scope(state: \.rows, action: .probeRows)
    } onChange: {
      MainActor.assumeIsolated {
        if !once {
          once = true
          h.store.send(.mutate { $0.rows.append(ProbeRow.State(id: 1, title: "new1")) })
        }
      }
    }
    h.send(.mutate { $0.rows.remove(id: 1) })
    #expect(once)
    let n1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    #expect(n1 !== r1)
    #expect(r1.title == "r1")
    r1.send(.rename("bad"))
    #expect(h.state.rows[id: 1]?.title == "new1")
  }

  @Test func sendFromOnChangeIsProcessedAndReobservedViewSeesIt() {
    let h = probeHarness()
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let second = ProbeCount()
    var sent = false
    withObservationTracking {
      _ = r1.count
    } onChange: {
      MainActor.assumeIsolated {
        // "re-render" then send a follow-up
        withObservationTracking {
          _ = r1.count
        } onChange: {
          second.increment()
        }
        if !sent { sent = true; r1.send(.bump) }
      }
    }
    r1.send(.bump)
    #expect(h.state.rows[id: 1]?.count == 2)
    #expect(r1.count == 2)
    #expect(second.value == 1)
  }

  @Test func scopeInsideOnChange() {
    let h = probeHarness()
    let list = ProbeCount()
    var newStore: Store<ProbeRow.State, ProbeRow.Action>?
    withObservationTracking {
      _ = h.store.scope(state: \.rows, action: .probeRows).ids
    } onChange: {
      MainActor.assumeIsolated {
        newStore = h.store.scope(state: \.rows, action: .probeRows)[id: 4]
        list.increment()
      }
    }
    h.send(.mutate { $0.rows.append(ProbeRow.State(id: 4, title: "four")) })
    #expect(list.value == 1)
    #expect(newStore?.title == "four")
  }

  @Test func flipBackFromOnChangeNotifiesAgain() {
    let h = probeHarness()
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let second = ProbeCount()
    var drawn: [String] = []
    let other = ProbeView { _ = r1.title }
    withObservationTracking {
      drawn.append(r1.title)
    } onChange: {
      MainActor.assumeIsolated {
        withObservationTracking {
          drawn.append(r1.title)
        } onChange: {
          second.increment()
        }
        r1.send(.rename("r1"))
      }
    }
    r1.send(.rename("x"))
    #expect(h.state.rows[id: 1]?.title == "r1")
    #expect(second.value == 1)
    #expect(other.firings == 1)
    #expect(drawn == ["r1", "x"])
  }
}
