import Effects
import Foundation
import Store

/// The feature of the Testing Features article, as the article writes it: at the top level,
/// so that failure messages name it `Notes` as the article's do.
struct Notes: Reducer {
  struct Note: Equatable, Identifiable {
    let id: UUID
    var text = ""
  }

  struct State: Equatable {
    var notes: [Note] = []
    var saveCount = 0
  }

  enum Action: Sendable, Equatable {
    case addTapped
    case textChanged(id: UUID, text: String)
    case autosaved
  }

  enum CancelID { case autosave }

  let clock: any Clock<Duration>
  let makeID: UUIDGenerator

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addTapped:
      state.notes.append(Note(id: makeID()))
      return .none

    case .textChanged(let id, let text):
      guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return .none }
      state.notes[index].text = text
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(2))
        send(.autosaved)
      }
      .cancellable(id: CancelID.autosave, cancelInFlight: true)

    case .autosaved:
      state.saveCount += 1
      return .none
    }
  }
}
