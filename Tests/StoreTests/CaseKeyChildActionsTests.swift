import Effects
import Testing

@testable import Store

/// The keys the library gives into the actions `forEach`, `navigationStack` and `presents`
/// wrap, continuing a feature's own key.
@Suite struct CaseKeyChildActionsTests {
  enum Row: Equatable, Sendable { case saved(String), tapped }
  enum Parent: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Row>)
    case path(StackAction<Int, Row>)
    case editor(PresentationAction<Row>)
  }

  static let rows = CaseKey(Parent.rows) { if case .rows(let a) = $0 { a } else { nil } }
  static let path = CaseKey(Parent.path) { if case .path(let a) = $0 { a } else { nil } }
  static let editor = CaseKey(Parent.editor) { if case .editor(let a) = $0 { a } else { nil } }
  static let saved = CaseKey(Row.saved) { if case .saved(let a) = $0 { a } else { nil } }

  @Test func anElementsKeyMatchesThatElementsActionsOnly() {
    let rowThree = Self.rows[id: 3]
    #expect(rowThree.embed(.tapped) == .rows(.element(id: 3, action: .tapped)))
    #expect(rowThree.extract(.rows(.element(id: 3, action: .tapped))) == .tapped)
    #expect(rowThree.extract(.rows(.element(id: 4, action: .tapped))) == nil)
    #expect(rowThree.extract(.editor(.dismiss)) == nil)
    let saved = rowThree.appending(Self.saved)
    #expect(saved.extract(.rows(.element(id: 3, action: .saved("tea")))) == "tea")
    #expect(saved.extract(.rows(.element(id: 3, action: .tapped))) == nil)
    #expect(saved.embed("milk") == .rows(.element(id: 3, action: .saved("milk"))))
  }

  @Test func aScreensKeyMatchesThatScreensActionsOnly() {
    let first = Self.path[id: StackElementID(rawValue: 0)]
    #expect(
      first.embed(.tapped) == .path(.element(id: StackElementID(rawValue: 0), action: .tapped)))
    #expect(
      first.extract(.path(.element(id: StackElementID(rawValue: 0), action: .tapped))) == .tapped)
    #expect(first.extract(.path(.element(id: StackElementID(rawValue: 1), action: .tapped))) == nil)
    #expect(first.extract(.path(.popFrom(id: StackElementID(rawValue: 0)))) == nil)
    #expect(first.extract(.path(.push(id: StackElementID(rawValue: 0), state: 1))) == nil)
  }

  @Test func thePresentedAndDismissKeysTellTheTwoCasesApart() {
    let presented = Self.editor.presented
    #expect(presented.embed(.tapped) == .editor(.presented(.tapped)))
    #expect(presented.extract(.editor(.presented(.tapped))) == .tapped)
    #expect(presented.extract(.editor(.dismiss)) == nil)
    let dismiss = Self.editor.dismiss
    #expect(dismiss.embed(()) == .editor(.dismiss))
    #expect(dismiss.extract(.editor(.dismiss)) != nil)
    #expect(dismiss.extract(.editor(.presented(.tapped))) == nil)
  }

  /// A key is known by its identity, which decides which child store a scope hands out: keys
  /// for two elements, or for the presented child and the dismissal, must differ.
  @Test func keysForTwoChildrenHaveTwoIdentities() {
    #expect(Self.rows[id: 3].identity == Self.rows[id: 3].identity)
    #expect(Self.rows[id: 3].identity != Self.rows[id: 4].identity)
    #expect(Self.rows[id: 3].identity != Self.rows.identity)
    let zero = StackElementID(rawValue: 0)
    #expect(Self.path[id: zero].identity != Self.path[id: StackElementID(rawValue: 1)].identity)
    #expect(Self.editor.presented.identity != Self.editor.identity)
  }
}
