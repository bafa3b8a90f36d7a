import Effects
import Testing

@testable import Store

/// The state of a row that `FilteredRows` holds: made from its id alone, and shown through the
/// list's filtered view while `isShown` is set.
protocol FilterableRowState: Equatable, Identifiable, Sendable where ID == Int {
  init(id: Int)
  var isShown: Bool { get set }
}

/// A row's reducer, built on the test's clock; `Sendable`, as the case keys of the generic
/// features that hold it capture its type.
protocol ClockedRow: Reducer, Sendable where State: FilterableRowState, Action: Equatable {
  init(clock: TestClock)
}

extension SubscribingRow: ClockedRow {}

extension SubscribingRow.State: FilterableRowState {
  init(id: Int) { self.init(id: id, name: "") }
}

/// Rows 1 and 2 shown through a filtered view (`visibleRows`, and the rows of `panel`, a child
/// state built from that view), that a test hides, shows, deletes and adds: the parent of the
/// filtered-row lifecycle hunts' rows.
struct FilteredRows<Row: ClockedRow>: Reducer {
  struct State: Equatable, Identifiable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
    /// The list's id, when a sheet shows it.
    var id = 0
    var visibleRows: IdentifiedArrayOf<Row.State> { rows.filter(\.isShown) }
    /// A child state built from the view: a view of a view.
    var panel: Panel { Panel(rows: visibleRows) }
  }
  /// The rows of the filtered view, as a child state.
  struct Panel: Equatable {
    var rows: IdentifiedArrayOf<Row.State>
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, Row.Action>)
    case hide(Int)
    case show(Int)
    case delete(Int)
    case addShown(Int)
    case addHidden(Int)

    /// The panel's actions are the list's own.
    static var wholeKey: CaseKey<Self, Self> { CaseKey({ $0 }) { $0 } }

    static var rowsKey: CaseKey<Self, IdentifiedAction<Int, Row.Action>> {
      CaseKey(Self.rows) { if case .rows(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .hide(let id): state.rows[id: id]?.isShown = false
      case .show(let id): state.rows[id: id]?.isShown = true
      case .delete(let id): state.rows.remove(id: id)
      case .addShown(let id): state.rows.append(Row.State(id: id))
      case .addHidden(let id):
        var row = Row.State(id: id)
        row.isShown = false
        state.rows.append(row)
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rowsKey) { Row(clock: clock) }
  }
}

extension FilteredRows.State: Codable where Row.State: Codable {}

extension FilteredRows.Action: Codable where Row.Action: Codable {}

/// A sheet holding a list of items (item 8), shown through a filtered view of its own
/// (`visibleItems`); its actions are its items'.
struct ItemsSheet<Item: ClockedRow>: Reducer {
  struct State: Equatable, Sendable {
    var items: IdentifiedArrayOf<Item.State> = [Item.State(id: 8)]
    var visibleItems: IdentifiedArrayOf<Item.State> { items.filter(\.isShown) }
  }
  typealias Action = IdentifiedAction<Int, Item.Action>

  /// The sheet's actions are its items'.
  static var itemsKey: CaseKey<Action, Action> { CaseKey({ $0 }) { $0 } }

  let clock: TestClock

  var body: some Reducer<State, Action> {
    EmptyReducer<State, Action>()
      .forEach(\.items, action: Self.itemsKey) { Item(clock: clock) }
  }
}

/// A row of a filtered view with screens of its own beyond a presented one: a navigation
/// stack, a list of items, and a sheet holding a filtered list of its own.
struct NestingRow: ClockedRow {
  typealias Screen = SubscribingRow

  struct State: FilterableRowState {
    let id: Int
    var isShown = true
    var path = StackState<Screen.State>([Screen.State(id: 0)])
    var items: IdentifiedArrayOf<Screen.State> = [Screen.State(id: 7)]
    var sheet: ItemsSheet<Screen>.State? = ItemsSheet<Screen>.State()
    var visibleItems: IdentifiedArrayOf<Screen.State> { items.filter(\.isShown) }

    init(id: Int) { self.id = id }
  }
  enum Action: Sendable, Equatable {
    case path(StackAction<Screen.State, Screen.Action>)
    case items(IdentifiedAction<Int, Screen.Action>)
    case sheet(IdentifiedAction<Int, Screen.Action>)
    case replaceStack
    /// Pops the stack's screen, removes the item, and the sheet's.
    case removeScreens

    static var pathKey: CaseKey<Self, StackAction<Screen.State, Screen.Action>> {
      CaseKey(Self.path) { if case .path(let action) = $0 { action } else { nil } }
    }
    static var itemsKey: CaseKey<Self, IdentifiedAction<Int, Screen.Action>> {
      CaseKey(Self.items) { if case .items(let action) = $0 { action } else { nil } }
    }
    static var sheetKey: CaseKey<Self, IdentifiedAction<Int, Screen.Action>> {
      CaseKey(Self.sheet) { if case .sheet(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .replaceStack: state.path = StackState([Screen.State(id: 0)])
      case .removeScreens:
        state.path.removeAll()
        state.items.removeAll()
        state.sheet?.items.removeAll()
      case .path, .items, .sheet: break
      }
      return .none
    }
    .navigationStack(\.path, action: Action.pathKey) { Screen(clock: clock) }
    .forEach(\.items, action: Action.itemsKey) { Screen(clock: clock) }
    .ifLet(\.sheet, action: Action.sheetKey) { ItemsSheet<Screen>(clock: clock) }
  }
}

/// An item of a row's list: a screen with a lifecycle of its own and a stack of screens.
struct StackingItem: ClockedRow {
  typealias Screen = SubscribingRow

  struct State: FilterableRowState {
    let id: Int
    var isShown = true
    var lifecycle = ScreenLifecycleState()
    var path = StackState<Screen.State>([Screen.State(id: 0)])

    init(id: Int) { self.id = id }
  }
  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case path(StackAction<Screen.State, Screen.Action>)

    static var lifecycleKey: CaseKey<Self, ScreenLifecycleAction> {
      CaseKey(Self.lifecycle) { if case .lifecycle(let action) = $0 { action } else { nil } }
    }
    static var pathKey: CaseKey<Self, StackAction<Screen.State, Screen.Action>> {
      CaseKey(Self.path) { if case .path(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .screenLifecycle(\.lifecycle, action: Action.lifecycleKey)
      .navigationStack(\.path, action: Action.pathKey) { Screen(clock: clock) }
  }
}

/// A row of a filtered view with a list of stacking items, and a sheet with a list of its own.
struct ListingRow: ClockedRow {
  typealias Item = StackingItem

  struct State: FilterableRowState {
    let id: Int
    var isShown = true
    var items: IdentifiedArrayOf<Item.State> = [Item.State(id: 7)]
    var sheet: ItemsSheet<Item>.State? = ItemsSheet<Item>.State()

    init(id: Int) { self.id = id }
  }
  enum Action: Sendable, Equatable {
    case items(IdentifiedAction<Int, Item.Action>)
    case sheet(IdentifiedAction<Int, Item.Action>)
    case removeItem(Int)
    case addItem(Int)
    case hideSheetItem(Int)

    static var itemsKey: CaseKey<Self, IdentifiedAction<Int, Item.Action>> {
      CaseKey(Self.items) { if case .items(let action) = $0 { action } else { nil } }
    }
    static var sheetKey: CaseKey<Self, IdentifiedAction<Int, Item.Action>> {
      CaseKey(Self.sheet) { if case .sheet(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .removeItem(let id): state.items.remove(id: id)
      case .addItem(let id): state.items.append(Item.State(id: id))
      case .hideSheetItem(let id): state.sheet?.items[id: id]?.isShown = false
      case .items, .sheet: break
      }
      return .none
    }
    .forEach(\.items, action: Action.itemsKey) { Item(clock: clock) }
    .ifLet(\.sheet, action: Action.sheetKey) { ItemsSheet<Item>(clock: clock) }
  }
}

/// A row of a filtered view presenting a sheet that holds a navigation stack.
struct SheetStackRow: ClockedRow {
  typealias Screen = SubscribingRow
  typealias PathAction = StackAction<Screen.State, Screen.Action>

  struct State: FilterableRowState {
    let id: Int
    var isShown = true
    var sheet: Sheet? = Sheet()

    init(id: Int) { self.id = id }
  }
  /// A sheet whose content is a stack.
  struct Sheet: Equatable, Sendable {
    var path = StackState<Screen.State>([Screen.State(id: 0)])
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<PathAction>)

    static var sheetKey: CaseKey<Self, PresentationAction<PathAction>> {
      CaseKey(Self.sheet) { if case .sheet(let action) = $0 { action } else { nil } }
    }
    /// The sheet's actions are its stack's.
    static var pathKey: CaseKey<PathAction, PathAction> { CaseKey({ $0 }) { $0 } }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    EmptyReducer()
      .presents(\.sheet, action: Action.sheetKey) {
        EmptyReducer<Sheet, PathAction>()
          .navigationStack(\.path, action: Action.pathKey) { Screen(clock: clock) }
      }
  }
}

/// A row of a filtered view that presents a screen of its own, whose task subscribes while it
/// runs.
struct DetailRow: ClockedRow {
  typealias Detail = SubscribingRow

  struct State: FilterableRowState {
    let id: Int
    var isShown = true
    var detail: Detail.State? = Detail.State(id: 0)

    init(id: Int) { self.id = id }
  }
  enum Action: Sendable, Equatable {
    case detail(Detail.Action)
    case closeDetail
    case replaceDetail(Int)

    /// The row's actions, for a store of the whole row scoped as a part of it.
    static var wholeKey: CaseKey<Self, Self> { CaseKey({ $0 }) { $0 } }

    static var detailKey: CaseKey<Self, Detail.Action> {
      CaseKey(Self.detail) { if case .detail(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .closeDetail: state.detail = nil
      case .replaceDetail(let id): state.detail = Detail.State(id: id)
      case .detail: break
      }
      return .none
    }
    .ifLet(\.detail, action: Action.detailKey) { Detail(clock: clock) }
  }
}

/// The task of a screen's new store, started while the old store's task still runs.
@MainActor
final class LaterTask {
  var task: Task<Void, Never>?
}

extension Harness {
  /// A harness of rows 1 and 2, both shown, on `clock`, whose warnings go to `warnings`.
  convenience init<Row>(filteredRowsOn clock: TestClock, warnings: WarningLog)
  where R == FilteredRows<Row> {
    self.init(initialState: R.State(), warnings: warnings.handler, reducer: R(clock: clock))
  }

  /// The store of row `id`, as the list showing the filtered view scopes it now.
  func shownRow<Row>(_ id: Int = 1) -> Store<Row.State, Row.Action>?
  where R == FilteredRows<Row> {
    store.scope(state: \.visibleRows, action: R.Action.rowsKey)[id: id]
  }

  /// How many times the harness reduced `rowAction` for row `id`.
  func count<Row>(_ rowAction: Row.Action, ofRow id: Int = 1) -> Int
  where R == FilteredRows<Row> {
    processed.filter { $0.action == .rows(.element(id: id, action: rowAction)) }.count
  }

  /// Runs a task of `store`'s screen whose one step settles the harness and runs `body`, then
  /// ends; settles the harness once the task's end was sent.
  func runTask<State, Action>(
    of store: Store<State, Action>?, _ lifecycle: CaseKey<Action, ScreenLifecycleAction>,
    _ body: @escaping @MainActor @Sendable () async -> Void
  ) async {
    let phases = scripted([
      {
        self.settle()
        await body()
        return nil
      }
    ])
    await store?.runScreen(lifecycle: lifecycle, currentPhase: .active, scenePhases: phases)
    settle()
  }

  /// Runs a task of the store `screen` gives (the old one); while it runs, `changes` are sent,
  /// then a task of the store `screen` gives now (a new one) starts, and the old task ends once
  /// `started` holds. Returns, once the old task's end was reduced, the new task and the end
  /// of its phases.
  ///
  /// - Parameters:
  ///   - newStore: Where given, what is expected of the new store: that there is one, and that
  ///     it is not the old.
  ///   - neverStarted: The issue recorded when `started` does not hold within 10,000 yields.
  func runAnOldTaskStartingANewOne<State, Action>(
    _ screen: @escaping @MainActor () -> Store<State, Action>?,
    _ lifecycle: CaseKey<Action, ScreenLifecycleAction>,
    sending changes: [R.Action],
    expectingANewStore newStore: Comment? = "the row's new store scopes a new one for the screen",
    until started: @escaping @MainActor @Sendable () -> Bool,
    neverStarted: Comment = "the new store's task never started (10,000 yields)"
  ) async -> (LaterTask, AsyncStream<ScreenLifecycleAction.ScenePhase>.Continuation) {
    let old = screen()
    let newTask = LaterTask()
    let (newPhases, newPhasesEnd) = AsyncStream.makeStream(
      of: ScreenLifecycleAction.ScenePhase.self)
    await runTask(of: old, lifecycle) {
      for change in changes { self.send(change) }
      let new = screen()
      if let newStore { #expect(new != nil && new !== old, newStore) }
      newTask.task = Task {
        await new?.runScreen(lifecycle: lifecycle, currentPhase: .active, scenePhases: newPhases)
      }
      var yields = 0
      while !started() {
        yields += 1
        guard yields <= 10_000 else {
          Issue.record(neverStarted)
          return
        }
        await Task.yield()
      }
    }
    return (newTask, newPhasesEnd)
  }
}
