import CartFeature
import Effects
import StoreTesting
import Testing

/// The title editor on its own: what it reports, and that it asks to be dismissed.
///
/// Dismissal itself is the presenting parent's job, tested in `CartPresentationTests`. Alone,
/// the `.dismiss` the editor returns reaches no parent; the test store records it as
/// `isDismissed`, which the tests here check.
@MainActor
@Suite struct CartTitleEditorTests {
  func makeStore(title: String = "Groceries") -> TestStoreOf<TitleEditor> {
    TestStore(initialState: TitleEditor.State(title: title)) { TitleEditor() }
  }

  @Test func editingChangesOnlyTheDraft() async {
    let store = makeStore()
    await store.send(.draftChanged("Weekend")) { $0.draft = "Weekend" }
    #expect(store.state.isSaveEnabled)
    await store.finish()
  }

  @Test(arguments: ["", " ", "\n"])
  func aBlankDraftCannotBeSaved(draft: String) async {
    let store = makeStore()
    await store.send(.draftChanged(draft)) { $0.draft = draft }
    #expect(!store.state.isSaveEnabled)
    await store.send(.saveTapped)
    await store.finish()
  }

  @Test func theTrimmedDraftIsWhatSavingReports() {
    let state = TitleEditor.State(title: "  Weekend \n")
    #expect(state.trimmedDraft == "Weekend")
    #expect(state.isSaveEnabled)
  }

  @Test func savingReportsTheTrimmedDraftThenAsksToBeDismissed() async {
    let store = makeStore(title: "  Weekend ")
    await store.send(.saveTapped)
    await store.receive(.delegate(.saved("Weekend")))
    #expect(store.isDismissed)
    await store.finish()
  }

  @Test func cancellingReportsCancelledThenAsksToBeDismissed() async {
    let store = makeStore()
    await store.send(.draftChanged("Never mind")) { $0.draft = "Never mind" }
    #expect(!store.isDismissed)
    await store.send(.cancelTapped)
    await store.receive(.delegate(.cancelled))
    #expect(store.isDismissed)
    await store.finish()
  }
}
