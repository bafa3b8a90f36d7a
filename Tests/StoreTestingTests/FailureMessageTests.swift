import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// A feature whose state and actions make the failure messages worth reading: a large
/// collection, a number that can be NaN, optional and nested payloads.
private struct Ledger: Reducer {
  struct State: Equatable {
    var values = Array(0..<20_000)
    var rate = 0.0
    var selected: Int?
    var log: [String] = []
  }

  enum Action: Sendable, Equatable {
    case bumpAll
    case rateChanged(Double)
    case select(Int?)
    case noop
    case logTapped
    case logged(String)
    case filter(Filter.Action)
    case moved(from: Int, to: Int)
    case rows(IdentifiedAction<Int, Row.Action>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .bumpAll:
      state.values = state.values.map { $0 + 1 }
    case .rateChanged(let rate):
      state.rate = rate
    case .select(let id):
      state.selected = id
    case .noop, .filter, .moved, .rows:
      break
    case .logTapped:
      return .run { send in send(.logged("opened")) }
    case .logged(let line):
      state.log.append(line)
    }
    return .none
  }
}

private enum Row {
  enum Action: Sendable, Equatable {
    case ticked
    case renamed(String)
  }
}

extension CaseKey<Ledger.Action, IdentifiedAction<Int, Row.Action>> {
  fileprivate static var rows: Self {
    Self(Ledger.Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}

extension CaseKey<Row.Action, Void> {
  fileprivate static var ticked: Self {
    Self({ .ticked }) { if case .ticked = $0 { () } else { nil } }
  }
}

extension CaseKey<Row.Action, String> {
  fileprivate static var renamed: Self {
    Self(Row.Action.renamed) { if case .renamed(let title) = $0 { title } else { nil } }
  }
}

/// Rows keyed by a UUID and by a string, whose ids a `CaseKey` names in a failure message.
private struct Roster: Reducer {
  struct State: Equatable {}

  enum Action: Sendable, Equatable {
    case tickTapped(UUID)
    case labelTapped(String)
    case rows(IdentifiedAction<UUID, Row.Action>)
    case labels(IdentifiedAction<String, Row.Action>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tickTapped(let id): .send(.rows(.element(id: id, action: .ticked)))
    case .labelTapped(let id): .send(.labels(.element(id: id, action: .ticked)))
    case .rows, .labels: .none
    }
  }
}

extension CaseKey<Roster.Action, IdentifiedAction<UUID, Row.Action>> {
  fileprivate static var rows: Self {
    Self(Roster.Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}

extension CaseKey<Roster.Action, IdentifiedAction<String, Row.Action>> {
  fileprivate static var labels: Self {
    Self(Roster.Action.labels) { if case .labels(let action) = $0 { action } else { nil } }
  }
}

private enum Filter {
  enum Action: Sendable, Equatable {
    case query(String)
  }
}

extension CaseKey<Ledger.Action, Int?> {
  fileprivate static var select: Self {
    Self(Ledger.Action.select) { if case .select(let id) = $0 { id } else { nil } }
  }
}

extension CaseKey<Ledger.Action, String> {
  fileprivate static var query: Self {
    Self({ .filter(.query($0)) }) {
      if case .filter(.query(let text)) = $0 { text } else { nil }
    }
  }
}

extension CaseKey<Ledger.Action, (from: Int, to: Int)> {
  fileprivate static var moved: Self {
    Self(Ledger.Action.moved) { if case .moved(let from, let to) = $0 { (from, to) } else { nil } }
  }
}

@MainActor
@Suite struct FailureMessageTests {
  let messages = Messages()

  private func makeStore() -> TestStore<Ledger.State, Ledger.Action> {
    let store = TestStore(initialState: Ledger.State()) { Ledger() }
    store.timeout = .milliseconds(50)
    return store
  }

  @Test func aCollectionThatChangedThroughoutGivesAShortDiff() async throws {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.bumpAll)
    } matching: {
      messages.capture($0)
    }
    // Checked first: a failure would print the whole message otherwise.
    try #require(messages.last.count < 2_500)
    let lines = messages.last.split(separator: "\n")
    // The headline, two opening lines, 50 changes of two lines, the count of the rest, two
    // closing lines and the last line: nothing after the cut but closing lines.
    #expect(lines.count == 107)
    #expect(lines.contains("      … (19950 more changes left out)"))
    #expect(
      lines.last
        == """
        The diff shows the first 50 of 20000 changes (the limit is 50); set the test store's \
        `diffChangeLimit` to `nil` to see them all.
        """)
  }

  @Test func aDiffChangeLimitOfNilShowsTheWholeDiff() async {
    let store = TestStore(initialState: Ledger.State(values: Array(0..<200))) { Ledger() }
    store.diffChangeLimit = 10
    await withKnownIssue {
      await store.send(.bumpAll)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("… (190 more changes left out)"))
    store.diffChangeLimit = nil
    await withKnownIssue {
      await store.send(.bumpAll)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("+     [199]: 201"))
    #expect(!messages.last.contains("left out"))
  }

  @Test func anOptionalPayloadPrintsAsATestWritesIt() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.select(1)) { $0.selected = 2 }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        "The state after send(Ledger.Action.select(1)) differs from the expected"))
    await withKnownIssue {
      await store.send(.select(nil)) { $0.selected = 2 }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        "The state after send(Ledger.Action.select(nil)) differs from the expected"))
  }

  @Test func aStateHoldingNaNSaysItIsNotEqualToItself() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.rateChanged(.nan)) { $0.rate = .nan }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        """
        The state after send(Ledger.Action.rateChanged(nan)) is not equal to itself (a NaN?), so no \
        expected state can match it, although it prints the same as the expected state.
        """))
    // An action that changes nothing does not claim that the state changed.
    await withKnownIssue {
      await store.send(.noop)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix("The state after send(Ledger.Action.noop) is not equal to itself"))
    #expect(!messages.last.contains("state changed"))
  }

  @Test func receivingTheWrongCaseNamesTheExpectedCase() async {
    let store = makeStore()
    await store.send(.logTapped)
    await withKnownIssue {
      await store.receive(.select)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last
        == """
        Received an action that does not match the key passed to `receive`.
          Expected: an action of the case Ledger.Action.select (carrying Optional<Int>)
          Received: Ledger.Action.logged("opened")
        """)
  }

  @Test func aKeyThroughANestedCaseNamesEachLevel() async {
    let store = makeStore()
    await withKnownIssue {
      await store.receive(.query)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        """
        Expected to receive an action of the case Ledger.Action.filter(.query) (carrying \
        String), but nothing arrived
        """))
  }

  /// A key through a row's `.element(id:action:)` (made with `[id:]` and `appending(_:)`)
  /// names the row's case, with the id, whether the row's case carries something or not.
  @Test func aKeyThroughARowNamesTheRowsCaseAndItsID() async {
    let store = makeStore()
    await store.send(.logTapped)
    await withKnownIssue {
      await store.receive(CaseKey.rows[id: 3].appending(.ticked))
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last
        == """
        Received an action that does not match the key passed to `receive`.
          Expected: an action of the case Ledger.Action.rows(.element(id: 3, action: .ticked))
          Received: Ledger.Action.logged("opened")
        """)
    await withKnownIssue {
      await store.receive(CaseKey.rows[id: 4].appending(.renamed))
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        """
        Expected to receive an action of the case Ledger.Action.rows(.element(id: 4, action: \
        .renamed)) (carrying String), but nothing arrived
        """))
  }

  /// The expected line writes the row's id as the received line does: a counted UUID as
  /// `UUID(counting: 1)` (it read `00000000-0000-0000-0000-000000000001` beside the received
  /// `UUID(counting: 2)`), a string id escaped.
  @Test func aKeyThroughARowWritesItsIDAsTheReceivedActionDoes() async {
    let store = TestStore(initialState: Roster.State()) { Roster() }
    await store.send(.tickTapped(UUID(counting: 2)))
    await withKnownIssue {
      await store.receive(CaseKey.rows[id: UUID(counting: 1)].appending(.ticked))
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last
        == """
        Received an action that does not match the key passed to `receive`.
          Expected: an action of the case Roster.Action.rows(.element(id: UUID(counting: 1), \
        action: .ticked))
          Received: Roster.Action.rows(.element(id: UUID(counting: 2), action: .ticked))
        """)
    await store.send(.labelTapped("b"))
    await withKnownIssue {
      await store.receive(CaseKey.labels[id: "a\u{200B}"].appending(.ticked))
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains(
        #"Expected: an action of the case Roster.Action.labels(.element(id: "a\u{200B}", "#))
    await store.finish()
  }

  @Test func receivingTheWrongCaseOfAKeyThatCannotBeNamedSaysWhy() async {
    let store = makeStore()
    await store.send(.logTapped)
    await withKnownIssue {
      await store.receive(.moved)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last
        == """
        Received an action that does not match the key passed to `receive`.
          Expected: an action of Ledger.Action whose case carries (from: Int, to: Int)
          Received: Ledger.Action.logged("opened")
        The expected case cannot be named: a CaseKey holds no name, and the store reads one \
        only from an action the key makes, which takes a payload the store can create (none, \
        an optional's `nil`, a string, a number, a Boolean, a collection or a SIMD vector).
        """)
  }

  @Test func aCaseThatCannotBeNamedNamesWhatItCarries() async {
    let store = makeStore()
    await withKnownIssue {
      await store.receive(.moved)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        """
        Expected to receive an action of Ledger.Action whose case carries \
        (from: Int, to: Int), but nothing arrived
        """))
  }
}
