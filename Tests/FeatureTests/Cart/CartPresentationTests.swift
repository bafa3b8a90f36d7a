import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// Backward data flow: the title editor sheet reports its result to the cart through
/// delegate actions, then dismisses itself.
@MainActor
@Suite struct CartPresentationTests {
  let clock = TestClock()

  @Test func editingTheTitlePresentsTheEditorWithTheCurrentTitle() async {
    let store = makeCartStore(clock: clock)
    await store.send(.editTitleTapped) {
      $0.titleEditor = TitleEditor.State(title: "Groceries")
    }
    await store.send(.titleEditor(.dismiss)) { $0.titleEditor = nil }
    await store.finish()
  }

  @Test func savingReportsTheTitleThenDismisses() async {
    let store = makeCartStore(clock: clock)
    await store.send(.editTitleTapped) {
      $0.titleEditor = TitleEditor.State(title: "Groceries")
    }
    await store.send(.titleEditor(.presented(.draftChanged(" Weekend  ")))) {
      $0.titleEditor?.draft = " Weekend  "
    }
    await store.send(.titleEditor(.presented(.saveTapped)))
    await store.receive(.titleEditor(.presented(.delegate(.saved("Weekend"))))) {
      $0.title = "Weekend"
    }
    await store.receive(.titleEditor(.dismiss)) { $0.titleEditor = nil }
    #expect(!store.isDismissed, "the cart handled the editor's dismissal; the cart stays")
    await store.finish()
  }

  /// A blank saved title, which the editor cannot send (a hand-written log's), is ignored,
  /// as the editor refuses to save one. (It set an empty title.)
  @Test(arguments: ["", "  ", "\n\t"])
  func aBlankSavedTitleIsIgnored(saved: String) async {
    let store = makeCartStore(clock: clock)
    await store.send(.editTitleTapped) {
      $0.titleEditor = TitleEditor.State(title: "Groceries")
    }
    await store.send(.titleEditor(.presented(.delegate(.saved(saved)))))
    await store.send(.titleEditor(.dismiss)) { $0.titleEditor = nil }
    await store.finish()
  }

  /// A saved title with spaces around it is trimmed, as the editor trims.
  @Test func aSavedTitleIsTrimmed() async {
    let store = makeCartStore(clock: clock)
    await store.send(.editTitleTapped) {
      $0.titleEditor = TitleEditor.State(title: "Groceries")
    }
    await store.send(.titleEditor(.presented(.delegate(.saved(" Weekend\n"))))) {
      $0.title = "Weekend"
    }
    await store.send(.titleEditor(.dismiss)) { $0.titleEditor = nil }
    await store.finish()
  }

  @Test func cancellingReportsCancelledDismissesAndKeepsTheTitle() async {
    let store = makeCartStore(clock: clock)
    await store.send(.editTitleTapped) {
      $0.titleEditor = TitleEditor.State(title: "Groceries")
    }
    await store.send(.titleEditor(.presented(.draftChanged("Never mind")))) {
      $0.titleEditor?.draft = "Never mind"
    }
    await store.send(.titleEditor(.presented(.cancelTapped)))
    await store.receive(.titleEditor(.presented(.delegate(.cancelled))))
    await store.receive(.titleEditor(.dismiss)) { $0.titleEditor = nil }
    #expect(store.state.title == "Groceries")
    await store.finish()
  }

  /// The same flow matched by case, as a test that does not care for the payloads does:
  /// through the library's keys into a presented child's actions and its dismissal.
  @Test func savingIsMatchedByCaseThroughThePresentedAndDismissKeys() async {
    let store = makeCartStore(clock: clock)
    await store.send(.editTitleTapped) {
      $0.titleEditor = TitleEditor.State(title: "Groceries")
    }
    await store.send(.titleEditor(.presented(.draftChanged("Weekend")))) {
      $0.titleEditor?.draft = "Weekend"
    }
    await store.send(.titleEditor(.presented(.saveTapped)))
    await store.receive(CaseKey.titleEditor.presented) { $0.title = "Weekend" }
    await store.receive(CaseKey.titleEditor.dismiss) { $0.titleEditor = nil }
    await store.finish()
  }

  @Test func swipingTheSheetAwayDismissesWithoutAReport() async {
    let store = makeCartStore(clock: clock)
    await store.send(.editTitleTapped) {
      $0.titleEditor = TitleEditor.State(title: "Groceries")
    }
    await store.send(.titleEditor(.presented(.draftChanged("Half typed")))) {
      $0.titleEditor?.draft = "Half typed"
    }
    await store.send(.titleEditor(.dismiss)) { $0.titleEditor = nil }
    #expect(store.state.title == "Groceries")
    await store.finish()
  }

  @Test func aBlankDraftCannotBeSaved() async {
    let store = makeCartStore(clock: clock)
    await store.send(.editTitleTapped) {
      $0.titleEditor = TitleEditor.State(title: "Groceries")
    }
    await store.send(.titleEditor(.presented(.draftChanged("   ")))) {
      $0.titleEditor?.draft = "   "
    }
    await store.send(.titleEditor(.presented(.saveTapped)))
    #expect(store.state.titleEditor?.isSaveEnabled == false)
    #expect(store.state.title == "Groceries")
    await store.send(.titleEditor(.dismiss)) { $0.titleEditor = nil }
    await store.finish()
  }

  @Test func anActionForADismissedEditorIsCaughtAsAWarning() async {
    let store = makeCartStore(clock: clock)
    await withKnownIssue {
      await store.send(.titleEditor(.presented(.saveTapped)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("that child is nil") }
    }
    await store.finish()
  }
}
