import Effects
import Store

// This target is compiled with `.defaultIsolation(MainActor.self)`, as an app target made by
// Xcode 26 is. Its features are written as the Store documentation's "Modules Isolated to the
// Main Actor" says: each reducer `nonisolated` (its nested types follow it), and each extension
// of a reducer and each case key in a `nonisolated extension`. Without those, the lines marked
// below do not compile.

/// A list of items, each with a debounced save under a cancellation id every item uses, an
/// editor sheet that reports back with a delegate action, and a stack of detail screens.
nonisolated struct Checklist: Reducer {
  struct State: Equatable {
    var items: IdentifiedArrayOf<Item.State> = []
    var editor: Editor.State?
    var path = StackState<Detail.State>()
  }

  enum Action: Sendable, Equatable {
    case addTapped(id: Int, title: String)
    case editTapped(id: Int)
    case openTapped(id: Int)
    case removeTapped(id: Int)
    // `IdentifiedActionOf<Item>` names `Item`'s conformance to `Reducer`: isolated to the main
    // actor, and unusable here, unless `Item` is `nonisolated`.
    case items(IdentifiedActionOf<Item>)
    case editor(PresentationAction<Editor.Action>)
    case path(StackActionOf<Detail>)
  }

  let clock: any Clock<Duration>

  // `some ReducerOf<Self>` is an error ("type does not conform to protocol 'Reducer'") unless
  // `Checklist` is `nonisolated`.
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTapped(let id, let title):
        state.items.append(Item.State(id: id, title: title))
        return .none
      case .editTapped(let id):
        guard let item = state.items[id: id] else { return .none }
        state.editor = Editor.State(itemID: id, title: item.title)
        return .none
      case .openTapped(let id):
        state.path.append(Detail.State(itemID: id))
        return .none
      case .removeTapped(let id):
        state.items.remove(id: id)
        return .none
      case .editor(.presented(.delegate(.saved(let id, let title)))):
        state.items[id: id]?.title = title
        return .none
      case .items, .editor, .path:
        return .none
      }
    }
    .forEach(\.items, action: .items) { Item(clock: clock) }
    .presents(\.editor, action: .editor) { Editor() }
    .navigationStack(\.path, action: .path) { Detail(clock: clock) }
  }
}

/// One item: a title saved a second after the last change.
nonisolated struct Item: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var title: String
    var saveCount = 0
  }

  enum Action: Sendable, Equatable {
    case titleChanged(String)
    case saved
  }

  // The same id in every item; `forEach` keeps each item's apart. Unless `Item` is
  // `nonisolated`, its `Hashable` conformance is isolated to the main actor, and
  // `debounce(id:)` refuses it: "main actor-isolated conformance of 'Item.CancelID' to
  // 'Hashable' cannot satisfy conformance requirement for a 'Sendable' type parameter".
  enum CancelID { case save }

  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .titleChanged(let title):
      state.title = title
      return .run { send in send(.saved) }
        .debounce(id: CancelID.save, for: .seconds(1), clock: clock)
    case .saved:
      state.saveCount += 1
      return .none
    }
  }
}

/// A sheet that edits an item's title and reports the result to its parent.
nonisolated struct Editor: Reducer {
  struct State: Equatable {
    let itemID: Int
    var title: String
  }

  enum Action: Sendable, Equatable {
    case titleChanged(String)
    case saveTapped
    case cancelTapped
    case delegate(Delegate)

    enum Delegate: Sendable, Equatable {
      case saved(id: Int, title: String)
    }
  }

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .titleChanged(let title):
      state.title = title
      return .none
    case .saveTapped:
      return .concatenate(.send(.delegate(.saved(id: state.itemID, title: state.title))), .dismiss)
    case .cancelTapped:
      return .dismiss
    case .delegate:
      return .none
    }
  }
}

/// A pushed screen that ticks once a second while it is shown.
nonisolated struct Detail: Reducer {
  struct State: Equatable {
    let itemID: Int
    var ticks = 0
  }

  enum Action: Sendable, Equatable {
    case startTapped
    case ticked
  }

  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .startTapped:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.ticked)
        }
      }
      .cancellable(id: CancelID.ticking, cancelInFlight: true)
    case .ticked:
      state.ticks = nextCount(after: state.ticks)
      return .none
    }
  }
}

// `nonisolated` on a type does not carry to its extensions: without it here, `CancelID`'s
// `Hashable` conformance and `nextCount(after:)` are isolated to the main actor, and the
// reducer above cannot use them.
nonisolated extension Detail {
  enum CancelID { case ticking }

  func nextCount(after ticks: Int) -> Int { ticks + 1 }
}

// Case keys. In a module isolated to the main actor by default, an extension's members are
// isolated to it too, and `forEach`, `presents` and `navigationStack` could not read them.
nonisolated extension CaseKey<Checklist.Action, IdentifiedActionOf<Item>> {
  static var items: Self {
    Self(Checklist.Action.items) { if case .items(let a) = $0 { a } else { nil } }
  }
}

nonisolated extension CaseKey<Checklist.Action, PresentationAction<Editor.Action>> {
  static var editor: Self {
    Self(Checklist.Action.editor) { if case .editor(let a) = $0 { a } else { nil } }
  }
}

nonisolated extension CaseKey<Checklist.Action, StackActionOf<Detail>> {
  static var path: Self {
    Self(Checklist.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

nonisolated extension CaseKey<Item.Action, Void> {
  static var saved: Self {
    Self({ .saved }) { if case .saved = $0 { () } else { nil } }
  }
}
