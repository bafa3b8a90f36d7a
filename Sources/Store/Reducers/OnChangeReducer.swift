import Effects

extension Reducer {
  /// Runs `observer` after this reducer whenever an action changes the value `toValue` reads:
  /// the observer pattern, for a value several features can change.
  ///
  /// Attach it to the reducer that runs the features that change the value, so that it sees
  /// their changes: here the profile tab and the settings sheet both edit the shared
  /// settings, and the app saves them after either does. A `Reduce` placed after the features
  /// would not see what changed: the features have changed the state by the time it runs.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   CombineReducers {
  ///     Scope(state: \.profile, action: .profile) { Profile() }
  ///     Reduce { state, action in ... }
  ///       .presents(\.settingsSheet, action: .settingsSheet) { SettingsEditor() }
  ///   }
  ///   .onChange(of: \.settings) { _, settings in
  ///     Reduce { _, _ in
  ///       .run { _ in try await settingsClient.save(settings) }.outlivingSendersTask()
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// An effect the observer returns belongs, like any effect, to the task of the `send` whose
  /// action made the change: a change that a screen's task set off (an effect of its
  /// `appeared` action fed back a value) would have its save cancelled when the screen goes
  /// away. Work that must outlive the screen, as a save must, is marked
  /// `.outlivingSendersTask()`, as above: it still ends with this reducer's own lifetime.
  ///
  /// The observer runs for the action that made the change, after this reducer, on the state
  /// as this reducer left it; it may change the state further, and its effects are merged
  /// after this reducer's. It does not run for an action that left the value equal to what it
  /// was, as one addressed to a child that is gone does (the child's reducer and its parent's
  /// do not run for it; a reducer placed before theirs in a block still runs for such an
  /// action, and a change it makes is observed: see
  /// <doc:IdentityAndNavigation#Actions-for-missing-children>). A value holding a
  /// floating-point NaN, which `==` says differs from itself, counts as equal to what it was
  /// when it is alike field by field, a NaN taken as equal to a NaN, in an array or a
  /// dictionary too (one an action rebuilt alike included; not inside an object whose `==`
  /// finds it equal to itself, taken at its word): an action that leaves it alone does not
  /// run the observer. Where the fields cannot all be read, as in a set or behind a custom
  /// mirror, it counts as changed.
  ///
  /// - Parameters:
  ///   - toValue: Reads the value to watch from the state; a key path such as `\.settings`
  ///     will do.
  ///   - observer: Given the value before and after the action, the reducer to run.
  /// - Returns: A reducer that runs this one, then `observer` when the value changed.
  /// - Complexity: Two reads of the value and one comparison per action, beyond the
  ///   reducers' own work: keep the value small, or compare something that stands for it.
  ///   A value `==` finds changed is also walked through its mirror, down the parts that
  ///   differ only (an array's or a dictionary's equal elements are compared by `==`, not
  ///   walked), to tell a change from a NaN: about two to four times what `==` costs, more
  ///   for a deeply nested value (each level compares its part by `==` again). In a
  ///   collection whose elements hold a NaN, an element that is the same bits before and
  ///   after (copied, not written) is taken as equal unwalked; each one the action wrote or
  ///   rebuilt is walked (2,000 such rows rebuilt cost about 0.1 s in a debug build; past
  ///   100,000 walked parts the value counts as changed).
  @inlinable
  public func onChange<Value: Equatable, Observer: Reducer>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ observer:
      @escaping (
        _ oldValue: Value, _ newValue: Value
      ) -> Observer
  ) -> OnChangeReducer<Self, Value, Observer>
  where Observer.State == State, Observer.Action == Action {
    OnChangeReducer(base: self, toValue: toValue, observer: observer)
  }
}

/// A reducer that runs an observer when an action changes a value; see
/// ``Reducer/onChange(of:_:)``.
public struct OnChangeReducer<Base: Reducer, Value: Equatable, Observer: Reducer>: Reducer
where Observer.State == Base.State, Observer.Action == Base.Action {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let observer: (Value, Value) -> Observer

  @inlinable
  init(
    base: Base, toValue: @escaping (Base.State) -> Value,
    observer: @escaping (Value, Value) -> Observer
  ) {
    self.base = base
    self.toValue = toValue
    self.observer = observer
  }

  /// Runs the base reducer, then the observer if the value changed.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: The base reducer's effects, then the observer's.
  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = value(in: &state)
    let effect = base.reduce(into: &state, action: action)
    let newValue = value(in: &state)
    // A value holding a NaN is not equal to an equal copy, or to itself: without the second
    // check, it would look changed at every action.
    guard oldValue != newValue, !areEqualDespiteNaN(oldValue, newValue) else { return effect }
    return merged(effect, observer(oldValue, newValue).reduce(into: &state, action: action))
  }

  /// The value, read where the state lies: passed by value, a large state would be copied
  /// onto the stack first in a debug build.
  @inlinable
  func value(in state: inout Base.State) -> Value {
    withUnsafePointer(to: &state) { toValue($0.pointee) }
  }
}
