import Effects
import Observation

/// Owns a feature's state, runs its reducer for each action, and runs the effects the reducer
/// returns, inside lifetimes the store owns.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.incrementTapped)
/// print(store.count)  // 1
/// ```
///
/// A store is the one owner of its state: screens read it through the store (or a scoped child
/// store) and change it only by sending actions. Reading state inside
/// `withObservationTracking`, as SwiftUI does, registers the read, so changes notify the reader.
///
/// Effects started by the store are cancelled when the store, and every store scoped from it,
/// have been released: no effect outlives its store.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable>: Observable {
  package let core: any StoreCore<State, Action>
  /// Child stores handed out by `scope`, so that scoping again returns the same store.
  var children: [ScopeKey: AnyObject] = [:]

  package init(core: any StoreCore<State, Action>) {
    self.core = core
  }

  /// Creates a store that runs `reducer` on `initialState`.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  public convenience init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R
  ) where R.State == State, R.Action == Action {
    self.init(core: RootCore(initialState: initialState, reducer: reducer()))
  }

  /// The current state.
  ///
  /// Reading it inside observation tracking registers the read.
  public var state: State {
    core.state
  }

  /// Reads a value of the state.
  ///
  /// - Parameter keyPath: The path to the value.
  /// - Returns: The value.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    core.state[keyPath: keyPath]
  }

  /// Sends an action: runs the reducer at once, then starts the effects it returned.
  ///
  /// Actions that `.send` effects feed back while the reducer runs are processed in order
  /// before `send` returns. Asynchronous effects start in tasks the store owns; the returned
  /// handle awaits or cancels them.
  ///
  /// - Parameter action: The action to process.
  /// - Returns: A handle on the effects the action started.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    core.send(action)
  }
}

/// A store for the reducer `R`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>
