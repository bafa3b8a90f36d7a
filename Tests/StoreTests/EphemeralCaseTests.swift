import Effects
import Testing

@testable import Store

/// An enum destination with a note and an alert (`EphemeralState`): actions for the alert
/// while the note shows, and actions whose case is not named as the alert's state case.
@MainActor
@Suite struct EphemeralCaseTests {
  struct CountAlert: Equatable, EphemeralState {
    var title = "Add one?"
  }
  enum CountAlertAction: Sendable, Equatable {
    case addTapped
  }
  struct Note: Reducer {
    struct State: Equatable {
      var text = ""
    }
    enum Action: Sendable, Equatable {
      case typed(String)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      if case .typed(let text) = action { state.text = text }
      return .none
    }
  }
  struct Destination: Reducer {
    enum State: Equatable {
      case note(Note.State)
      case alert(CountAlert)
    }
    enum Action: Sendable, Equatable {
      case note(Note.Action)
      case alert(CountAlertAction)
      /// An alert's buttons under a case name that is not the state's (a mistake).
      case alertButton(CountAlertAction)
      /// The destination's own action: shows a note, whatever it showed.
      case showNote(String)
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .showNote(let text) = action { state = .note(Note.State(text: text)) }
        return .none
      }
      .ifCaseLet(.ephemeralNote, action: .ephemeralNote) { Note() }
      .ifCaseLet(.ephemeralAlert, action: .ephemeralAlert)
    }
  }
  struct Counter: Reducer {
    struct State: Equatable {
      var destination: Destination.State?
      var count = 0
    }
    enum Action: Sendable, Equatable {
      case destination(PresentationAction<Destination.Action>)
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .destination(.presented(.alert(.addTapped))),
          .destination(.presented(.alertButton(.addTapped))):
          state.count += 1
        case .destination:
          break
        }
        return .none
      }
      .presents(\.destination, action: .ephemeralDestination) { Destination() }
    }
  }

  func harness(showing destination: Destination.State, _ warnings: WarningLog) -> Harness<Counter> {
    Harness(
      initialState: Counter.State(destination: destination), warnings: warnings.handler,
      reducer: Counter())
  }

  /// `ifCaseLet` without a reducer, for the alert's case, refuses a late tap on the alert
  /// while the note shows: the parent does not count it.
  @Test func anAlertsActionWhileAnotherCaseShowsChangesNothingAndWarns() {
    let warnings = WarningLog()
    let harness = harness(showing: .note(Note.State()), warnings)
    harness.send(.destination(.presented(.alert(.addTapped))))
    #expect(harness.state == Counter.State(destination: .note(Note.State())))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains("so they changed nothing") == true, "\(warnings.messages)")
    // While the alert shows, its tap closes it and reaches the parent.
    let shown = WarningLog()
    let alert = self.harness(showing: .alert(CountAlert()), shown)
    alert.send(.destination(.presented(.alert(.addTapped))))
    #expect(alert.state == Counter.State(destination: nil, count: 1))
    #expect(shown.messages.isEmpty)
  }

  /// An action of a case named unlike the alert's state case does not close the alert: that
  /// is reported, rather than leaving the alert open without a word.
  @Test func anActionNamedUnlikeTheAlertsCaseLeavesItOpenWithAWarning() {
    let warnings = WarningLog()
    let harness = harness(showing: .alert(CountAlert()), warnings)
    harness.send(.destination(.presented(.alertButton(.addTapped))))
    #expect(harness.state.destination == .alert(CountAlert()))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "while it shows its EphemeralState case `alert`, but the action is of the case "
          + "`alertButton`, so the destination stays open") == true, "\(warnings.messages)")
  }

  /// The destination's own action that shows something else while the alert shows is not the
  /// mistake above: nothing is reported.
  @Test func anActionThatReplacesTheAlertRaisesNoWarning() {
    let warnings = WarningLog()
    let harness = harness(showing: .alert(CountAlert()), warnings)
    harness.send(.destination(.presented(.showNote("x"))))
    #expect(harness.state.destination == .note(Note.State(text: "x")))
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}

extension CaseKey<EphemeralCaseTests.Destination.State, EphemeralCaseTests.Note.State> {
  static var ephemeralNote: Self {
    Self(EphemeralCaseTests.Destination.State.note) { if case .note(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<EphemeralCaseTests.Destination.State, EphemeralCaseTests.CountAlert> {
  static var ephemeralAlert: Self {
    Self(EphemeralCaseTests.Destination.State.alert) {
      if case .alert(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<EphemeralCaseTests.Destination.Action, EphemeralCaseTests.Note.Action> {
  static var ephemeralNote: Self {
    Self(EphemeralCaseTests.Destination.Action.note) {
      if case .note(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<EphemeralCaseTests.Destination.Action, EphemeralCaseTests.CountAlertAction> {
  static var ephemeralAlert: Self {
    Self(EphemeralCaseTests.Destination.Action.alert) {
      if case .alert(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  EphemeralCaseTests.Counter.Action, PresentationAction<EphemeralCaseTests.Destination.Action>
> {
  static var ephemeralDestination: Self {
    Self(EphemeralCaseTests.Counter.Action.destination) {
      if case .destination(let a) = $0 { a } else { nil }
    }
  }
}
