import Effects
import Foundation
import Observation
import Store
import StoreTesting
import Testing

nonisolated let duneID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

/// A screen as an app target writes it: reads a computed property of the state left isolated.
final class LibraryScreen {
  let store: StoreOf<Library>
  private(set) var favoriteCounts: [Int] = []

  init(store: StoreOf<Library>) { self.store = store }

  func draw() {
    withObservationTracking {
      favoriteCounts.append(store.favorites.count)
    } onChange: { [weak self] in
      MainActor.assumeIsolated { self?.draw() }
    }
  }
}

@Suite struct LibraryFeatureTests {
  @Test func searchingDebouncesAndShowsResults() async {
    let clock = TestClock()
    let client = BooksClient(
      search: { query in [BookModel(id: duneID, title: query)] },
      statuses: { AsyncStream { $0.finish() } })
    let store = TestStoreOf<Library>(initialState: Library.State()) {
      Library(client: client, clock: clock, uuid: .incrementing())
    }
    await store.send(.queryChanged("Dune")) { $0.query = "Dune" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searched([BookModel(id: duneID, title: "Dune")])) {
      $0.books = [BookRow.State(id: duneID, title: "Dune")]
      $0.searchCount = 1
    }
    await store.send(.books(.element(id: duneID, action: .openTapped))) {
      $0.destination = .detail(BookDetail.State(book: BookModel(id: duneID, title: "Dune")))
    }
    await store.send(.destination(.presented(.detail(.closeTapped))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    await store.send(.books(.element(id: duneID, action: .deleteTapped))) {
      $0.destination = .deleteAlert(DeleteAlert(bookID: duneID))
    }
    await store.send(.destination(.presented(.deleteAlert(.confirmTapped)))) {
      $0.destination = nil
    }
    await store.finish()
  }

  @Test func aFailedSearchIsReported() async {
    let client = BooksClient(
      search: { _ in throw LoadError() }, statuses: { AsyncStream { $0.finish() } })
    let store = TestStoreOf<Library>(initialState: Library.State()) {
      Library(client: client, clock: ImmediateClock(), uuid: .incrementing())
    }
    await store.send(.queryChanged("x")) { $0.query = "x" }
    await store.receive(.searchFailed) { $0.failed = true }
    await store.finish()
  }

  @Test func aScreenRedrawsWhenAFavoriteChanges() {
    let store = Store(initialState: Library.State()) {
      Library(client: .empty, clock: TestClock(), uuid: .incrementing())
    }
    let screen = LibraryScreen(store: store)
    screen.draw()
    store.send(.addTapped(title: "Dune"))
    let id = store.books.ids[0]
    store.send(.books(.element(id: id, action: .favoriteTapped)))
    #expect(screen.favoriteCounts == [0, 1])
    let destination = store.scope(state: \.destination, action: .destination)
    #expect(destination == nil)
    store.send(.books(.element(id: id, action: .openTapped)))
    let detail = store.scope(state: \.destination, action: .destination)?
      .scope(state: CaseKey.detail, action: .detail)
    detail?.send(.renamed("Dune Messiah"))
    #expect(
      store.destination == .detail(BookDetail.State(book: BookModel(id: id, title: "Dune Messiah")))
    )
  }

  @Test func theScreenSearchesOnStartupAndFollowsStatusesWhileItShows() async {
    let (statuses, continuation) = AsyncStream.makeStream(of: String.self)
    let client = BooksClient(
      search: { _ in [BookModel(id: duneID, title: "Dune")] }, statuses: { statuses })
    let store = TestStoreOf<Library>(initialState: Library.State()) {
      Library(client: client, clock: TestClock(), uuid: .incrementing())
    }
    await store.send(.lifecycle(.taskStarted)) {
      $0.lifecycle.isTaskRunning = true
      $0.lifecycle.hasStarted = true
      $0.lifecycle.isFocused = true
      $0.lifecycle.hasGainedFocus = true
      $0.lifecycle.runningHook = .startup
      $0.lifecycle.pendingHooks = [.firstFocus, .subscribe]
    }
    await store.receive(.lifecycle(.startup))
    await store.receive(.searched([BookModel(id: duneID, title: "Dune")])) {
      $0.books = [BookRow.State(id: duneID, title: "Dune")]
      $0.searchCount = 1
    }
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = .firstFocus
      $0.lifecycle.pendingHooks = [.subscribe]
    }
    await store.receive(.lifecycle(.firstFocus))
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = nil
      $0.lifecycle.pendingHooks = []
    }
    await store.receive(.lifecycle(.subscribe))
    continuation.yield("Open")
    await store.receive(.statusChanged("Open")) { $0.status = "Open" }
    await store.send(.lifecycle(.taskEnded)) {
      $0.lifecycle.isTaskRunning = false
      $0.lifecycle.isFocused = false
    }
    await store.receive(.lifecycle(.teardown))
    await store.finish()
  }
}
