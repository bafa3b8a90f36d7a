import Effects
import Observation
import Testing

@testable import Store

/// Optional, enum-case, stack and plain child stores as views use them (observation trial): told of
/// their child's changes, a new store for each presentation, let go when dismissed.
@MainActor
@Suite struct ChildStoreObservationCoverageTests {
  @Test func optionalChildNotifiedAndNilThenBack() {
    let h = probeHarness()
    h.send(.mutate { $0.child = ProbeChild.State() })
    let c = h.store.scope(state: \.child, action: .probeChild)!
    #expect(h.store.scope(state: \.child, action: .probeChild) === c)
    let v = ProbeView { _ = c.value }
    let presence = ProbeView { _ = h.store.scope(state: \.child, action: .probeChild) }
    h.send(.mutate { $0.child?.other = 3 })
    #expect(v.firings == 0)
    #expect(presence.firings == 0)
    h.send(.mutate { $0.child?.value = 3 })
    #expect(v.firings == 1)
    v.render()
    h.send(.mutate { $0.child = nil })
    #expect(presence.firings == 1)
    #expect(c.value == 3)
    h.send(.mutate { $0.child = ProbeChild.State(value: 7) })
    let c2 = h.store.scope(state: \.child, action: .probeChild)!
    #expect(c2 !== c)
    #expect(c2.value == 7)
    #expect(c.value == 3)
  }

  @Test func optionalChildNilAndBackInOneSend() {
    let h = probeHarness()
    h.send(.mutate { $0.child = ProbeChild.State() })
    let c = h.store.scope(state: \.child, action: .probeChild)!
    let v = ProbeView { _ = c.value }
    h.send(
      .mutate {
        $0.child = nil; $0.child = ProbeChild.State(value: 5)
      })
    #expect(v.firings == 1)
    #expect(c.value == 5)
  }

  @Test func childDelegateChangesParentAndChild() {
    let h = probeHarness()
    h.send(.mutate { $0.child = ProbeChild.State() })
    let c = h.store.scope(state: \.child, action: .probeChild)!
    let vc = ProbeView { _ = c.other }
    let vp = ProbeView { _ = h.store.title }
    c.send(.delegateUp)
    #expect(vc.firings == 1)
    #expect(vp.firings == 1)
  }

  @Test func identifiedChildReplacedByAnotherID() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(.mutate { $0.idChild = ProbeIDChild.State(id: 1) })
    let c = h.store.scope(state: \.idChild, action: .probeIDChild)!
    let v = ProbeView { _ = c.value }
    let presence = ProbeView { _ = h.store.scope(state: \.idChild, action: .probeIDChild) }
    h.send(.mutate { $0.idChild = ProbeIDChild.State(id: 2, value: 10) })
    #expect(presence.firings == 1)
    #expect(c.value == 0)
    #expect(v.firings == 0)
    let c2 = h.store.scope(state: \.idChild, action: .probeIDChild)!
    #expect(c2 !== c)
    #expect(c2.value == 10)
    c.send(.inc)
    #expect(h.state.idChild?.value == 10)
    #expect(w.messages.count == 1)
  }

  @Test func childChangedByEffect() async {
    let clock = TestClock()
    let h = probeHarness(clock: clock)
    h.send(.mutate { $0.child = ProbeChild.State() })
    let c = h.store.scope(state: \.child, action: .probeChild)!
    let v = ProbeView { _ = c.value }
    c.send(.incLater)
    h.settle()
    await clock.advance(by: .seconds(1))
    h.settle()
    #expect(v.firings == 1)
    #expect(c.value == 1)
  }

  @Test func enumCaseSwitchAndBack() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    let mode = h.store.scope(state: \.mode, action: .probeMode)
    let a = mode.scope(state: .probeA, action: .probeA)!
    #expect(mode.scope(state: .probeA, action: .probeA) === a)
    #expect(mode.scope(state: .probeB, action: .probeB) == nil)
    let va = ProbeView { _ = a.value }
    let presence = ProbeView { _ = mode.scope(state: .probeA, action: .probeA) }
    a.send(.inc)
    #expect(va.firings == 1)
    #expect(presence.firings == 0)
    va.render()
    h.send(.mutate { $0.mode = .b(ProbeChild.State(value: 50)) })
    #expect(presence.firings == 1)
    #expect(a.value == 1)
    let b = mode.scope(state: .probeB, action: .probeB)!
    #expect(b.value == 50)
    a.send(.inc)
    #expect(h.state.mode == .b(ProbeChild.State(value: 50)))
    h.send(.mutate { $0.mode = .a(ProbeChild.State(value: 100)) })
    let a2 = mode.scope(state: .probeA, action: .probeA)!
    #expect(a2 !== a)
    #expect(a2.value == 100)
    #expect(a.value == 1)
    _ = w
  }

  @Test func enumSameCaseNewPayloadNotifiesCaseStore() {
    let h = probeHarness()
    let mode = h.store.scope(state: \.mode, action: .probeMode)
    let a = mode.scope(state: .probeA, action: .probeA)!
    let va = ProbeView { _ = a.value }
    h.send(.mutate { $0.mode = .a(ProbeChild.State(value: 4)) })
    #expect(va.firings == 1)
    #expect(a.value == 4)
  }

  @Test func enumCaseFlipFlopInOneSend() {
    let h = probeHarness()
    let mode = h.store.scope(state: \.mode, action: .probeMode)
    let a = mode.scope(state: .probeA, action: .probeA)!
    let va = ProbeView { _ = a.value }
    h.send(
      .mutate {
        $0.mode = .b(.init()); $0.mode = .a(ProbeChild.State(value: 8))
      })
    #expect(va.firings == 1)
    #expect(a.value == 8)
  }

  @Test func stackScreensNotifiedAndReleased() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(
      .mutate {
        $0.path.append(ProbeRow.State(id: 1, title: "s0"));
        $0.path.append(ProbeRow.State(id: 2, title: "s1"))
      })
    let screens = h.store.scope(state: \.path, action: .probePath)
    let s0 = screens[id: 0]!
    let s1 = screens[id: 1]!
    let v0 = ProbeView { _ = s0.title }
    let v1 = ProbeView { _ = s1.title }
    s1.send(.rename("x"))
    #expect(v1.firings == 1)
    #expect(v0.firings == 0)
    weak let weakS1 = s1
    _ = weakS1
    h.send(.mutate { $0.path.popLast() })
    #expect(s0.title == "s0")
    h.send(.mutate { $0.path[id: 0]?.title = "changed" })
    #expect(v0.firings == 1)
    #expect(s0.title == "changed")
  }

  @Test func stackReplacedBySameIDsGivesNewScreens() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(.mutate { $0.path.append(ProbeRow.State(id: 1, title: "old")) })
    let s0 = h.store.scope(state: \.path, action: .probePath)[id: 0]!
    let v0 = ProbeView { _ = s0.title }
    let list = ProbeView { _ = h.store.scope(state: \.path, action: .probePath).ids }
    h.send(.mutate { $0.path = StackState([ProbeRow.State(id: 1, title: "new")]) })
    #expect(list.firings == 1)
    #expect(s0.title == "old")
    let n0 = h.store.scope(state: \.path, action: .probePath)[id: 0]!
    #expect(n0 !== s0)
    #expect(n0.title == "new")
    s0.send(.rename("bad"))
    #expect(h.state.path[id: 0]?.title == "new")
    _ = v0
  }

  @Test func computedCountNotifiesOnlyOnResultChange() {
    let h = probeHarness()
    let v = ProbeView { _ = h.store.rowCount }
    h.send(.mutate { $0.rows[id: 1]!.title = "q" })
    #expect(v.firings == 0)
    h.send(.mutate { $0.rows.append(ProbeRow.State(id: 4)) })
    #expect(v.firings == 1)
  }

  @Test func plainScopeIdentityAndEqualWriteSilent() {
    let h = probeHarness()
    let p = h.store.scope(state: \.plain, action: .probePlain)
    #expect(h.store.scope(state: \.plain, action: .probePlain) === p)
    let v = ProbeView { _ = p.value }
    let vt = ProbeView { _ = h.store.title }
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let vr = ProbeView { _ = r1.title }
    h.send(
      .mutate {
        $0.plain.value = 0; $0.title = ""; $0.rows[id: 1]!.title = "r1"
      })
    #expect(v.firings == 0)
    #expect(vt.firings == 0)
    #expect(vr.firings == 0)
    h.send(.mutate { $0.rows[id: 1]!.count = 5 })
    #expect(vr.firings == 0)
  }

  @Test func stackUndoThenPushGivesNewScreenStore() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(.mutate { $0.path.append(ProbeRow.State(id: 1, title: "s0")) })
    let saved = h.state.path
    h.send(.mutate { $0.path.append(ProbeRow.State(id: 2, title: "undone")) })
    let s1 = h.store.scope(state: \.path, action: .probePath)[id: 1]!
    let v1 = ProbeView { _ = s1.title }
    h.send(
      .mutate {
        $0.path = saved; $0.path.append(ProbeRow.State(id: 3, title: "fresh"))
      })
    let n1 = h.store.scope(state: \.path, action: .probePath)[id: 1]!
    #expect(n1 !== s1)
    #expect(n1.title == "fresh")
    #expect(s1.title == "undone")
    #expect(v1.firings == 0)
    s1.send(.rename("bad"))
    #expect(h.state.path[id: 1]?.title == "fresh")
  }

  @Test func stackListNotNotifiedByScreenContent() {
    let h = probeHarness()
    h.send(.mutate { $0.path.append(ProbeRow.State(id: 1, title: "s0")) })
    let list = ProbeView { _ = h.store.scope(state: \.path, action: .probePath).ids }
    h.send(.mutate { $0.path[id: 0]?.title = "t" })
    #expect(list.firings == 0)
    h.store.scope(state: \.path, action: .probePath)[id: 0]!.send(.bump)
    #expect(list.firings == 0)
  }

  @Test func dismissedChildAndCaseStoresReleased() {
    let h = probeHarness()
    weak var weakC: Store<ProbeChild.State, ProbeChild.Action>?
    weak var weakA: Store<ProbeChild.State, ProbeChild.Action>?
    h.send(.mutate { $0.child = ProbeChild.State() })
    do {
      let c = h.store.scope(state: \.child, action: .probeChild)!
      weakC = c
      let a = h.store.scope(state: \.mode, action: .probeMode).scope(
        state: .probeA, action: .probeA)!
      weakA = a
      let v = ProbeView {
        _ = c.value; _ = a.value
      }
      _ = v
    }
    h.send(
      .mutate {
        $0.child = nil; $0.mode = .b(.init())
      })
    #expect(weakC == nil)
    #expect(weakA == nil)
  }

  @Test func manyPresentationsDoNotPileUpHooks() {
    let h = probeHarness()
    for i in 0..<200 {
      h.send(.mutate { $0.child = ProbeChild.State(value: i) })
      let c = h.store.scope(state: \.child, action: .probeChild)!
      _ = c.value
      h.send(.mutate { $0.child = nil })
    }
    #expect(h.core.dispatchHooks.count < 10)
  }
}
