import Effects
import Observation
import Testing

@testable import Store

/// A feature with every kind of child a store scopes to: rows (each with an optional
/// detail), an optional child, one with an id, an enum, a stack and a plain child; and a
/// simulated view. For the observation trial's tests of scoped stores.

struct ProbeRow: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var title = ""
    var count = 0
    var detail: ProbeDetail.State?
    /// Not `Equatable`, built anew at each read.
    struct Tags { var list: [String] }
    var tags: Tags { Tags(list: [title]) }
  }
  enum Action: Sendable {
    case rename(String)
    case bump
    case bumpLater
    case removeMe
    case detail(ProbeDetail.Action)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rename(let t): state.title = t
      case .bump: state.count += 1
      case .bumpLater:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.bump)
        }
      case .removeMe, .detail: break
      }
      return .none
    }
    .ifLet(\.detail, action: .probeDetail) { ProbeDetail() }
  }
}

struct ProbeDetail: Reducer {
  struct State: Equatable, Sendable {
    var note = ""
  }
  enum Action: Sendable { case note(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .note(let n): state.note = n
    }
    return .none
  }
}

struct ProbeChild: Reducer {
  struct State: Equatable, Sendable {
    var value = 0
    var other = 0
  }
  enum Action: Sendable {
    case inc
    case incLater
    case delegateUp
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .inc: state.value += 1
    case .incLater:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.inc)
      }
    case .delegateUp: break
    }
    return .none
  }
}

struct ProbeIDChild: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var value = 0
  }
  enum Action: Sendable { case inc }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.value += 1
    return .none
  }
}

struct ProbeMode: Reducer {
  enum State: Equatable, Sendable {
    case a(ProbeChild.State)
    case b(ProbeChild.State)
  }
  enum Action: Sendable {
    case a(ProbeChild.Action)
    case b(ProbeChild.Action)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(.probeA, action: .probeA) { ProbeChild(clock: clock) }
      .ifCaseLet(.probeB, action: .probeB) { ProbeChild(clock: clock) }
  }
}

struct ProbeFeature: Reducer {
  struct State: Equatable {
    var title = ""
    var rows: IdentifiedArrayOf<ProbeRow.State> = []
    var child: ProbeChild.State?
    var idChild: ProbeIDChild.State?
    var mode: ProbeMode.State = .a(ProbeChild.State())
    var path = StackState<ProbeRow.State>()
    var plain = ProbeChild.State()
    var showEvenOnly = false
    var visible: IdentifiedArrayOf<ProbeRow.State> {
      showEvenOnly ? try! IdentifiedArrayOf(uniqueElements: rows.filter { $0.id % 2 == 0 }) : rows
    }
    var rowCount: Int { rows.count }
  }
  enum Action: Sendable {
    case mutate(@Sendable (inout State) -> Void)
    case rows(IdentifiedAction<Int, ProbeRow.Action>)
    case child(ProbeChild.Action)
    case idChild(ProbeIDChild.Action)
    case mode(ProbeMode.Action)
    case path(StackAction<ProbeRow.State, ProbeRow.Action>)
    case plain(ProbeChild.Action)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Scope(state: \.mode, action: .probeMode) { ProbeMode(clock: clock) }
    Scope(state: \.plain, action: .probePlain) { ProbeChild(clock: clock) }
    Reduce { state, action in
      switch action {
      case .mutate(let f): f(&state)
      case .rows(.element(let id, .removeMe)): state.rows.remove(id: id)
      case .child(.delegateUp):
        state.title = "delegated"
        state.child?.other += 1
      default: break
      }
      return .none
    }
    .forEach(\.rows, action: .probeRows) { ProbeRow(clock: clock) }
    .ifLet(\.child, action: .probeChild) { ProbeChild(clock: clock) }
    .ifLet(\.idChild, action: .probeIDChild) { ProbeIDChild() }
    .navigationStack(\.path, action: .probePath) { ProbeRow(clock: clock) }
  }
}

extension CaseKey<ProbeRow.Action, ProbeDetail.Action> {
  static var probeDetail: Self {
    Self(ProbeRow.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<ProbeMode.State, ProbeChild.State> {
  static var probeA: Self { Self(ProbeMode.State.a) { if case .a(let a) = $0 { a } else { nil } } }
  static var probeB: Self { Self(ProbeMode.State.b) { if case .b(let a) = $0 { a } else { nil } } }
}
extension CaseKey<ProbeMode.Action, ProbeChild.Action> {
  static var probeA: Self { Self(ProbeMode.Action.a) { if case .a(let a) = $0 { a } else { nil } } }
  static var probeB: Self { Self(ProbeMode.Action.b) { if case .b(let a) = $0 { a } else { nil } } }
}
extension CaseKey<ProbeFeature.Action, IdentifiedAction<Int, ProbeRow.Action>> {
  static var probeRows: Self {
    Self(ProbeFeature.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<ProbeFeature.Action, ProbeChild.Action> {
  static var probeChild: Self {
    Self(ProbeFeature.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
  static var probePlain: Self {
    Self(ProbeFeature.Action.plain) { if case .plain(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<ProbeFeature.Action, ProbeIDChild.Action> {
  static var probeIDChild: Self {
    Self(ProbeFeature.Action.idChild) { if case .idChild(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<ProbeFeature.Action, ProbeMode.Action> {
  static var probeMode: Self {
    Self(ProbeFeature.Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<ProbeFeature.Action, StackAction<ProbeRow.State, ProbeRow.Action>> {
  static var probePath: Self {
    Self(ProbeFeature.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ProbeFeature.Action, ProbeFeature.Action> {
  static var probeSelf: Self { Self({ $0 }) { $0 } }
}

// MARK: - Helpers

@Observable @MainActor final class ProbeModel {
  var title = ""
}

final class ProbeCount: Sendable {
  private let storage = Locked(0)
  var value: Int { storage.withLock { $0 } }
  func increment() { storage.withLock { $0 += 1 } }
}

/// A simulated view: reads in `withObservationTracking`, counts firings; re-renders on demand.
@MainActor
final class ProbeView {
  let count = ProbeCount()
  let read: @MainActor () -> Void
  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    render()
  }
  var firings: Int { count.value }
  func render() {
    withObservationTracking {
      read()
    } onChange: { [count] in
      count.increment()
    }
  }
}

@MainActor
func probeHarness(
  rows: [Int] = [1, 2, 3], clock: TestClock = TestClock(), warnings: WarningLog = WarningLog()
)
  -> Harness<ProbeFeature>
{
  var state = ProbeFeature.State()
  for id in rows { state.rows.append(ProbeRow.State(id: id, title: "r\(id)")) }
  return Harness(
    initialState: state, warnings: warnings.handler, reducer: ProbeFeature(clock: clock))
}
