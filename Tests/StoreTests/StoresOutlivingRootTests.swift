import Effects
import Observation
import Testing

@testable import Store

/// Scoped stores held after their root store is let go (observation trial).
@MainActor
@Suite struct StoresOutlivingRootTests {
  @Test func childStoreOutlivingRootStillLearnsItsChildIsGone() {
    let w = WarningLog()
    let (proxy, c):
      (Store<ProbeFeature.State, ProbeFeature.Action>, Store<ProbeChild.State, ProbeChild.Action>) =
        RuntimeWarningHandler.$current.withValue(w.handler) {
          let store = Store(initialState: ProbeFeature.State(child: ProbeChild.State(value: 1))) {
            ProbeFeature(clock: TestClock())
          }
          let proxy = store.scope(state: \.self, action: .probeSelf)
          let c = store.scope(state: \.child, action: .probeChild)!
          _ = c.value
          return (proxy, c)
        }
    // The root store is let go; a view still holds the sheet's store, another a proxy.
    proxy.send(.mutate { $0.child = nil })
    proxy.send(.mutate { $0.child = ProbeChild.State(value: 99) })
    #expect(c.value == 1, "the dismissed child's store keeps its last state")
    c.send(.inc)
    #expect(proxy.child?.value == 99, "the dismissed child's store must not drive the new one")
  }

  @Test func rowStoreOutlivingRootStillLearnsItsRowIsGone() {
    let w = WarningLog()
    let (proxy, r1):
      (Store<ProbeFeature.State, ProbeFeature.Action>, Store<ProbeRow.State, ProbeRow.Action>) =
        RuntimeWarningHandler.$current.withValue(w.handler) {
          let store = Store(
            initialState: ProbeFeature.State(rows: [ProbeRow.State(id: 1, title: "r1")])
          ) {
            ProbeFeature(clock: TestClock())
          }
          let proxy = store.scope(state: \.self, action: .probeSelf)
          let r1 = store.scope(state: \.rows, action: .probeRows)[id: 1]!
          _ = r1.title
          return (proxy, r1)
        }
    // The root store is let go; a row view still holds its row's store, another a proxy.
    proxy.send(.mutate { $0.rows.remove(id: 1) })
    proxy.send(.mutate { $0.rows.append(ProbeRow.State(id: 1, title: "new1")) })
    #expect(r1.title == "r1", "a removed row's store keeps the row's last state")
    r1.send(.rename("bad"))
    #expect(proxy.rows[id: 1]?.title == "new1", "and does not drive the row added back")
    #expect(w.messages.contains { $0.contains("of a collection whose store has been let go") })
  }

  /// Once nothing checks the collection after each action (its store and every collection
  /// of its stores let go), a row store cannot tell its row from a newcomer with its id: from
  /// the next action on, it keeps its row's last state and ignores its sends with a warning,
  /// removed or not.
  @Test func aRowStoreStopsFollowingItsCollectionOnceNothingChecksIt() {
    let w = WarningLog()
    let (proxy, r1):
      (Store<ProbeFeature.State, ProbeFeature.Action>, Store<ProbeRow.State, ProbeRow.Action>) =
        RuntimeWarningHandler.$current.withValue(w.handler) {
          let store = Store(
            initialState: ProbeFeature.State(rows: [ProbeRow.State(id: 1, title: "r1")])
          ) {
            ProbeFeature(clock: TestClock())
          }
          let r1 = store.scope(state: \.rows, action: .probeRows)[id: 1]!
          _ = r1.title
          return (store.scope(state: \.self, action: .probeSelf), r1)
        }
    proxy.send(.mutate { $0.title = "elsewhere" })
    r1.send(.rename("after"))
    #expect(proxy.rows[id: 1]?.title == "r1")
    #expect(r1.title == "r1")
    #expect(w.messages.count == 1)
    #expect(
      w.messages.first?.contains(
        "was sent to the store of element 1 of a collection whose store has been let go") == true,
      "\(w.messages)")
  }

  /// The row store's very first send after the root store and its collections went is
  /// ignored too: it reached the reducer, which changed the row, while the store went on
  /// showing the row's last state.
  @Test func aRowStoresFirstSendAfterItsRootWentIsIgnored() {
    let w = WarningLog()
    var store: StoreOf<ProbeFeature>? = RuntimeWarningHandler.$current.withValue(w.handler) {
      Store(initialState: ProbeFeature.State(rows: [ProbeRow.State(id: 1, title: "r1")])) {
        ProbeFeature(clock: TestClock())
      }
    }
    let r1 = store!.scope(state: \.rows, action: .probeRows)[id: 1]!
    r1.send(.rename("kept"))
    #expect(r1.title == "kept")
    let proxy = store!.scope(state: \.self, action: .probeSelf)
    store = nil
    r1.send(.rename("after"))
    #expect(proxy.rows[id: 1]?.title == "kept", "the send reached the reducer")
    #expect(r1.title == "kept")
    #expect(w.messages.count == 1)
    #expect(
      w.messages.first?.contains(
        "was sent to the store of element 1 of a collection whose store has been let go") == true,
      "\(w.messages)")
  }

  /// While a collection of the row stores is held, the collection is still checked, and its
  /// row stores follow it, root store or not.
  @Test func aHeldCollectionOfRowStoresKeepsThemFollowingTheirRows() {
    let w = WarningLog()
    let (proxy, rows):
      (
        Store<ProbeFeature.State, ProbeFeature.Action>,
        IdentifiedStores<Int, ProbeRow.State, ProbeRow.Action>
      ) = RuntimeWarningHandler.$current.withValue(w.handler) {
        let store = Store(
          initialState: ProbeFeature.State(rows: [ProbeRow.State(id: 1, title: "r1")])
        ) {
          ProbeFeature(clock: TestClock())
        }
        return (
          store.scope(state: \.self, action: .probeSelf),
          store.scope(state: \.rows, action: .probeRows)
        )
      }
    let r1 = rows[id: 1]!
    r1.send(.rename("renamed"))
    #expect(r1.title == "renamed")
    proxy.send(.mutate { $0.rows.remove(id: 1) })
    proxy.send(.mutate { $0.rows.append(ProbeRow.State(id: 1, title: "new1")) })
    #expect(r1.title == "renamed", "a removed row's store keeps the row's last state")
    r1.send(.rename("bad"))
    #expect(proxy.rows[id: 1]?.title == "new1")
  }

  @Test func controlRowAndChildStoresLearnRemovalWhileRootHeld() {
    let w = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(w.handler) {
      Store(
        initialState: ProbeFeature.State(
          rows: [ProbeRow.State(id: 1, title: "r1")], child: .init(value: 1))
      ) {
        ProbeFeature(clock: TestClock())
      }
    }
    let r1 = store.scope(state: \.rows, action: .probeRows)[id: 1]!
    let c = store.scope(state: \.child, action: .probeChild)!
    _ = r1.title
    _ = c.value
    store.send(
      .mutate {
        $0.rows.remove(id: 1); $0.child = nil
      })
    store.send(
      .mutate {
        $0.rows.append(ProbeRow.State(id: 1, title: "new1")); $0.child = .init(value: 99)
      })
    #expect(r1.title == "r1")
    #expect(c.value == 1)
    r1.send(.rename("bad"))
    c.send(.inc)
    #expect(store.rows[id: 1]?.title == "new1")
    #expect(store.child?.value == 99)
    #expect(w.messages.count == 2)
  }

  @Test func rootStoreReleasedWithLiveObservation() {
    weak var weakStore: Store<ProbeFeature.State, ProbeFeature.Action>?
    weak var weakRow: Store<ProbeRow.State, ProbeRow.Action>?
    do {
      let store = Store(
        initialState: ProbeFeature.State(rows: [ProbeRow.State(id: 1)], child: .init())
      ) { ProbeFeature(clock: TestClock()) }
      weakStore = store
      let row = store.scope(state: \.rows, action: .probeRows)[id: 1]!
      weakRow = row
      let child = store.scope(state: \.child, action: .probeChild)!
      let mode = store.scope(state: \.mode, action: .probeMode).scope(
        state: .probeA, action: .probeA)!
      let v = ProbeView {
        _ = row.title; _ = child.value; _ = mode.value; _ = store.title; _ = store.rowCount
      }
      _ = v
    }
    #expect(weakStore == nil)
    #expect(weakRow == nil)
  }

  @Test func rootCoreFreedAfterAllScopedStoresAndObservationsReleased() {
    weak var weakCore: AnyObject?
    weak var weakCache: AnyObject?
    weak var weakDetail: Store<ProbeDetail.State, ProbeDetail.Action>?
    var state = ProbeFeature.State(
      rows: [ProbeRow.State(id: 1, detail: .init()), ProbeRow.State(id: 2)], child: .init(),
      idChild: .init(id: 3))
    state.path.append(ProbeRow.State(id: 9))
    do {
      let store = Store(initialState: state) { ProbeFeature(clock: TestClock()) }
      weakCore = store.core as AnyObject
      let rows = store.scope(state: \.rows, action: .probeRows)
      weakCache = rows.cache
      let r1 = rows[id: 1]!
      let d = r1.scope(state: \.detail, action: .probeDetail)!
      weakDetail = d
      let vis = store.scope(state: \.visible, action: .probeRows)
      let screens = store.scope(state: \.path, action: .probePath)
      let c = store.scope(state: \.child, action: .probeChild)!
      let ic = store.scope(state: \.idChild, action: .probeIDChild)!
      let v = ProbeView {
        _ = r1.title; _ = d.note; _ = c.value; _ = ic.value; _ = store.title
        _ = store.scope(state: \.rows, action: .probeRows).ids
        _ = vis.first?.title; _ = screens.first?.title; _ = store.rowCount; _ = store.state
      }
      store.send(.mutate { $0.title = "x" })
      v.render()
      d.send(.note("n"))
      _ = v
    }
    #expect(weakCore == nil)
    #expect(weakCache == nil)
    #expect(weakDetail == nil)
  }
}
