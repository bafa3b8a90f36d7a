import Effects
import Testing

@testable import Store

/// Claims of ComingFromTheComposableArchitecture that had no test of their own: the spellings
/// it maps TCA's onto compile as written, and the behaviour it says differs or agrees holds.
@MainActor
@Suite struct ComingFromTCAHuntTests {
  /// A screen of a stack, and the sheet's child: a name, and a close button.
  struct Page: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      var id: Int
      var name = ""
    }
    enum Action: Sendable, Equatable {
      case closeTapped
      case saveTapped
      case saveThenCloseTapped
      case saved
    }
    struct SaveFailed: Error {}

    /// A save that fails.
    static func save() async throws { throw SaveFailed() }

    // TCA's spelling of a body's type, kept: `some ReducerOf<Self>`.
    var body: some ReducerOf<Self> {
      Reduce { _, action in
        switch action {
        case .closeTapped:
          return .dismiss
        case .saveTapped:
          // The article's recipe: send `.saved` at the end of the `.run`, dismiss from it.
          return .run { send in
            try await Self.save()
            send(.saved)
          }
        case .saveThenCloseTapped:
          // What the article warns of: this dismisses even when the save fails.
          return .concatenate(.run { _ in try await Self.save() }, .dismiss)
        case .saved:
          return .dismiss
        }
      }
    }
  }

  /// A parent with a stack and a sheet of `Page`s, which answers a pop or a dismissal as a
  /// test tells it to, and notes what it saw then.
  struct Flow: Reducer {
    struct State: Equatable {
      var path = StackState<Page.State>()
      var sheet: Page.State?
      /// Push a screen with this name when a `.popFrom` comes.
      var pushOnPop: String?
      /// Present a sheet with this id when the sheet's `.dismiss` comes.
      var replaceOnDismiss: Int?
      /// The screens' names the parent saw at the `.popFrom`.
      var seenAtPop: [String]?
      /// The sheet's id the parent saw at the `.dismiss`.
      var seenAtDismiss: Int??
    }
    enum Action: Sendable {
      case path(StackActionOf<Page>)
      case sheet(PresentationAction<Page.Action>)
      case push(String)
      case present(Int)
      case answerPops(String)
      case answerDismissals(Int)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .push(let name):
          state.path.append(Page.State(id: state.path.count, name: name))
        case .present(let id):
          state.sheet = Page.State(id: id)
        case .answerPops(let name):
          state.pushOnPop = name
        case .answerDismissals(let id):
          state.replaceOnDismiss = id
        case .path(.popFrom):
          state.seenAtPop = state.path.map(\.name)
          if let name = state.pushOnPop {
            state.path.append(Page.State(id: 99, name: name))
          }
        case .sheet(.dismiss):
          state.seenAtDismiss = .some(state.sheet?.id)
          if let id = state.replaceOnDismiss { state.sheet = Page.State(id: id) }
        case .path, .sheet:
          break
        }
        return .none
      }
      .navigationStack(\.path, action: .tcaHuntPath) { Page() }
      .presents(\.sheet, action: .tcaHuntSheet) { Page() }
    }
  }

  func makeHarness(pushing names: [String], warnings: WarningLog = WarningLog()) -> Harness<Flow> {
    let harness = Harness(initialState: Flow.State(), warnings: warnings.handler, reducer: Flow())
    for name in names { harness.send(.push(name)) }
    return harness
  }

  // MARK: Children and navigation

  /// "the parent's reducer sees `.popFrom(id:)` before the pop ... and so does a screen it
  /// pushes in answer to a pop" (stays). TCA pops from the id after its parent ran, taking
  /// such a screen too: here it stays.
  @Test func aScreenTheParentPushesInAnswerToAPopStays() {
    let harness = makeHarness(pushing: ["a", "b", "c"])
    harness.send(.answerPops("answer"))
    let ids = harness.state.path.ids
    harness.send(.path(.element(id: ids[1], action: .closeTapped)))
    #expect(harness.state.seenAtPop == ["a", "b", "c"])
    #expect(harness.state.path.map(\.name) == ["a", "answer"])
  }

  /// "`.dismiss` with the sheet still there ... (a sheet the parent replaces with one of
  /// another id stays)".
  @Test func theParentSeesTheDismissedSheetAndASheetOfAnotherIDItPresentsStays() {
    let harness = makeHarness(pushing: [])
    harness.send(.present(1))
    harness.send(.answerDismissals(2))
    harness.send(.sheet(.presented(.closeTapped)))
    #expect(harness.state.seenAtDismiss == .some(1))
    #expect(harness.state.sheet?.id == 2)
  }

  /// "a `.concatenate(.run { ... }, .dismiss)` dismisses even when the `.run` throws", and the
  /// recipe the article gives instead (`send(.saved)` at the end of the `.run`, `.dismiss`
  /// from `.saved`) keeps the sheet when the save fails. Both failures are reported, there
  /// being no `catch:`.
  @Test func aConcatenatedDismissClosesTheSheetAfterAFailedSaveTheRecipeDoesNot() {
    let warnings = WarningLog()
    let harness = makeHarness(pushing: [], warnings: warnings)
    harness.send(.present(1))
    harness.send(.sheet(.presented(.saveTapped)))
    #expect(harness.state.sheet?.id == 1)
    #expect(warnings.messages.count == 1)

    harness.send(.sheet(.presented(.saveThenCloseTapped)))
    #expect(harness.state.sheet == nil)
    #expect(warnings.messages.count == 2)
  }

  // MARK: Spellings

  /// "`StoreOf`, `EffectOf`, `IdentifiedActionOf`, `StackActionOf` | the same names".
  @Test func tcasTypeAliasesNameTheSameTypes() {
    #expect(StoreOf<Page>.self == Store<Page.State, Page.Action>.self)
    #expect(EffectOf<Page>.self == Effect<Page.Action>.self)
    #expect(IdentifiedActionOf<Page>.self == IdentifiedAction<Int, Page.Action>.self)
    #expect(StackActionOf<Page>.self == StackAction<Page.State, Page.Action>.self)
  }
}

extension CaseKey<ComingFromTCAHuntTests.Flow.Action, StackActionOf<ComingFromTCAHuntTests.Page>> {
  fileprivate static var tcaHuntPath: Self {
    Self(ComingFromTCAHuntTests.Flow.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  ComingFromTCAHuntTests.Flow.Action, PresentationAction<ComingFromTCAHuntTests.Page.Action>
> {
  fileprivate static var tcaHuntSheet: Self {
    Self(ComingFromTCAHuntTests.Flow.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
