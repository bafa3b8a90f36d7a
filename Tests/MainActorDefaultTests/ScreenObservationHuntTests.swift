import Effects
import Foundation
import Observation
import Store
import Testing

/// A screen as an app isolated to the main actor writes one: it runs the library's lifecycle
/// from its task with `runScreen`, and draws the status it reads through the store.
final class LibraryStatusScreen {
  let store: StoreOf<Library>
  private(set) var drawn: [String] = []

  init(store: StoreOf<Library>) { self.store = store }

  func draw() {
    withObservationTracking {
      drawn.append(store.status)
    } onChange: { [weak self] in
      MainActor.assumeIsolated { self?.draw() }
    }
  }

  /// The screen's task: the lifecycle runs until `phases` ends.
  func task(phases: AsyncStream<ScreenLifecycleAction.ScenePhase>) async {
    await store.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
  }
}

/// Waits until `condition` holds, woken by the store's observation of what it reads (no
/// polling, no time).
func until(_ condition: @escaping () -> Bool) async {
  while !condition() {
    await withCheckedContinuation { continuation in
      withObservationTracking {
        _ = condition()
      } onChange: {
        continuation.resume()
      }
    }
  }
}

@Suite struct ScreenObservationHuntTests {
  @Test(.timeLimit(.minutes(30)))
  func aScreenRunsItsLifecycleFromItsTaskAndRedrawsWhatItReads() async {
    let (statuses, status) = AsyncStream.makeStream(of: String.self)
    let client = BooksClient(
      search: { _ in [BookModel(id: duneID, title: "Dune")] }, statuses: { statuses })
    let store = Store(initialState: Library.State()) {
      Library(client: client, clock: TestClock(), uuid: .incrementing())
    }
    let screen = LibraryStatusScreen(store: store)
    screen.draw()
    let (phases, phase) = AsyncStream.makeStream(of: ScreenLifecycleAction.ScenePhase.self)
    let task = Task { await screen.task(phases: phases) }

    await until { store.books.count == 1 }  // the startup hook searched
    #expect(store.lifecycle.isTaskRunning)
    await until { store.lifecycle.runningHook == nil && store.lifecycle.pendingHooks.isEmpty }
    status.yield("Open")  // the subscribe hook follows the statuses
    await until { store.status == "Open" }
    #expect(screen.drawn == ["", "Open"])

    phase.yield(.background)
    await until { !store.lifecycle.isFocused }
    #expect(store.lifecycle.isTaskRunning)
    phase.finish()
    await task.value
    #expect(!store.lifecycle.isTaskRunning)
    #expect(screen.drawn == ["", "Open"])
    status.finish()
  }
}
