import Effects
import Testing

@testable import Store

/// A sheet and an enum destination, each presented with `presents`, with a leaf of
/// `LargeStateStackTests` inside, under a root with a payload of its own, and an `onChange`
/// over the sheet.
struct LargePresenter<P: Payload>: Reducer {
  struct State: Equatable {
    var payload = P()
    var sheet: DeepLeaf<P>.State? = DeepLeaf<P>.State()
    var destination: DeepCase<P>.State? = .leaf(DeepLeaf<P>.State())
    var changes = 0
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<DeepLeaf<P>.Action>)
    case destination(PresentationAction<DeepCase<P>.Action>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .presents(\.sheet, action: Self.sheetKey) { DeepLeaf<P>() }
      .presents(\.destination, action: Self.destinationKey) { DeepCase<P>() }
      .onChange(of: { $0.sheet?.probes }) { _, _ in
        Reduce { state, _ in
          state.changes += 1
          return .none
        }
      }
  }
  static var sheetKey: CaseKey<Action, PresentationAction<DeepLeaf<P>.Action>> {
    CaseKey(Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
  static var destinationKey: CaseKey<Action, PresentationAction<DeepCase<P>.Action>> {
    CaseKey(Action.destination) { if case .destination(let a) = $0 { a } else { nil } }
  }
}

/// The stack claims of `LargeStateStackTests` for presented children: `presents` (an
/// `Identifiable` child, whose ids it reads, and which it checks for `EphemeralState`) and an
/// `onChange` beside it copy no child onto the stack; an enum destination's case, at most its
/// payload twice, as `ifCaseLet` alone does. Each with the child's store held and read, so that
/// the reducers also let go of, and take again, the store's copy of the child (`KeptCopies`).
@MainActor
@Suite struct PresentedLargeStateStackTests {
  func sheetStack<P: Payload>(_: P.Type) -> (bytes: Int, probes: Int) {
    let store = Store(initialState: LargePresenter<P>.State()) { LargePresenter<P>() }
    let sheet = store.scope(state: \.sheet, action: LargePresenter<P>.sheetKey)
    _ = sheet?.probes
    let top = currentStackAddress()
    store.send(.sheet(.presented(.probe)))
    let leaf = store.state.sheet!
    #expect(sheet?.probes == 1 && store.changes == 1)
    return (Int(top) - Int(leaf.marker), leaf.probes)
  }

  func destinationStack<P: Payload>(_: P.Type) -> (bytes: Int, probes: Int) {
    let store = Store(initialState: LargePresenter<P>.State()) { LargePresenter<P>() }
    let leafStore = store.scope(state: \.destination, action: LargePresenter<P>.destinationKey)?
      .scope(state: DeepCase<P>.leafCase, action: DeepCase<P>.leafAction)
    _ = leafStore?.probes
    let top = currentStackAddress()
    store.send(.destination(.presented(.leaf(.probe))))
    guard case .leaf(let leaf) = store.state.destination else { return (0, 0) }
    #expect(leafStore?.probes == 1)
    return (Int(top) - Int(leaf.marker), leaf.probes)
  }

  @Test func aSendToALargePresentedSheetCopiesNoStateOntoTheStack() {
    let large = sheetStack(Kilobytes16.self)
    let empty = sheetStack(NoPayload.self)
    #expect(large.probes == 1 && empty.probes == 1)
    #expect(
      large.bytes - empty.bytes < 4_096,
      "\(large.bytes) bytes of stack with 16 KiB states, \(empty.bytes) with none")
  }

  @Test func aSendToALargePresentedCaseCopiesThePayloadAtMostTwiceOntoTheStack() {
    let large = destinationStack(Kilobytes16.self)
    let empty = destinationStack(NoPayload.self)
    #expect(large.probes == 1 && empty.probes == 1)
    #expect(
      large.bytes - empty.bytes < 2 * 16_384 + 4_096,
      "\(large.bytes) bytes of stack with 16 KiB states, \(empty.bytes) with none")
  }
}
