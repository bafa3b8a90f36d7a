import Effects
import Store
import StoreTesting
import Testing

/// Failures for a received action that prints the same as the expected one say why they
/// failed (an adversary trial found an empty diff).
@MainActor
@Suite struct UnexpectedActionMessageTests {
  let messages = Messages()

  /// An object compared by identity, as a reference type often is.
  final class Handle: Equatable, Sendable {
    let name: String
    init(_ name: String) { self.name = name }
    static func == (lhs: Handle, rhs: Handle) -> Bool { lhs === rhs }
  }

  struct Meter: Reducer {
    struct State: Equatable { var level = 0.0 }
    enum Action: Sendable, Equatable {
      case measure(Double)
      case measured(Double)
      case open(Handle)
      case opened(Handle)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .measure(let value): return .send(.measured(value))
      case .measured: return .none
      case .open(let handle): return .send(.opened(Handle(handle.name)))
      case .opened: return .none
      }
    }
  }

  /// TestingFeatures: "Received an unexpected action. With a `-` expected and `+` received
  /// diff of the two actions." Two actions that `==` tells apart but that print the same (a
  /// NaN payload, which is never equal to itself) fail with the headline and an empty diff:
  /// nothing says what differs. A state in the same case gets "not equal to itself (a NaN?)".
  @Test func anUnexpectedNaNActionSaysWhyItDiffers() async {
    let store = TestStore(initialState: Meter.State()) { Meter() }
    await store.send(.measure(.nan))
    await withKnownIssue {
      await store.receive(.measured(.nan))
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains("NaN") || messages.last.contains("print the same"),
      "\(messages.last.debugDescription)")
  }

  /// The same for a payload whose `==` is identity: the diff of the two actions is empty.
  @Test func anUnexpectedActionThatPrintsTheSameSaysSo() async {
    let store = TestStore(initialState: Meter.State()) { Meter() }
    await store.send(.open(Handle("door")))
    await withKnownIssue {
      await store.receive(.opened(Handle("door")))
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains("print the same") || messages.last.contains("prints the same"),
      "\(messages.last.debugDescription)")
  }

  struct Picker: Reducer {
    struct State: Equatable {}
    enum Action: Sendable, Equatable {
      case pick(Int??)
      case picked(Int??)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .pick(let choice): return .send(.picked(choice))
      case .picked: return .none
      }
    }
  }

  /// A nested optional: `.some(nil)` (a choice made, of nothing) prints as `nil`, so a test
  /// that expects `.picked(nil)` and receives `.picked(.some(nil))` fails with an empty diff.
  /// "An action's payload prints as a test writes it": a test writes `.some(nil)`.
  @Test func anUnexpectedActionHoldingSomeNilShowsIt() async {
    let store = TestStore(initialState: Picker.State()) { Picker() }
    await store.send(.pick(.some(nil)))
    await withKnownIssue {
      await store.receive(.picked(nil))
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains("some(nil)") || messages.last.contains("print the same"),
      "\(messages.last.debugDescription)")
  }
}
