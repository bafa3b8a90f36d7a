import Effects

@testable import Store

/// Runs an effect in a throwaway store and collects what it sends.
final class Collected<Action: Sendable>: Sendable {
  private let storage = Locked<[Action]>([])

  var values: [Action] { storage.withLock { $0 } }

  func append(_ value: Action) { storage.withLock { $0.append(value) } }

  @MainActor
  func run(_ effect: Effect<Action>) async {
    let store = Store(initialState: ()) {
      Reduce<Void, Action> { _, action in
        self.storage.withLock { $0.append(action) }
        return .none
      }
    }
    let root = store.core as! RootCore<Reduce<Void, Action>>
    let group = EffectGroup()
    root.runtime.start(effect, origin: "Collected.run", group: group)
    await StoreTask(group: group).finish()
  }
}
