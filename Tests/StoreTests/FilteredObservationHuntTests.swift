import Effects
import Observation
import Store
import Testing

// The observation hunt, continued: readers of row stores handed out by a filtered view (a
// computed property), and of an alert kept in its own optional state, are told of the changes
// they read, and only those.

/// A list shown through views the state computes, and an alert kept in its own optional state.
private struct Board: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Card.State> = []
    var doneOnly = false
    var alert: Notice?

    /// The rows shown: the done ones, or all, as the filter says.
    var visibleRows: IdentifiedArrayOf<Card.State> {
      doneOnly ? rows.filter(\.isDone) : rows
    }

    /// The rows shown by title, built anew at each read (not through `filter(_:)`).
    var byTitle: IdentifiedArrayOf<Card.State> {
      IdentifiedArray(rows.sorted { $0.title < $1.title })
    }
  }

  struct Notice: Equatable {
    var message: String
  }

  enum NoticeAction: Sendable, Equatable {
    case ok
    case retry
  }

  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<Card>)
    case setDoneOnly(Bool)
    case renameAndHide(id: Int, title: String)
    case renameAll(except: Int?, title: String)
    case showAlert(String)
    case alert(PresentationAction<NoticeAction>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .setDoneOnly(let on):
        state.doneOnly = on
      case .renameAndHide(let id, let title):
        state.rows[id: id]?.title = title
        state.rows[id: id]?.isDone = false
      case .renameAll(let except, let title):
        for id in state.rows.ids where id != except { state.rows[id: id]?.title = title }
      case .showAlert(let message):
        state.alert = Notice(message: message)
      case .alert(.presented(.retry)):
        // Closed by its own action, and shown again in answer.
        state.alert = Notice(message: "Retrying")
      case .rows, .alert:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { Card() }
    .presents(\.alert, action: .alert)
  }
}

private struct Card: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var title: String
    var isDone = true
    var alert: Board.Notice?
  }

  enum Action: Sendable, Equatable {
    case rename(String)
    case toggleDone
    case warn(String)
    case alert(PresentationAction<Board.NoticeAction>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rename(let title): state.title = title
      case .toggleDone: state.isDone.toggle()
      case .warn(let message): state.alert = Board.Notice(message: message)
      case .alert: break
      }
      return .none
    }
    .presents(\.alert, action: .cardAlert)
  }
}

extension CaseKey<Card.Action, PresentationAction<Board.NoticeAction>> {
  fileprivate static var cardAlert: Self {
    Self(Card.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Board.Action, IdentifiedActionOf<Card>> {
  fileprivate static var rows: Self {
    Self(Board.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Board.Action, PresentationAction<Board.NoticeAction>> {
  fileprivate static var alert: Self {
    Self(Board.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

/// Counts the changes told to one `withObservationTracking` of `read`.
@MainActor
private final class Watch {
  var count = 0
  init(_ read: () -> Void) {
    withObservationTracking(read) { [weak self] in
      MainActor.assumeIsolated { self?.count += 1 }
    }
  }
}

@MainActor
@Suite struct FilteredObservationHuntTests {
  private func board(_ ids: ClosedRange<Int> = 1...4) -> Store<Board.State, Board.Action> {
    Store(
      initialState: Board.State(
        rows: IdentifiedArray(ids.map { Card.State(id: $0, title: "\($0)", isDone: $0 % 2 == 0) }),
        doneOnly: true)
    ) { Board() }
  }

  private func visible(_ store: Store<Board.State, Board.Action>)
    -> IdentifiedStores<Int, Card.State, Card.Action>
  {
    store.scope(state: \.visibleRows, action: .rows)
  }

  @Test func aRowShownThroughAFilterIsToldOfItsOwnChangeAndNotOfAnothers() {
    let store = board()
    #expect(visible(store).ids == [2, 4])
    let row = visible(store)[id: 2]!
    let title = Watch { _ = row.title }
    store.send(.rows(.element(id: 4, action: .rename("four"))))  // a sibling in the view
    store.send(.rows(.element(id: 3, action: .rename("three"))))  // a row the filter hides
    #expect(title.count == 0)
    let list = Watch { _ = visible(store) }
    row.send(.rename("two"))
    #expect([title.count, list.count] == [1, 0])
    #expect(row.title == "two")
    #expect(store.rows[id: 2]?.title == "two")
  }

  @Test func aRowThatLeavesTheViewIsNotToldAndKeepsItsLastState() {
    let store = board()
    let row = visible(store)[id: 2]!
    let title = Watch { _ = row.title }
    let list = Watch { _ = visible(store) }
    store.send(.renameAndHide(id: 2, title: "gone"))  // changed and out of the view in one send
    #expect([title.count, list.count] == [0, 1])
    #expect(row.title == "2")
    #expect(visible(store).ids == [4])
    #expect(store.rows[id: 2]?.title == "gone")
  }

  @Test func aRowThatLeavesTheViewByItsOwnActionIsNotTold() {
    let store = board()
    let row = visible(store)[id: 4]!
    let done = Watch { _ = row.isDone }
    let list = Watch { _ = visible(store) }
    row.send(.toggleDone)
    #expect([done.count, list.count] == [0, 1])
    #expect(row.isDone)
    #expect(store.rows[id: 4]?.isDone == false)
  }

  @Test func aRowBackInTheViewHasANewStoreAndTheOldOneIsToldNothing() {
    let store = board()
    let old = visible(store)[id: 2]!
    let oldTitle = Watch { _ = old.title }
    store.send(.renameAndHide(id: 2, title: "hidden"))
    store.send(.rows(.element(id: 2, action: .toggleDone)))
    let list = Watch { _ = visible(store) }
    store.send(.rows(.element(id: 2, action: .rename("back"))))
    #expect(list.count == 0)
    #expect(visible(store).ids == [2, 4])
    let new = visible(store)[id: 2]!
    #expect(new !== old)
    #expect(new.title == "back")
    let newTitle = Watch { _ = new.title }
    store.send(.rows(.element(id: 2, action: .rename("again"))))
    #expect([oldTitle.count, newTitle.count] == [0, 1])
    #expect(old.title == "2")
  }

  @Test func aRowComingIntoTheViewTellsTheListAndNotTheRowsShown() {
    let store = board()
    let row = visible(store)[id: 2]!
    let title = Watch { _ = row.title }
    let list = Watch { _ = visible(store) }
    store.send(.rows(.element(id: 3, action: .toggleDone)))
    #expect([title.count, list.count] == [0, 1])
    #expect(visible(store).ids == [2, 3, 4])
    #expect(visible(store)[id: 2] === row)
  }

  @Test func theWholeListShownAgainTellsTheListAndNotTheRowsThatStay() {
    let store = board()
    let row = visible(store)[id: 2]!
    let title = Watch { _ = row.title }
    let list = Watch { _ = visible(store) }
    store.send(.setDoneOnly(false))
    #expect([title.count, list.count] == [0, 1])
    #expect(visible(store).ids == [1, 2, 3, 4])
    #expect(visible(store)[id: 2] === row)
  }

  // More rows changed than the array remembers (16 changes here): each observed row checks its
  // own, and only a row whose value changed is told.
  @Test func aBulkChangeThroughAFilterTellsOnlyTheRowsItChanged() {
    let store = board(1...80)
    let kept = visible(store)[id: 2]!
    let renamed = visible(store)[id: 4]!
    let keptTitle = Watch { _ = kept.title }
    let renamedTitle = Watch { _ = renamed.title }
    let list = Watch { _ = visible(store) }
    store.send(.renameAll(except: 2, title: "x"))
    #expect([keptTitle.count, renamedTitle.count, list.count] == [0, 1, 0])
    #expect(renamed.title == "x")
    #expect(kept.title == "2")
  }

  // A view of elements built anew (sorted into a new array) cannot say which rows changed:
  // each observed row compares its own, so a row's reader is still told only of its own row.
  @Test func aRowOfAViewBuiltAnewIsToldOfItsOwnChangeOnly() {
    let store = board()
    let row = store.scope(state: \.byTitle, action: .rows)[id: 1]!
    let title = Watch { _ = row.title }
    store.send(.rows(.element(id: 3, action: .rename("0"))))  // moves to the front
    #expect(title.count == 0)
    let list = Watch { _ = store.scope(state: \.byTitle, action: .rows) }
    row.send(.rename("9"))  // moves to the end
    #expect([title.count, list.count] == [1, 1])
    #expect(row.title == "9")
    #expect(store.scope(state: \.byTitle, action: .rows).ids == [3, 2, 4, 1])
  }

  @Test func anAlertInItsOwnOptionalStateIsToldWhenShownChangedAndDismissed() {
    let store = board()
    let presence = Watch { _ = store.scope(state: \.alert, action: .alert) }
    store.send(.showAlert("Saved"))
    #expect(presence.count == 1)
    let alert = store.scope(state: \.alert, action: .alert)!
    #expect(alert.message == "Saved")

    let message = Watch { _ = alert.message }
    let stillShown = Watch { _ = store.scope(state: \.alert, action: .alert) }
    store.send(.showAlert("Saved twice"))  // changed in place: the same store
    #expect([message.count, stillShown.count] == [1, 0])
    #expect(store.scope(state: \.alert, action: .alert) === alert)
    #expect(alert.message == "Saved twice")

    let closedMessage = Watch { _ = alert.message }
    let closing = Watch { _ = store.scope(state: \.alert, action: .alert) }
    alert.send(.ok)  // an alert's action closes it
    #expect([closedMessage.count, closing.count] == [0, 1])
    #expect(store.alert == nil)
    #expect(store.scope(state: \.alert, action: .alert) == nil)
    #expect(alert.message == "Saved twice")
  }

  @Test func anAlertShownAgainInAnswerToItsOwnActionKeepsItsStoreAndTellsItsChange() {
    let store = board()
    store.send(.showAlert("Failed"))
    let alert = store.scope(state: \.alert, action: .alert)!
    let message = Watch { _ = alert.message }
    let presence = Watch { _ = store.scope(state: \.alert, action: .alert) }
    alert.send(.retry)
    #expect(store.alert?.message == "Retrying")
    #expect([message.count, presence.count] == [1, 0])
    #expect(store.scope(state: \.alert, action: .alert) === alert)
    #expect(alert.message == "Retrying")
  }

  @Test func anAlertDismissedFromOutsideAndShownAgainLaterGetsANewStore() {
    let store = board()
    store.send(.showAlert("A"))
    let first = store.scope(state: \.alert, action: .alert)!
    let firstMessage = Watch { _ = first.message }
    store.send(.alert(.dismiss))
    #expect(store.alert == nil)
    let presence = Watch { _ = store.scope(state: \.alert, action: .alert) }
    store.send(.showAlert("B"))
    #expect([firstMessage.count, presence.count] == [0, 1])
    let second = store.scope(state: \.alert, action: .alert)!
    #expect(second !== first)
    #expect(second.message == "B")
    #expect(first.message == "A")
  }

  @Test func aRowsAlertShownThroughAFilterIsToldToThatRowsReadersAlone() {
    let store = board()
    let row = visible(store)[id: 2]!
    let sibling = visible(store)[id: 4]!
    let shown = Watch { _ = row.scope(state: \.alert, action: .cardAlert) }
    let siblingShown = Watch { _ = sibling.scope(state: \.alert, action: .cardAlert) }
    let title = Watch { _ = row.title }
    row.send(.warn("Late"))
    #expect([shown.count, siblingShown.count, title.count] == [1, 0, 0])
    let alert = row.scope(state: \.alert, action: .cardAlert)!
    #expect(alert.message == "Late")

    let message = Watch { _ = alert.message }
    let closing = Watch { _ = row.scope(state: \.alert, action: .cardAlert) }
    alert.send(.ok)
    #expect([message.count, closing.count] == [0, 1])
    #expect(store.rows[id: 2]?.alert == nil)
    #expect(row.scope(state: \.alert, action: .cardAlert) == nil)
  }

  @Test func aRowsAlertGoesWithTheRowWhenItLeavesTheView() {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) { board() }
    let row = visible(store)[id: 2]!
    row.send(.warn("Late"))
    let alert = row.scope(state: \.alert, action: .cardAlert)!
    let message = Watch { _ = alert.message }
    let shown = Watch { _ = row.scope(state: \.alert, action: .cardAlert) }
    store.send(.renameAndHide(id: 2, title: "hidden"))
    #expect([message.count, shown.count] == [0, 0])
    alert.send(.ok)  // out of the view with its row: ignored, with a warning
    #expect(warnings.messages.count == 1)
    #expect(store.rows[id: 2]?.alert == Board.Notice(message: "Late"))
    #expect(alert.message == "Late")
  }
}
