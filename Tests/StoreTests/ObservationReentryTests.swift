import Effects
import Observation
import Testing

@testable import Store

/// A board whose only real action changes its state with a closure.
private struct Board: Reducer {
  struct Card: Equatable, Identifiable, Sendable {
    /// A value that is not `Equatable`, built anew at each read.
    struct Tags { var list: [String] }

    let id: Int
    var title = ""
    var tags: Tags { Tags(list: [title]) }
  }

  struct Profile: Equatable, Sendable {
    var name = ""
  }

  struct State: Equatable {
    var count = 0
    var profile = Profile()
    var cards: IdentifiedArrayOf<Card> = [Card(id: 1, title: "r1"), Card(id: 2)]
  }

  enum Action: Sendable {
    case set(@Sendable (inout State) -> Void)
    case cards(IdentifiedAction<Int, CardAction>)
    case profile(ProfileAction)
  }

  enum CardAction: Sendable { case tapped }
  enum ProfileAction: Sendable { case tapped }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .set(let change) = action { change(&state) }
    return .none
  }
}

extension CaseKey<Board.Action, Board.ProfileAction> {
  fileprivate static var profile: Self {
    Self(Board.Action.profile) { if case .profile(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Board.Action, IdentifiedAction<Int, Board.CardAction>> {
  fileprivate static var cards: Self {
    Self(Board.Action.cards) { if case .cards(let a) = $0 { a } else { nil } }
  }
}

/// A view that draws again at once, in `onChange`, as a UIKit-style observer can.
@MainActor
private final class EagerView {
  private(set) var shown: [String] = []
  private(set) var renders = 0
  private let read: @MainActor () -> [String]

  init(_ read: @escaping @MainActor () -> [String]) {
    self.read = read
    render()
  }

  func render() {
    renders += 1
    withObservationTracking {
      shown = read()
    } onChange: { [weak self] in
      MainActor.assumeIsolated { self?.render() }
    }
  }
}

/// Values read again while the stores are being checked after an action.
@MainActor
@Suite struct ObservationReentryTests {
  /// A view drew again when told of the root's change, reading a row's title before the row
  /// store's check: it joined the readers of the title as it was before the action. An
  /// observer of another store, checked before the row's, then turned the title back, so the
  /// row's check saw no change, and the view kept showing a title the state no longer held
  /// (observation trial).
  @Test func aViewThatDrawsInOnChangeIsToldWhenAnObserverTurnsAValueBack() {
    let store = Store(initialState: Board.State()) { Board() }
    let profile = store.scope(state: \.profile, action: .profile)
    // Stores are checked in the order they were first read: the root, the profile, the rows.
    _ = store.count
    _ = profile.name
    let row = store.scope(state: \.cards, action: .cards)[id: 1]!
    let view = EagerView { ["\(store.count)", row.title] }
    var turnedBack = false
    withObservationTracking {
      _ = profile.name
    } onChange: {
      MainActor.assumeIsolated {
        guard !turnedBack else { return }
        turnedBack = true
        store.send(.set { $0.cards[id: 1]?.title = "r1" })
      }
    }
    store.send(
      .set {
        $0.count = 1
        $0.profile.name = "Grace"
        $0.cards[id: 1]?.title = "changed"
      })
    #expect(turnedBack)
    #expect(store.cards[id: 1]?.title == "r1")
    #expect(view.shown == ["1", "r1"])
    store.send(.set { $0.cards[id: 2]?.title = "other" })
    #expect(view.shown == ["1", "r1"])
  }

  /// One action that changes several values a view reads through one store tells it once:
  /// the store told each value's readers in turn, and a view that drew again when told of
  /// the first joined the readers of the next, to be told of it again (bug hunt: two values
  /// drew three times, three drew four).
  @Test(arguments: [1, 2, 3])
  func valuesOfOneStoreChangedByOneActionRedrawAViewOnce(changed: Int) {
    let store = Store(initialState: Board.State()) { Board() }
    let view = EagerView { ["\(store.count)", store.profile.name, store.cards[0].title] }
    store.send(
      .set {
        $0.count = 1
        if changed >= 2 { $0.profile.name = "Grace" }
        if changed >= 3 { $0.cards[id: 1]?.title = "changed" }
      })
    #expect(view.renders == 2)
    #expect(view.shown == ["1", changed >= 2 ? "Grace" : "", changed >= 3 ? "changed" : "r1"])
    // Still following each value, under its new key: the next change is told once more.
    store.send(.set { $0.profile.name = "Ada" })
    #expect(view.renders == 3)
    #expect(view.shown[1] == "Ada")
  }

  /// One action that changes a value of the root and one of a scoped store, which a view
  /// reads both, redraws it once, and once per change after (review: the scoped store told
  /// the view's old readers while the view drew in its `onChange`, reaching the view's own
  /// tracking, not yet cancelled: it drew three times, then twice at every change, two
  /// trackings left installed).
  @Test(arguments: [false, true])
  func valuesOfTwoStoresChangedByOneActionRedrawAViewOnce(scopedFirst: Bool) {
    let store = Store(initialState: Board.State()) { Board() }
    let profile = store.scope(state: \.profile, action: .profile)
    // Stores are checked in the order they were first read.
    if scopedFirst { _ = profile.name }
    let row = store.scope(state: \.cards, action: .cards)[id: 1]!
    let view = EagerView { ["\(store.count)", profile.name, row.title] }
    store.send(
      .set {
        $0.count = 1
        $0.profile.name = "Grace"
        $0.cards[id: 1]?.title = "changed"
      })
    #expect(view.renders == 2)
    #expect(view.shown == ["1", "Grace", "changed"])
    store.send(.set { $0.profile.name = "Ada" })
    #expect(view.renders == 3)
    store.send(.set { $0.count = 2 })
    #expect(view.renders == 4)
    store.send(.set { $0.cards[id: 1]?.title = "again" })
    #expect(view.renders == 5)
    #expect(view.shown == ["2", "Ada", "again"])
  }

  @Test func valuesOfOneRowStoreChangedByOneActionRedrawAViewOnce() {
    let store = Store(initialState: Board.State()) { Board() }
    let row = store.scope(state: \.cards, action: .cards)[id: 1]!
    let view = EagerView { [row.title, "\(row.tags.list.count)", "\(row.id)"] }
    store.send(.set { $0.cards[id: 1]?.title = "changed" })
    #expect(view.renders == 2)
    #expect(view.shown == ["changed", "1", "1"])
    store.send(.set { $0.cards[id: 1]?.title = "again" })
    #expect(view.renders == 3)
  }

  /// The rows a view reads are compared when it reads them again mid-check, not only by their
  /// store's check: the view is told of each change once it drew it, and of nothing after.
  @Test func aValueReadAgainMidCheckIsNotReportedAgainOnceDrawn() {
    let store = Store(initialState: Board.State()) { Board() }
    let row = store.scope(state: \.cards, action: .cards)[id: 1]!
    let view = EagerView { ["\(store.count)", row.title] }
    store.send(.set { $0.count = 1 })
    #expect(view.shown == ["1", "r1"])
    let renders = view.renders
    store.send(.set { $0.cards[id: 2]?.title = "sibling" })
    #expect(view.renders == renders)
    store.send(.set { $0.cards[id: 1]?.title = "mine" })
    #expect(view.shown == ["1", "mine"])
    #expect(view.renders == renders + 1)
  }

  /// A non-Equatable value a computed property builds anew at each read is compared by its
  /// bytes, which differ at every build: when a read compared a row store's values whenever
  /// the store had not checked since the last action, a second reader reading it after an
  /// action that changed nothing of the row notified the first (review). Reads compare only
  /// while stores are being checked after an action.
  @Test func readingAnUnchangedRowValueAgainNotifiesNobody() {
    let store = Store(initialState: Board.State()) { Board() }
    let row = store.scope(state: \.cards, action: .cards)[id: 1]!
    let first = Tracker { _ = row.tags }
    store.send(.set { $0.count += 1 })
    #expect(first.firings == 0)
    let second = Tracker { _ = row.tags }
    #expect(first.firings == 0, "nothing of the row changed")
    #expect(second.firings == 0)
  }
}
