import Effects
import Foundation
import Store

// A second feature written as an app isolated to the main actor writes one: a screen with a
// lifecycle, a search debounced on an injected clock, rows with a destination enum (a detail
// screen or a delete alert), a dependency client, ids from an injected generator, onChange.

/// A model type declared outside the reducer, carried in actions and state.
nonisolated struct BookModel: Equatable, Sendable, Identifiable, Codable {
  let id: UUID
  var title: String
}

/// A dependency client, as the documentation describes it.
nonisolated struct BooksClient: Sendable {
  var search: @Sendable (String) async throws -> [BookModel]
  var statuses: @Sendable () -> AsyncStream<String>

  static let empty = BooksClient(search: { _ in [] }, statuses: { AsyncStream { $0.finish() } })
}

nonisolated struct LoadError: Error, Equatable {}

nonisolated struct Library: Reducer {
  struct State: Equatable {
    var lifecycle = ScreenLifecycleState()
    var query = ""
    var books: IdentifiedArrayOf<BookRow.State> = []
    var destination: Destination.State?
    var status = ""
    var searchCount = 0
    var failed = false
  }

  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case queryChanged(String)
    case searched([BookModel])
    case searchFailed
    case statusChanged(String)
    case addTapped(title: String)
    case books(IdentifiedActionOf<BookRow>)
    case destination(PresentationAction<Destination.Action>)
  }

  enum CancelID: Hashable { case search }

  let client: BooksClient
  let clock: any Clock<Duration>
  let uuid: UUIDGenerator

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .lifecycle(.startup):
        return search(state.query)
      case .lifecycle(.subscribe):
        return .run { send in
          for await status in client.statuses() { send(.statusChanged(status)) }
        }
      case .lifecycle:
        return .none
      case .queryChanged(let query):
        state.query = query
        return search(query).debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      case .searched(let books):
        state.books =
          (try? IdentifiedArray(
            uniqueElements: books.map { BookRow.State(id: $0.id, title: $0.title) })) ?? []
        return .none
      case .searchFailed:
        state.failed = true
        return .none
      case .statusChanged(let status):
        state.status = status
        return .none
      case .addTapped(let title):
        state.books.append(BookRow.State(id: uuid(), title: title))
        return .none
      case .books(.element(let id, .openTapped)):
        guard let book = state.books[id: id] else { return .none }
        state.destination = .detail(BookDetail.State(book: BookModel(id: id, title: book.title)))
        return .none
      case .books(.element(let id, .deleteTapped)):
        state.destination = .deleteAlert(DeleteAlert(bookID: id))
        return .none
      case .destination(.presented(.deleteAlert(.confirmTapped))):
        return .none
      case .books, .destination:
        return .none
      }
    }
    .onChange(of: \.books.count) { _, _ in
      Reduce { state, _ in
        state.searchCount += 1
        return .none
      }
    }
    .forEach(\.books, action: .books) { BookRow() }
    .presents(\.destination, action: .destination) { Destination() }
    .screenLifecycle(\.lifecycle, action: .lifecycle)
  }

  func search(_ query: String) -> EffectOf<Self> {
    .run { send in
      send(.searched(try await client.search(query)))
    } catch: { _ in
      .searchFailed
    }
    .cancellable(id: CancelID.search, cancelInFlight: true)
  }
}

nonisolated struct BookRow: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var title: String
    var isFavorite = false
  }

  enum Action: Sendable, Equatable {
    case favoriteTapped
    case openTapped
    case deleteTapped
  }

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .favoriteTapped:
      state.isFavorite.toggle()
      return .none
    case .openTapped, .deleteTapped:
      return .none
    }
  }
}

nonisolated struct BookDetail: Reducer {
  struct State: Equatable {
    var book: BookModel
  }

  enum Action: Sendable, Equatable {
    case renamed(String)
    case closeTapped
  }

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .renamed(let title):
      state.book.title = title
      return .none
    case .closeTapped:
      return .dismiss
    }
  }
}

nonisolated struct DeleteAlert: Equatable, EphemeralState {
  var bookID: UUID
}

nonisolated enum DeleteAlertAction: Sendable, Equatable { case confirmTapped, cancelTapped }

extension Library {
  nonisolated struct Destination: Reducer {
    enum State: Equatable {
      case detail(BookDetail.State)
      case deleteAlert(DeleteAlert)
    }

    enum Action: Sendable, Equatable {
      case detail(BookDetail.Action)
      case deleteAlert(DeleteAlertAction)
    }

    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(StateKey.detail, action: ActionKey.detail) { BookDetail() }
        .ifCaseLet(StateKey.deleteAlert, action: ActionKey.deleteAlert)
    }
  }
}

/// A view model's computed property, in an extension left isolated to the main actor: only
/// screens read it.
extension Library.State {
  var favorites: [BookRow.State] { books.filter(\.isFavorite) }
}

nonisolated extension CaseKey<Library.Action, ScreenLifecycleAction> {
  static var lifecycle: Self {
    Self(Library.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}

nonisolated extension CaseKey<Library.Action, IdentifiedActionOf<BookRow>> {
  static var books: Self {
    Self(Library.Action.books) { if case .books(let a) = $0 { a } else { nil } }
  }
}

nonisolated extension CaseKey<Library.Action, PresentationAction<Library.Destination.Action>> {
  static var destination: Self {
    Self(Library.Action.destination) { if case .destination(let a) = $0 { a } else { nil } }
  }
}

nonisolated extension CaseKey<Library.Destination.State, BookDetail.State> {
  static var detail: Self {
    Self(Library.Destination.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

nonisolated extension CaseKey<Library.Destination.State, DeleteAlert> {
  static var deleteAlert: Self {
    Self(Library.Destination.State.deleteAlert) {
      if case .deleteAlert(let s) = $0 { s } else { nil }
    }
  }
}

nonisolated extension CaseKey<Library.Destination.Action, BookDetail.Action> {
  static var detail: Self {
    Self(Library.Destination.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

nonisolated extension CaseKey<Library.Destination.Action, DeleteAlertAction> {
  static var deleteAlert: Self {
    Self(Library.Destination.Action.deleteAlert) {
      if case .deleteAlert(let a) = $0 { a } else { nil }
    }
  }
}
