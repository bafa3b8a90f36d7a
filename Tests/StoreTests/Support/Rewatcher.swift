import Observation

/// An observer that calls `changed` at each change of what `read` reads, and reads again.
@MainActor
final class Rewatcher {
  let read: @MainActor () -> Void
  let changed: @MainActor () -> Void

  init(read: @escaping @MainActor () -> Void, changed: @escaping @MainActor () -> Void) {
    self.read = read
    self.changed = changed
    watch()
  }

  func watch() {
    withObservationTracking(read) { [weak self] in
      MainActor.assumeIsolated {
        self?.changed()
        self?.watch()
      }
    }
  }
}
