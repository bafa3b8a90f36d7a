import Effects
import Observation
import Testing

@testable import Store

/// Row stores as views use them (observation trial): told of their own row's changes however they
/// are made, never of a sibling's, and let go with their row.
@MainActor
@Suite struct RowStoreObservationCoverageTests {
  @Test func rowViewNotifiedByParentEditAndNotBySibling() {
    let h = probeHarness()
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let r1 = rows[id: 1]!
    let view = ProbeView { _ = r1.title }
    h.send(.mutate { $0.rows[id: 2]!.title = "x" })
    #expect(view.firings == 0)
    h.send(.mutate { $0.title = "parent" })
    #expect(view.firings == 0)
    h.send(.mutate { $0.rows[id: 1]!.title = "y" })
    #expect(view.firings == 1)
    #expect(r1.title == "y")
  }

  @Test func swapRowsKeepsStoresAndNoSpuriousNotification() {
    let h = probeHarness()
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let r1 = rows[id: 1]!
    let r3 = rows[id: 3]!
    let v1 = ProbeView { _ = r1.title }
    let list = ProbeView { _ = h.store.scope(state: \.rows, action: .probeRows).ids }
    h.send(.mutate { $0.rows.swapAt(0, 2) })
    #expect(v1.firings == 0)
    #expect(list.firings == 1)
    #expect(r1.title == "r1")
    #expect(h.store.scope(state: \.rows, action: .probeRows)[id: 1] === r1)
    #expect(h.store.scope(state: \.rows, action: .probeRows)[id: 3] === r3)
    h.send(.mutate { $0.rows[id: 1]!.title = "z" })
    #expect(v1.firings == 1)
    #expect(r1.title == "z")
    #expect(r3.title == "r3")
  }

  @Test func sortThenEditSameSend() {
    let h = probeHarness()
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let r2 = h.store.scope(state: \.rows, action: .probeRows)[id: 2]!
    let v1 = ProbeView { _ = r1.title }
    let v2 = ProbeView { _ = r2.title }
    h.send(
      .mutate {
        $0.rows.sort { $0.id > $1.id }; $0.rows[id: 1]!.title = "s"
      })
    #expect(v1.firings == 1)
    #expect(v2.firings == 0)
    #expect(r1.title == "s")
  }

  @Test func editThenMoveSameSend() {
    let h = probeHarness()
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let v1 = ProbeView { _ = r1.count }
    h.send(
      .mutate {
        $0.rows[id: 1]!.count = 9; $0.rows.swapAt(0, 1)
      })
    #expect(v1.firings == 1)
    #expect(r1.count == 9)
  }

  @Test func wholeCollectionReplacedWithChangedRow() {
    let h = probeHarness()
    let r2 = h.store.scope(state: \.rows, action: .probeRows)[id: 2]!
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let v2 = ProbeView { _ = r2.title }
    let v1 = ProbeView { _ = r1.title }
    h.send(
      .mutate {
        $0.rows = [
          ProbeRow.State(id: 3, title: "r3"), ProbeRow.State(id: 2, title: "new"),
          ProbeRow.State(id: 1, title: "r1"),
        ]
      })
    #expect(v2.firings == 1)
    #expect(v1.firings == 0)
    #expect(r2.title == "new")
    #expect(h.store.scope(state: \.rows, action: .probeRows)[id: 2] === r2)
  }

  @Test func idPreservingReplacementNotifies() {
    let h = probeHarness()
    let r2 = h.store.scope(state: \.rows, action: .probeRows)[id: 2]!
    let v2 = ProbeView { _ = r2.title }
    h.send(.mutate { $0.rows[id: 2] = ProbeRow.State(id: 2, title: "rep") })
    #expect(v2.firings == 1)
    #expect(r2.title == "rep")
    v2.render()
    h.send(.mutate { $0.rows.updateOrAppend(ProbeRow.State(id: 2, title: "upd")) })
    #expect(v2.firings == 2)
    #expect(r2.title == "upd")
    v2.render()
    h.send(.mutate { $0.rows[0] = ProbeRow.State(id: 1, title: "pos") })
    #expect(v2.firings == 2)
  }

  @Test func positionalReplaceWithAnotherIDTreatedAsRemoval() {
    let h = probeHarness()
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let v1 = ProbeView { _ = r1.title }
    h.send(
      .mutate {
        $0.rows.remove(id: 1); $0.rows.insert(ProbeRow.State(id: 9, title: "nine"), at: 0)
      })
    #expect(r1.title == "r1")
    #expect(h.store.scope(state: \.rows, action: .probeRows)[id: 1] == nil)
    #expect(h.store.scope(state: \.rows, action: .probeRows)[id: 9]?.title == "nine")
    _ = v1
  }

  @Test func removedAndAddedBackInOneSendKeepsStoreAndNotifies() {
    let h = probeHarness()
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let v1 = ProbeView { _ = r1.title }
    h.send(
      .mutate {
        $0.rows.remove(id: 1); $0.rows.append(ProbeRow.State(id: 1, title: "back"))
      })
    #expect(v1.firings == 1)
    #expect(r1.title == "back")
    #expect(h.store.scope(state: \.rows, action: .probeRows)[id: 1] === r1)
  }

  @Test func removedThenReaddedLaterGetsNewStoreOldKeepsLastStateAndWarns() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let v1 = ProbeView { _ = r1.title }
    h.send(.mutate { $0.rows.remove(id: 1) })
    #expect(v1.firings == 0)
    h.send(.mutate { $0.rows.append(ProbeRow.State(id: 1, title: "again")) })
    #expect(r1.title == "r1")
    let n1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    #expect(n1 !== r1)
    #expect(n1.title == "again")
    r1.send(.rename("oops"))
    #expect(h.state.rows[id: 1]?.title == "again")
    #expect(w.messages.count == 1)
    #expect(v1.firings == 0)
  }

  @Test func bulkChangeBeyondHistory() {
    let h = probeHarness(rows: Array(0..<40))
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let stores = (0..<40).map { rows[id: $0]! }
    let views = stores.map { s in ProbeView { _ = s.count } }
    h.send(.mutate { for i in 0..<30 { $0.rows[id: i]!.count += 1 } })
    for i in 0..<40 { #expect(views[i].firings == (i < 30 ? 1 : 0), "row \(i)") }
    for i in 0..<40 { #expect(stores[i].count == (i < 30 ? 1 : 0)) }
  }

  @Test func bulkChangePlusRemovalBeyondHistory() {
    let h = probeHarness(rows: Array(0..<40))
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let stores = (0..<40).map { rows[id: $0]! }
    let views = stores.map { s in ProbeView { _ = s.count } }
    h.send(
      .mutate {
        for i in 0..<30 { $0.rows[id: i]!.count += 1 }
        $0.rows.remove(id: 35)
        $0.rows.swapAt(0, 1)
      })
    for i in 0..<40 where i != 35 { #expect(views[i].firings == (i < 30 ? 1 : 0), "row \(i)") }
  }

  @Test func rowChangedByEffect() async {
    let clock = TestClock()
    let h = probeHarness(clock: clock)
    let r2 = h.store.scope(state: \.rows, action: .probeRows)[id: 2]!
    let v2 = ProbeView { _ = r2.count }
    let v1 = ProbeView { _ = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!.count }
    r2.send(.bumpLater)
    h.settle()
    #expect(v2.firings == 0)
    await clock.advance(by: .seconds(1))
    h.settle()
    #expect(v2.firings == 1)
    #expect(v1.firings == 0)
    #expect(r2.count == 1)
  }

  @Test func rowRemovesItselfViaDelegate() {
    let h = probeHarness()
    let r2 = h.store.scope(state: \.rows, action: .probeRows)[id: 2]!
    let v2 = ProbeView { _ = r2.title }
    let list = ProbeView { _ = h.store.scope(state: \.rows, action: .probeRows).ids }
    weak let weakR2 = r2
    r2.send(.rename("gone"))
    #expect(v2.firings == 1)
    v2.render()
    r2.send(.removeMe)
    #expect(list.firings == 1)
    #expect(r2.title == "gone")
    _ = weakR2
  }

  @Test func removedRowStoreIsReleased() {
    let h = probeHarness()
    weak var weakR2: Store<ProbeRow.State, ProbeRow.Action>?
    do {
      let r2 = h.store.scope(state: \.rows, action: .probeRows)[id: 2]!
      weakR2 = r2
      let v = ProbeView { _ = r2.title }
      _ = v
    }
    #expect(weakR2 != nil)
    h.send(.mutate { $0.rows.remove(id: 2) })
    #expect(weakR2 == nil)
  }

  @Test func filteredRowLeavesView() {
    let w = WarningLog()
    let h = probeHarness(rows: [1, 2, 3, 4], warnings: w)
    let r1 = h.store.scope(state: \.visible, action: .probeRows)[id: 1]!
    let r2 = h.store.scope(state: \.visible, action: .probeRows)[id: 2]!
    let v1 = ProbeView { _ = r1.title }
    let v2 = ProbeView { _ = r2.title }
    let list = ProbeView { _ = h.store.scope(state: \.visible, action: .probeRows).ids }
    h.send(.mutate { $0.showEvenOnly = true })
    #expect(list.firings == 1)
    #expect(v1.firings == 0)
    #expect(v2.firings == 0)
    h.send(.mutate { $0.rows[id: 2]!.title = "two" })
    #expect(v2.firings == 1)
    #expect(r2.title == "two")
  }

  @Test func twoPathsToSameRowsBothNotified() {
    let h = probeHarness()
    let direct = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let viaVisible = h.store.scope(state: \.visible, action: .probeRows)[id: 1]!
    let v1 = ProbeView { _ = direct.title }
    let v2 = ProbeView { _ = viaVisible.title }
    viaVisible.send(.rename("shared"))
    #expect(v1.firings == 1)
    #expect(v2.firings == 1)
    #expect(direct.title == "shared")
  }

  @Test func nestedOptionalUnderRow() {
    let h = probeHarness()
    h.send(.mutate { $0.rows[id: 1]!.detail = ProbeDetail.State() })
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let d = r1.scope(state: \.detail, action: .probeDetail)!
    #expect(r1.scope(state: \.detail, action: .probeDetail) === d)
    let vd = ProbeView { _ = d.note }
    h.send(.mutate { $0.rows[id: 2]!.title = "sib" })
    #expect(vd.firings == 0)
    h.send(.mutate { $0.rows[id: 1]!.detail?.note = "n" })
    #expect(vd.firings == 1)
    #expect(d.note == "n")
    vd.render()
    h.send(
      .mutate {
        $0.rows.swapAt(0, 1); $0.rows[id: 1]!.detail?.note = "m"
      })
    #expect(vd.firings == 2)
    #expect(d.note == "m")
  }

  @Test func nestedDetailOfRemovedRow() {
    let w = WarningLog()
    let h = probeHarness(warnings: w)
    h.send(.mutate { $0.rows[id: 1]!.detail = ProbeDetail.State(note: "a") })
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let d = r1.scope(state: \.detail, action: .probeDetail)!
    let vd = ProbeView { _ = d.note }
    d.send(.note("b"))
    #expect(vd.firings == 1)
    h.send(.mutate { $0.rows.remove(id: 1) })
    #expect(d.note == "b")
    h.send(
      .mutate {
        $0.rows.insert(
          ProbeRow.State(id: 1, title: "n", detail: ProbeDetail.State(note: "z")), at: 0)
      })
    #expect(d.note == "b")
    d.send(.note("bad"))
    #expect(h.state.rows[id: 1]?.detail?.note == "z")
    #expect(w.messages.count == 1)
  }

  @Test func contentUndoNotifiesRows() {
    let h = probeHarness()
    let r1 = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let r2 = h.store.scope(state: \.rows, action: .probeRows)[id: 2]!
    let r3 = h.store.scope(state: \.rows, action: .probeRows)[id: 3]!
    let v1 = ProbeView { _ = r1.title }
    let v2 = ProbeView { _ = r2.title }
    let v3 = ProbeView { _ = r3.title }
    let saved = h.state.rows
    h.send(.mutate { $0.rows[id: 1]!.title = "x" })
    v1.render()
    h.send(.mutate { $0.rows[id: 2]!.title = "y" })
    v2.render()
    h.send(.mutate { $0.rows = saved })
    #expect(v1.firings == 2)
    #expect(v2.firings == 2)
    #expect(v3.firings == 0)
    #expect(r1.title == "r1")
    #expect(r2.title == "r2")
  }

  @Test func positionalStoresSurviveRemoval() {
    let h = probeHarness()
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let first = rows[0]
    h.send(.mutate { $0.rows.remove(id: 1) })
    #expect(rows[0] === first)
    #expect(first.title == "r1" || first.title == "")
    h.send(.mutate { $0.rows.insert(ProbeRow.State(id: 1, title: "back"), at: 0) })
    #expect(rows[0] === first)
    #expect(rows[id: 1] !== first)
    #expect(rows[id: 1]?.title == "back")
  }

  @Test func rowsReaddedManyTimesDoNotPileUpHooksOrStores() {
    let h = probeHarness()
    for _ in 0..<200 {
      let r = h.store.scope(state: \.rows, action: .probeRows)[id: 1]!
      _ = r.title
      let d = r.scope(state: \.detail, action: .probeDetail)
      _ = d
      h.send(.mutate { $0.rows.remove(id: 1) })
      h.send(.mutate { $0.rows.append(ProbeRow.State(id: 1, detail: .init())) })
    }
    #expect(h.core.dispatchHooks.count < 10)
  }

  @Test func filteredListNotNotifiedByContentChangeKeepingIDs() {
    let h = probeHarness(rows: [1, 2, 3, 4])
    h.send(.mutate { $0.showEvenOnly = true })
    let list = ProbeView { _ = h.store.scope(state: \.visible, action: .probeRows).ids }
    h.send(.mutate { $0.rows[id: 2]!.title = "x" })
    h.send(.mutate { $0.rows[id: 1]!.title = "y" })
    #expect(list.firings == 0)
    h.send(.mutate { $0.rows.append(ProbeRow.State(id: 6)) })
    #expect(list.firings == 1)
  }
}
