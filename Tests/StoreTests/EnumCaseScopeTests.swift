import Effects
import Testing

@testable import Store

/// Two cases of one enum state with the same state and action types (an add and an edit of
/// one form): each gets a store, and presence tracking, of its own.
@MainActor
@Suite struct EnumCaseScopeTests {
  let clock = TestClock()

  struct Destination: Reducer {
    enum State: Equatable {
      case add(Row.State)
      case edit(Row.State)
      case closed
    }
    enum Action: Sendable, Equatable {
      case add(Row.Action)
      case edit(Row.Action)
      case close
      case show(State)
    }
    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .close { state = .closed }
        if case .show(let shown) = action { state = shown }
        return .none
      }
      .ifCaseLet(.add, action: .add) { Row(clock: clock) }
      .ifCaseLet(.edit, action: .edit) { Row(clock: clock) }
    }
  }

  @Test func eachCaseKeepsItsOwnStore() {
    let harness = Harness(initialState: .edit(Row.State(id: 1)), reducer: Destination(clock: clock))
    #expect(harness.store.scope(state: .add, action: .add) == nil)
    let edit = harness.store.scope(state: .edit, action: .edit)
    #expect(edit?.id == 1)
    #expect(harness.store.scope(state: .add, action: .add) == nil)
    #expect(harness.store.scope(state: .edit, action: .edit) === edit)
  }

  @Test func eachCasesPresenceIsTrackedOnItsOwn() {
    let harness = Harness(initialState: .edit(Row.State(id: 1)), reducer: Destination(clock: clock))
    let add = Tracker { _ = harness.store.scope(state: .add, action: .add) }
    let edit = Tracker { _ = harness.store.scope(state: .edit, action: .edit) }
    harness.send(.close)
    #expect(edit.firings == 1)
    #expect(add.firings == 0)
  }

  /// The store of a case the state left, held while a later send puts the state in that case
  /// again (with the same id, then another), ignores its sends with warnings that name the
  /// case and its id, as `ifCaseLet`'s do. They spoke of a dismissed child and another
  /// presentation, and the first named no id.
  @Test func aLeftCasesStoreNamesTheCaseAndItsIdOnceTheCaseIsBack() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: .edit(Row.State(id: 1)), warnings: warnings.handler,
      reducer: Destination(clock: clock))
    let old = try #require(harness.store.scope(state: .edit, action: .edit))
    harness.send(.close)
    harness.send(.show(.edit(Row.State(id: 1, title: "back"))))
    old.send(.renamed("late"))
    harness.send(.show(.edit(Row.State(id: 2))))
    old.send(.renamed("later"))
    #expect(harness.state == .edit(Row.State(id: 2)))
    let name = "the case .edit of EnumCaseScopeTests.Destination.State holding Row.State with id 1"
    #expect(
      warnings.messages == Self.lateAndLaterWarnings(storeOf: name), "\(warnings.messages)")
  }

  /// The store of one of two cases that hold the same type (`add`, `edit`), kept while the
  /// state leaves it and comes back, then replaced with another id: its warnings name the
  /// case it was made for. They named the payload type alone ("the case of … holding
  /// Row.State"), which fits both cases, so the message could not say which store was stale.
  @Test func aKeptCaseStoreNamesItsCaseAmongCasesOfTheSameType() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: .add(Row.State(id: 1)), warnings: warnings.handler,
      reducer: Destination(clock: clock))
    let add = try #require(harness.store.scope(state: .add, action: .add))
    harness.send(.show(.edit(Row.State(id: 1))))
    harness.send(.show(.add(Row.State(id: 1))))
    add.send(.renamed("late"))
    harness.send(.show(.add(Row.State(id: 2))))
    add.send(.renamed("later"))
    #expect(harness.state == .add(Row.State(id: 2)))
    let name = "the case .add of EnumCaseScopeTests.Destination.State holding Row.State with id 1"
    #expect(
      warnings.messages == Self.lateAndLaterWarnings(storeOf: name), "\(warnings.messages)")
  }

  /// An enum state holding `Destination`'s in a case of its own, for keys made with
  /// `appending(_:)`.
  struct Route: Reducer {
    enum State: Equatable {
      case destination(Destination.State)
      case home
    }
    enum Action: Sendable, Equatable {
      case destination(Destination.Action)
      case go(State)
    }
    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if case .go(let next) = action { state = next }
        return .none
      }
      .ifCaseLet(.destination, action: .destination) { Destination(clock: clock) }
    }
  }

  /// The same through a nested key, `.destination.appending(.add)`: the warnings name the
  /// cases down to the payload. They named the outer case (".destination"), which the
  /// `.edit` key's store reads as too.
  @Test func aKeptStoreOfANestedCaseNamesTheCasesDownToItsPayload() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: .destination(.add(Row.State(id: 1))), warnings: warnings.handler,
      reducer: Route(clock: clock))
    let add = try #require(
      harness.store.scope(
        state: CaseKey<Route.State, Destination.State>.destination.appending(.add),
        action: CaseKey<Route.Action, Destination.Action>.destination.appending(.add)))
    harness.send(.go(.destination(.edit(Row.State(id: 1)))))
    harness.send(.go(.destination(.add(Row.State(id: 1)))))
    add.send(.renamed("late"))
    harness.send(.go(.destination(.add(Row.State(id: 2)))))
    add.send(.renamed("later"))
    #expect(harness.state == .destination(.add(Row.State(id: 2))))
    let name = """
      the case .destination(.add) of EnumCaseScopeTests.Route.State holding Row.State with id 1
      """
    #expect(
      warnings.messages == Self.lateAndLaterWarnings(storeOf: name), "\(warnings.messages)")
  }

  /// `ifCaseLet` through a nested key, for a child action while the state is another case
  /// in the same outer case: the warning names the cases down to the payload. It said
  /// "another case: .destination", the case the key is in too.
  @Test func ifCaseLetThroughANestedKeyNamesTheOtherCaseDownToItsPayload() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Route.State.destination(.edit(Row.State(id: 1))), warnings: warnings.handler,
      reducer: EmptyReducer<Route.State, Route.Action>().ifCaseLet(
        CaseKey<Route.State, Destination.State>.destination.appending(.add),
        action: CaseKey<Route.Action, Destination.Action>.destination.appending(.add)
      ) { Row(clock: clock) })
    harness.send(.destination(.add(.renamed("lost"))))
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(
      warnings.messages.first?.contains("but the state is another case: .destination(.edit).")
        == true, "\(warnings.messages)")
  }

  /// The warnings of a kept case store's two late sends, `renamed("late")` once the state
  /// is back in its case and `renamed("later")` once the case has another id.
  static func lateAndLaterWarnings(storeOf name: String) -> [String] {
    [
      """
      Row.Action.renamed("late") was sent to the store of \(name), which the state has since \
      left; the state is in that case again, with a store of its own: scope again for it. The \
      action was ignored.
      """,
      """
      Row.Action.renamed("later") was sent to the store of \(name), but the case there now has \
      another id: it was replaced, or changed its id. The action was ignored.
      """,
    ]
  }
}

extension CaseKey<EnumCaseScopeTests.Destination.State, Row.State> {
  static var add: Self {
    Self(EnumCaseScopeTests.Destination.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
  static var edit: Self {
    Self(EnumCaseScopeTests.Destination.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<EnumCaseScopeTests.Destination.Action, Row.Action> {
  static var add: Self {
    Self(EnumCaseScopeTests.Destination.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
  static var edit: Self {
    Self(EnumCaseScopeTests.Destination.Action.edit) {
      if case .edit(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<EnumCaseScopeTests.Route.State, EnumCaseScopeTests.Destination.State> {
  static var destination: Self {
    Self(EnumCaseScopeTests.Route.State.destination) {
      if case .destination(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<EnumCaseScopeTests.Route.Action, EnumCaseScopeTests.Destination.Action> {
  static var destination: Self {
    Self(EnumCaseScopeTests.Route.Action.destination) {
      if case .destination(let a) = $0 { a } else { nil }
    }
  }
}
