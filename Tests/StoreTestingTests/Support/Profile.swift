import Effects
import Store

/// A small feature with nested state, a request, a timer and a failing path.
struct Profile: Reducer {
  struct State: Equatable {
    var user = User()
    var isLoading = false
    var ticks = 0
    var error: String?
  }
  struct User: Equatable {
    var name = ""
    var address = Address()
    var tags: [String] = []
  }
  struct Address: Equatable {
    var city = "Paris"
    var street = "Rue de Rivoli"
  }

  enum Action: Sendable, Equatable {
    case refreshTapped
    case loaded(String)
    case failed(String)
    case moveTapped(String)
    case startTimer
    case startMainActorTimer
    case tick
    case stopTimer
    case echo([String])
    case noop
    case crashTapped
    case searchTyped(String)
  }

  let load: @Sendable () async throws -> String
  var clock: any Clock<Duration> = TestClock()

  enum CancelID { case timer, search }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .refreshTapped:
      state.isLoading = true
      return .run { [load] send in
        send(.loaded(try await load()))
      } catch: { error in
        .failed("\(error)")
      }
    case .loaded(let name):
      state.isLoading = false
      state.user.name = name
      return .none
    case .failed(let message):
      state.isLoading = false
      state.error = message
      return .none
    case .moveTapped(let city):
      state.user.address.city = city
      return .none
    case .startTimer:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .startMainActorTimer:
      // The same timer, isolated to the main actor, as code in an app target often is.
      return .run { @MainActor [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .tick:
      state.ticks += 1
      return .none
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    case .echo(let words):
      return .merge(words.map { word in .run { send in send(.loaded(word)) } })
    case .noop:
      return .none
    case .crashTapped:
      return .run { _ in throw LoadError() }
    case .searchTyped(let query):
      return .run { send in send(.loaded(query)) }
        .debounce(id: CancelID.search, for: .seconds(1), clock: clock)
    }
  }
}

struct LoadError: Error, CustomStringConvertible {
  var description: String { "offline" }
}
