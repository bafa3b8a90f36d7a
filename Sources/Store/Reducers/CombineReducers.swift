import Effects

/// Runs several reducers in order, as one.
///
/// Each reducer sees the state left by the one before it; their effects are merged. An
/// action one of them finds addressed to a child that is gone (a removed row, a `nil` child,
/// another case, at any depth below it through the library's reducers) stops there: the
/// reducers after it do not run for it. A ``Reducer/body`` combines its reducers the same way, so `CombineReducers` is needed only
/// where a single reducer value is expected, such as the receiver of a modifier like `ifLet`
/// (the child closures of ``Scope``, `ifLet`, `presents`, `ifCaseLet`, `forEach` and
/// `navigationStack` are builders already).
///
/// ```swift
/// CombineReducers {
///   Validation()
///   Persistence()
/// }
/// ```
public struct CombineReducers<State, Action: Sendable, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  @usableFromInline
  let reducers: Reducers

  /// Combines the reducers `build` lists.
  ///
  /// - Parameter build: The reducers to run, in order.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  /// Runs the combined reducers in order.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: Their effects, merged.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}

/// Two reducers run one after the other; what ``ReducerBuilder`` builds a block from.
public struct CombinedReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  @usableFromInline let first: First
  @usableFromInline let second: Second

  @inlinable
  init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  /// Runs the first reducer, then the second (unless the first found the action addressed
  /// to a child that is gone), and merges their effects.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: Both reducers' effects, merged.
  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    let firstEffect = first.reduce(into: &state, action: action)
    // An action for a child that is not there, which the first found (a `Scope` whose child
    // has a `forEach`, say), changes nothing: the reducers after it do not run for it.
    if firstEffect.isForMissingChild { return firstEffect }
    let secondEffect = second.reduce(into: &state, action: action)
    if firstEffect.isNone { return secondEffect }
    if secondEffect.isNone { return firstEffect }
    return firstEffect.merge(with: secondEffect)
  }
}

/// A reducer that does nothing: the empty block, or the missing branch of an `if`.
public struct EmptyReducer<State, Action: Sendable>: Reducer {
  /// Creates a reducer that does nothing.
  @inlinable
  public init() {}

  /// Leaves the state alone.
  ///
  /// - Parameters:
  ///   - state: The state, unchanged.
  ///   - action: The action, ignored.
  /// - Returns: `.none`.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}

/// One of two reducers, chosen by an `if`/`else` or `switch` in a ``ReducerBuilder`` block.
public enum EitherReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  /// The reducer of the first branch.
  case first(First)
  /// The reducer of the second branch.
  case second(Second)

  /// Runs the chosen reducer.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: The chosen reducer's effect.
  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case .first(let reducer): reducer.reduce(into: &state, action: action)
    case .second(let reducer): reducer.reduce(into: &state, action: action)
    }
  }
}

/// A reducer that runs only when an `if` without `else` in a ``ReducerBuilder`` block holds.
public struct ConditionalReducer<Wrapped: Reducer>: Reducer {
  @usableFromInline let wrapped: Wrapped?

  @inlinable
  init(_ wrapped: Wrapped?) {
    self.wrapped = wrapped
  }

  /// Runs the wrapped reducer when the condition held; otherwise does nothing.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: The wrapped reducer's effect, or `.none`.
  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action)
    -> Effect<Wrapped.Action>
  {
    wrapped?.reduce(into: &state, action: action) ?? .none
  }
}

/// The reducers a `for` loop in a ``ReducerBuilder`` block produces, run in order.
public struct ReducerLoop<Element: Reducer>: Reducer {
  @usableFromInline let reducers: [Element]

  @inlinable
  init(_ reducers: [Element]) {
    self.reducers = reducers
  }

  /// Runs every reducer in order.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: The reducers' effects, merged.
  /// - Complexity: O(*n*) in the number of reducers.
  @inlinable
  public func reduce(into state: inout Element.State, action: Element.Action)
    -> Effect<Element.Action>
  {
    var effects: [Effect<Element.Action>] = []
    for reducer in reducers {
      let effect = reducer.reduce(into: &state, action: action)
      effects.append(effect)
      // An action for a child that is not there: the reducers after this one do not run.
      if effect.isForMissingChild { break }
    }
    return .merge(effects)
  }
}
