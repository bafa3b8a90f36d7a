import Effects
import Testing

@testable import Store

// The runtime warning for a child's `.send` dropped because another occupant has taken the
// child's place (see TakenOverSendHuntTests) is attributed to the reducer that runs the place:
// the `ifLet`, `presents` or `navigationStack` call, as it is for an `ifCaseLet`'s case. With
// the module's name and no line, every such warning of an app fell into one group, and the
// default printer showed eight of them in all, then one at each doubling, whatever their
// place. It also names the id the child had when its reducer returned the action, beside the
// id of the child there now.

/// A child that feeds an action back at once (`ping`).
private struct Echo: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    var id: Int
    var hits = 0
  }
  enum Action: Sendable, Equatable { case ping, hit }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping: return .send(.hit)
    case .hit:
      state.hits += 1
      return .none
    }
  }
}

/// A parent that answers each ping of its child, sheet or screen by putting another in its
/// place, with the next id (the screen: the stack set back to an empty copy and pushed onto).
/// Its reducers name their sites.
private struct Swapper: Reducer {
  struct State: Equatable {
    var child: Echo.State? = Echo.State(id: 1)
    var sheet: Echo.State? = Echo.State(id: 1)
    var path = StackState<Echo.State>([Echo.State(id: 1)])
  }
  enum Action: Sendable, Equatable {
    case child(Echo.Action)
    case sheet(PresentationAction<Echo.Action>)
    case path(StackAction<Echo.State, Echo.Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child(.ping):
        state.child = Echo.State(id: (state.child?.id ?? 0) + 1)
      case .sheet(.presented(.ping)):
        state.sheet = Echo.State(id: (state.sheet?.id ?? 0) + 1)
      case .path(.element(_, .ping)):
        state.path = StackState()
        state.path.append(Echo.State(id: 1))
      default: break
      }
      return .none
    }
    .ifLet(\.child, action: .swapperChild, fileID: "Hunt/Swapper.swift", line: 11) { Echo() }
    .presents(\.sheet, action: .swapperSheet, fileID: "Hunt/Swapper.swift", line: 12) {
      Echo()
    }
    .navigationStack(\.path, action: .swapperPath, fileID: "Hunt/Swapper.swift", line: 13) {
      Echo()
    }
  }
}

extension CaseKey<Swapper.Action, Echo.Action> {
  fileprivate static var swapperChild: Self {
    Self(Swapper.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Swapper.Action, PresentationAction<Echo.Action>> {
  fileprivate static var swapperSheet: Self {
    Self(Swapper.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Swapper.Action, StackAction<Echo.State, Echo.Action>> {
  fileprivate static var swapperPath: Self {
    Self(Swapper.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

/// An enum whose case is replaced by the same case with the next id at each ping.
private struct Slot: Reducer {
  enum State: Equatable {
    case echo(Echo.State)
  }
  enum Action: Sendable, Equatable { case echo(Echo.Action) }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .echo(let echo) = state, action == .echo(.ping) {
        state = .echo(Echo.State(id: echo.id + 1))
      }
      return .none
    }
    .ifCaseLet(.slotEcho, action: .slotEcho, fileID: "Hunt/Slot.swift", line: 21) { Echo() }
  }
}

extension CaseKey<Slot.State, Echo.State> {
  fileprivate static var slotEcho: Self {
    Self(Slot.State.echo) { if case .echo(let s) = $0 { s } else { nil } }
  }
}
extension CaseKey<Slot.Action, Echo.Action> {
  fileprivate static var slotEcho: Self {
    Self(Slot.Action.echo) { if case .echo(let a) = $0 { a } else { nil } }
  }
}

/// A child whose id is too large to be kept beside its effects for free (four words).
private struct Wide: Reducer {
  struct ID: Hashable, Sendable {
    var a = 0
    var b = 0
    var c = 0
    var d = 0
  }
  struct State: Equatable, Identifiable, Sendable {
    var id: ID
  }
  enum Action: Sendable, Equatable { case ping, hit }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action == .ping ? .send(.hit) : .none
  }
}

/// A parent that replaces its wide child with another at each ping.
private struct WideHolder: Reducer {
  struct State: Equatable {
    var child: Wide.State? = Wide.State(id: Wide.ID(a: 1))
  }
  enum Action: Sendable, Equatable { case child(Wide.Action) }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if action == .child(.ping) { state.child = Wide.State(id: Wide.ID(a: 2)) }
      return .none
    }
    .ifLet(\.child, action: .wideChild) { Wide() }
  }
}

extension CaseKey<WideHolder.Action, Wide.Action> {
  fileprivate static var wideChild: Self {
    Self(WideHolder.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// A child whose id fits in two words but holds a weak reference, which makes it not
/// bitwise-takable: an existential keeps such a value on the heap, however small.
private struct Pinned: Reducer {
  final class Owner: Sendable {}
  struct ID: Hashable, Sendable {
    var number: Int
    weak var owner: Owner?
    static func == (lhs: ID, rhs: ID) -> Bool { lhs.number == rhs.number }
    func hash(into hasher: inout Hasher) { hasher.combine(number) }
  }
  struct State: Equatable, Identifiable, Sendable {
    var id: ID
  }
  enum Action: Sendable, Equatable { case ping, hit }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action == .ping ? .send(.hit) : .none
  }
}

/// A parent that replaces its pinned child with another at each ping.
private struct PinnedHolder: Reducer {
  struct State: Equatable {
    var child: Pinned.State? = Pinned.State(id: Pinned.ID(number: 1))
  }
  enum Action: Sendable, Equatable { case child(Pinned.Action) }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if action == .child(.ping) { state.child = Pinned.State(id: Pinned.ID(number: 2)) }
      return .none
    }
    .ifLet(\.child, action: .pinnedChild) { Pinned() }
  }
}

extension CaseKey<PinnedHolder.Action, Pinned.Action> {
  fileprivate static var pinnedChild: Self {
    Self(PinnedHolder.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct TakenOverSendSiteHuntTests {
  @Test func anIfLetChildsDroppedSendIsAttributedToTheIfLet() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Swapper.State(), warnings: warnings.handler, reducer: Swapper())
    harness.send(.child(.ping))
    #expect(harness.state.child == Echo.State(id: 2))
    #expect(warnings.all.count == 1, "\(warnings.messages)")
    #expect(warnings.all.first?.fileID == "Hunt/Swapper.swift")
    #expect(warnings.all.first?.line == 11)
  }

  @Test func aSheetsDroppedSendIsAttributedToThePresents() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Swapper.State(), warnings: warnings.handler, reducer: Swapper())
    harness.send(.sheet(.presented(.ping)))
    #expect(harness.state.sheet == Echo.State(id: 2))
    #expect(warnings.all.count == 1, "\(warnings.messages)")
    #expect(warnings.all.first?.fileID == "Hunt/Swapper.swift")
    #expect(warnings.all.first?.line == 12)
  }

  @Test func aScreensDroppedSendIsAttributedToTheNavigationStack() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Swapper.State(), warnings: warnings.handler, reducer: Swapper())
    let id = harness.state.path.ids[0]
    harness.send(.path(.element(id: id, action: .ping)))
    #expect(harness.state.path.ids == [id])
    #expect(warnings.all.count == 1, "\(warnings.messages)")
    #expect(warnings.all.first?.fileID == "Hunt/Swapper.swift")
    #expect(warnings.all.first?.line == 13)
  }

  /// The default printer counts warnings per site: past its limit, a flood of dropped sends
  /// of one place no longer hides those of another.
  @Test func theDefaultPrinterCountsEachPlacesDroppedSendsApart() {
    let printed = Collected<String>()
    let handler = RuntimeWarningHandler.printingPerSite(limit: 1) { printed.append($0) }
    let harness = Harness(initialState: Swapper.State(), warnings: handler, reducer: Swapper())
    harness.send(.child(.ping))
    harness.send(.sheet(.presented(.ping)))
    harness.send(.path(.element(id: harness.state.path.ids[0], action: .ping)))
    harness.send(.child(.ping))
    let lines = printed.values
    #expect(lines.count == 4, "\(lines)")
    #expect(lines.filter { $0.hasPrefix("Hunt/Swapper.swift:11: runtime warning:") }.count == 2)
    #expect(lines.filter { $0.hasPrefix("Hunt/Swapper.swift:12: runtime warning:") }.count == 1)
    #expect(lines.filter { $0.hasPrefix("Hunt/Swapper.swift:13: runtime warning:") }.count == 1)
    // The ifLet's second is past the limit of its own site, and says how many there were.
    #expect(lines.last?.contains("(2 warnings from here so far") == true, "\(lines)")
  }

  @Test func theWarningNamesTheIDTheChildHadWhenItSentTheAction() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Swapper.State(), warnings: warnings.handler, reducer: Swapper())
    harness.send(.child(.ping))
    harness.send(.sheet(.presented(.ping)))
    let messages = warnings.messages
    #expect(messages.count == 2, "\(messages)")
    #expect(messages.first?.contains("the child with id 1 at \\State.child") == true, "\(messages)")
    #expect(messages.first?.contains("a child with another id (2)") == true, "\(messages)")
    #expect(messages.last?.contains("the child with id 1 at \\State.sheet") == true, "\(messages)")
    // Once more: the child that sends now has id 2, and the newcomer 3.
    harness.send(.child(.ping))
    let last = warnings.messages.last ?? ""
    #expect(last.contains("the child with id 2 at \\State.child"), "\(last)")
    #expect(last.contains("a child with another id (3)"), "\(last)")
  }

  @Test func theWarningNamesTheIDTheCaseHadWhenItSentTheAction() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Slot.State.echo(Echo.State(id: 1)), warnings: warnings.handler,
      reducer: Slot())
    harness.send(.echo(.ping))
    #expect(harness.state == .echo(Echo.State(id: 2)))
    let message = warnings.messages.first ?? ""
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(
      message.contains("the case .echo of Slot.State holding Echo.State with id 1,"),
      "\(message)")
    #expect(message.contains("a child with another id (2)"), "\(message)")
    #expect(warnings.all.first?.fileID == "Hunt/Slot.swift")
    #expect(warnings.all.first?.line == 21)
  }

  /// An id larger than an existential's inline room (three words) is not kept beside the
  /// child's effects (it would cost an allocation at each of its actions that returns work):
  /// the warning names the place and the newcomer's id alone.
  @Test func aChildWithAWideIDIsNamedByItsPlace() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: WideHolder.State(), warnings: warnings.handler, reducer: WideHolder())
    harness.send(.child(.ping))
    let message = warnings.messages.first ?? ""
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(message.contains("in the child at \\State.child,"), "\(message)")
    #expect(message.contains("a child with another id (ID(a: 2"), "\(message)")
    #expect(warnings.all.first?.fileID.hasSuffix("TakenOverSendSiteHuntTests.swift") == true)
  }

  /// An id that fits in three words but is not bitwise-takable (it holds a weak reference)
  /// is not kept either: an existential would box it on the heap as it boxes a wide one.
  @Test func aChildWithAnIDThatIsNotBitwiseTakableIsNamedByItsPlace() throws {
    try #require(MemoryLayout<Pinned.ID>.size <= 3 * MemoryLayout<Int>.size)
    try #require(!_isBitwiseTakable(Pinned.ID.self))
    let warnings = WarningLog()
    let harness = Harness(
      initialState: PinnedHolder.State(), warnings: warnings.handler, reducer: PinnedHolder())
    harness.send(.child(.ping))
    let message = warnings.messages.first ?? ""
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(message.contains("in the child at \\State.child,"), "\(message)")
    #expect(!message.contains("with id"), "\(message)")
    #expect(message.contains("a child with another id (ID(number: 2"), "\(message)")
  }
}
