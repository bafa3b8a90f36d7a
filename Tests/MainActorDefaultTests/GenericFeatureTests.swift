import Effects
import Foundation
import Store
import StoreTesting
import Testing

// A generic feature, a generic parent that declares its key on its action type (as CaseKey's
// documentation asks of a generic feature), a method passed to `Reduce`, and a recording and
// its replay, written in this module isolated to the main actor by default.

/// Picks one of its options.
nonisolated struct Picker<Option: Hashable & Sendable & Codable>: Reducer {
  struct State: Equatable, Codable {
    var options: [Option]
    var selected: Option?
  }

  enum Action: Sendable, Equatable, Codable {
    case picked(Option)
    case cleared
  }

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .picked(let option):
      guard state.options.contains(option) else { return .none }
      state.selected = option
    case .cleared:
      state.selected = nil
    }
    return .none
  }
}

/// Counts the actions its child handles.
nonisolated struct Counted<Child: Reducer & Sendable>: Reducer
where Child.State: Equatable, Child.Action: Equatable {
  struct State {
    var child: Child.State
    var count = 0
  }

  enum Action: Sendable {
    case child(Child.Action)

    static var childKey: CaseKey<Self, Child.Action> {
      CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
    }
  }

  let child: Child

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Action.childKey) { child }
    Reduce(count)
  }

  func count(_ state: inout State, _ action: Action) -> EffectOf<Self> {
    state.count += 1
    return .none
  }
}

nonisolated extension Counted.State: Equatable {}

/// Settings with a theme picker.
nonisolated struct Settings: Reducer {
  struct State: Equatable, Codable {
    var theme = Picker<String>.State(options: ["light", "dark"])
  }

  enum Action: Sendable, Equatable, Codable {
    case theme(Picker<String>.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.theme, action: ActionKey.theme) { Picker<String>() }
  }
}

nonisolated extension CaseKey<Settings.Action, Picker<String>.Action> {
  static var theme: Self {
    Self(Settings.Action.theme) { if case .theme(let a) = $0 { a } else { nil } }
  }
}

@Suite struct GenericFeatureTests {
  @Test func aGenericFeatureUnderAGenericParentIsTested() async {
    let store = TestStore(
      initialState: Counted<Picker<Int>>.State(child: Picker<Int>.State(options: [1, 2]))
    ) {
      Counted(child: Picker<Int>())
    }
    await store.send(.child(.picked(2))) {
      $0.child.selected = 2
      $0.count = 1
    }
    await store.send(.child(.picked(3))) { $0.count = 2 }
    await store.finish()
  }

  @Test func aRecordingReplaysToTheSameState() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("main-actor-default-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = Store(initialState: Settings.State()) { Settings() }
    let recorder = try store.recordActions(to: path, feature: "Settings")
    store.send(.theme(.picked("dark")))
    store.send(.theme(.cleared))
    store.send(.theme(.picked("light")))
    try recorder.finish()
    let report = try ActionLogReplayer(feature: "Settings") { Settings() }.replay(path: path)
    #expect(report.finalState == store.state)
    #expect(report.finalState.theme.selected == "light")
  }
}
