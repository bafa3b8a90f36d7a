import Testing

@testable import Store

/// The case a destination shows, and the case an action is for, read through the enum's value
/// witnesses and remembered per case: right for each way the compiler lays an enum out, and
/// for each case of a type, in any order.
@Suite struct EphemeralCaseLayoutTests {
  struct Alert: EphemeralState, Equatable {
    var title = "Delete?"
  }
  final class Box: Sendable {}

  /// Several payload cases, and cases without one.
  enum ManyPayloads {
    case alert(Alert)
    case note(String)
    case count(Int)
    case idle
    case gone
  }
  /// One payload case: the others are told apart by the payload's spare values.
  enum OnePayload {
    case idle
    case alert(Alert)
    case gone
  }
  /// Cases kept behind a reference.
  indirect enum Indirect {
    case note(String)
    case nested(Indirect)
    case alert(Alert)
  }
  /// A generic enum: each specialization is a type of its own.
  enum Generic<Other> {
    case other(Other)
    case alert(Alert)
  }
  /// Payloads of a class, an existential and a large struct.
  enum Mixed {
    case object(Box)
    case any(any Sendable)
    case large((Int, Int, Int, Int, Int, Int, Int, Int))
    case alert(Alert)
  }
  /// Two cases whose payloads close, under two names.
  enum TwoAlerts {
    case alert(Alert)
    case dialog(Alert)
    case note(String)
  }
  /// Payloads with a label: one value, and one of several.
  enum Labeled {
    case alert(info: Alert)
    case dialog(Alert, note: String)
    case panel(info: Panel)
  }
  /// An action enum with one case.
  enum AlertAction {
    case alert(Int)
  }

  /// The name of the closing case, when `state` shows one.
  func shown<State>(_ state: State) -> String? {
    var present: State? = state
    return withUnsafePointer(to: &present) { pointer in
      Ephemerality.ephemeralCase(UnsafeRawPointer(pointer), of: State.self)
    }
  }

  /// What `closing` decides for `state` and `action`.
  func closing<State, Action>(_ state: State, on action: Action) -> String? {
    var present: State? = state
    return withUnsafePointer(to: &present) { Ephemerality.closing($0, on: action).closing }
  }

  @Test func eachLayoutNamesTheCaseItShows() {
    // Each twice, in turns, so that a case met before is named from memory.
    for _ in 0..<2 {
      #expect(shown(ManyPayloads.alert(Alert())) == "alert")
      #expect(shown(ManyPayloads.note("x")) == nil)
      #expect(shown(ManyPayloads.count(3)) == nil)
      #expect(shown(ManyPayloads.idle) == nil)
      #expect(shown(ManyPayloads.gone) == nil)
      #expect(shown(OnePayload.idle) == nil)
      #expect(shown(OnePayload.alert(Alert())) == "alert")
      #expect(shown(OnePayload.gone) == nil)
      #expect(shown(Indirect.note("x")) == nil)
      #expect(shown(Indirect.nested(.alert(Alert()))) == nil)
      #expect(shown(Indirect.alert(Alert())) == "alert")
      #expect(shown(Generic<Int>.other(1)) == nil)
      #expect(shown(Generic<Int>.alert(Alert())) == "alert")
      #expect(shown(Generic<String>.other("x")) == nil)
      #expect(shown(Generic<String>.alert(Alert())) == "alert")
      #expect(shown(Generic<Alert>.other(Alert())) == "other")
      #expect(shown(Mixed.object(Box())) == nil)
      #expect(shown(Mixed.any(5)) == nil)
      #expect(shown(Mixed.large((1, 2, 3, 4, 5, 6, 7, 8))) == nil)
      #expect(shown(Mixed.alert(Alert())) == "alert")
      #expect(shown(TwoAlerts.dialog(Alert())) == "dialog")
      #expect(shown(TwoAlerts.alert(Alert())) == "alert")
      #expect(shown(TwoAlerts.note("x")) == nil)
    }
  }

  /// A labeled payload is the value under its label: a trial's alert declared
  /// `case alert(info: Alert)` never closed (the payload was taken for a tuple), with no
  /// warning. A payload of several values holds more than the alert, and does not close.
  @Test func aLabeledPayloadClosesAsAnUnlabeledOne() {
    for _ in 0..<2 {
      #expect(shown(Labeled.alert(info: Alert())) == "alert")
      #expect(shown(Labeled.dialog(Alert(), note: "x")) == nil)
      #expect(shown(Labeled.panel(info: Panel())) == nil)
      #expect(shown(Labeled.panel(info: ConfirmPanel())) == "panel")
      #expect(closing(Labeled.alert(info: Alert()), on: AlertAction.alert(1)) == "alert")
    }
  }

  class Panel {}
  final class ConfirmPanel: Panel, EphemeralState {}
  /// A case whose payload is an object.
  enum Panels {
    case panel(Panel)
    case note(String)
  }

  /// A class payload is looked at for each value: a subclass that conforms closes, its
  /// superclass does not, whichever was shown first. (The answer for the first object was
  /// remembered for the case, found by an adversary trial.)
  @Test func aClassPayloadClosesByTheClassOfEachValue() {
    #expect(shown(Panels.panel(Panel())) == nil)
    #expect(shown(Panels.panel(ConfirmPanel())) == "panel")
    #expect(shown(Panels.panel(Panel())) == nil)
    #expect(shown(Panels.note("x")) == nil)
  }

  @Test func aStateThatIsNoEnumShowsNoCase() {
    #expect(shown(Alert()) == nil)
    #expect(shown(Optional(ManyPayloads.alert(Alert()))) == nil)
    #expect(shown(42) == nil)
  }

  /// A state that closes whole, asked first for a case it shows (it has none), still closes
  /// whole: the answer is not taken for "a state that never closes". (Another test's look at
  /// a shared type made this one fail now and then.)
  @Test func aStateThatClosesWholeStillClosesAfterItsCaseWasAskedFor() {
    struct LoneAlert: EphemeralState {}
    #expect(shown(LoneAlert()) == nil)
    #expect(closing(LoneAlert(), on: AlertAction.alert(1)) == "")
  }

  @Test func anActionClosesTheCaseOfItsName() {
    for _ in 0..<2 {
      #expect(closing(TwoAlerts.alert(Alert()), on: AlertAction.alert(1)) == "alert")
      #expect(closing(TwoAlerts.dialog(Alert()), on: AlertAction.alert(1)) == nil)
      #expect(closing(Indirect.alert(Alert()), on: Indirect.alert(Alert())) == "alert")
      #expect(closing(Indirect.alert(Alert()), on: Indirect.note("x")) == nil)
      #expect(closing(OnePayload.alert(Alert()), on: OnePayload.alert(Alert())) == "alert")
      #expect(closing(OnePayload.alert(Alert()), on: OnePayload.gone) == nil)
      #expect(closing(Alert(), on: AlertAction.alert(1)) == "")
      #expect(closing(ManyPayloads.note("x"), on: AlertAction.alert(1)) == nil)
    }
  }
}
