import Effects
import Store
import StoreTesting
import Testing

/// A feature whose state holds objects: an owner, and the pet that points back at it.
private struct Kennel: Reducer {
  final class Owner: Equatable {
    let name: String
    let pet: Pet?

    init(_ name: String, pet: Pet? = nil) {
      self.name = name
      self.pet = pet
    }

    static func == (lhs: Owner, rhs: Owner) -> Bool {
      lhs.name == rhs.name && lhs.pet == rhs.pet
    }
  }

  final class Pet: Equatable {
    let name: String
    weak var owner: Owner?

    init(_ name: String) { self.name = name }

    /// Compares the owners by whether there is one: comparing them whole would go round the
    /// cycle.
    static func == (lhs: Pet, rhs: Pet) -> Bool {
      lhs.name == rhs.name && (lhs.owner == nil) == (rhs.owner == nil)
    }
  }

  struct State: Equatable {
    var owner = Owner("Ada")
  }

  enum Action: Equatable, Sendable {
    case handedOver(to: String)
    case adopted(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .handedOver(let name):
      state.owner = Owner(name, pet: state.owner.pet)
    case .adopted(let name):
      let pet = Pet(name)
      state.owner = Owner(state.owner.name, pet: pet)
      pet.owner = state.owner
    }
    return .none
  }
}

/// A class instance in the state shows in a failure's diff as its stored properties, as a
/// struct does; one met again on the path from the root shows as `TypeName(↻)`.
@MainActor
@Suite struct ClassStateDiffTests {
  let messages = Messages()

  /// A new owner in place of the one the test expected: its changed property is shown under
  /// the object's type, its others collapsed.
  @Test func anObjectInTheStateShowsInTheDiffAsItsProperties() async {
    let store = TestStore(initialState: Kennel.State()) { Kennel() }
    await withKnownIssue {
      await store.send(.handedOver(to: "Bo")) { $0.owner = Kennel.Owner("Cy") }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last == """
        The state after send(Kennel.Action.handedOver(to: "Bo")) differs from the expected \
        state. (- expected, + actual)
          Kennel.State(
            owner: Kennel.Owner(
        -     name: "Cy"
        +     name: "Bo"
              … (1 unchanged)
            )
          )
        """)
  }

  /// The pet's owner is the object the path went through: it prints as `Kennel.Owner(↻)`,
  /// and the dump ends.
  @Test func anObjectThatPointsBackAtItsOwnerShowsTheCycleMarker() async {
    let store = TestStore(initialState: Kennel.State()) { Kennel() }
    await withKnownIssue {
      await store.send(.adopted("Rex")) { $0.owner = Kennel.Owner("Ada", pet: Kennel.Pet("Rex")) }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last == """
        The state after send(Kennel.Action.adopted("Rex")) differs from the expected state. \
        (- expected, + actual)
          Kennel.State(
            owner: Kennel.Owner(
              … (1 unchanged)
              pet: Kennel.Pet(
                … (1 unchanged)
        -       owner: nil
        +       owner: Kennel.Owner(↻)
              )
            )
          )
        """)
  }
}
