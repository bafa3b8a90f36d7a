import Effects

/// A reducer made from a closure, for logic that does not need a type of its own.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.cart, action: .cart) { Cart() }
///   Reduce { state, action in
///     if case .cart(.checkoutSucceeded) = action { state.banner = "Thank you!" }
///     return .none
///   }
/// }
/// ```
public struct Reduce<State, Action: Sendable>: Reducer {
  @usableFromInline
  let run: (inout State, Action) -> Effect<Action>

  /// Creates a reducer that runs `reduce`.
  ///
  /// - Parameter reduce: Changes the state for an action and returns the effects to run.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.run = reduce
  }

  /// A reducer that runs `reducer`, its type erased: for ``ReducerBuilder``'s
  /// `buildLimitedAvailability(_:)` and ``Reducer/eraseToReduce()``.
  ///
  /// Labelled, and not public: a trailing closure can match any first parameter, so a public
  /// `init(_:)` taking a reducer was tried whenever a `Reduce { state, action in ... }`
  /// closure did not type-check, and the compiler reported that the closure is not a reducer,
  /// at the `Reduce {` line, instead of the mistake inside it.
  @inlinable
  init<R: Reducer>(erasing reducer: R) where R.State == State, R.Action == Action {
    self.run = { reducer.reduce(into: &$0, action: $1) }
  }

  /// Runs the closure.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: The closure's effect.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    run(&state, action)
  }
}

extension Reducer {
  /// This reducer, its type erased to ``Reduce``: for a value whose reducer is picked at run
  /// time (inside a `body`, `if` and `switch` need no erasing).
  ///
  /// ```swift
  /// let logic: Reduce<State, Action> = isOffline ? Offline().eraseToReduce() : Live().eraseToReduce()
  /// ```
  ///
  /// - Returns: A reducer that runs this one.
  @inlinable
  public func eraseToReduce() -> Reduce<State, Action> {
    Reduce(erasing: self)
  }
}

extension Reduce {
  /// This reducer itself: it is a ``Reduce`` already, and is not wrapped again.
  ///
  /// - Returns: `self`.
  @inlinable
  public func eraseToReduce() -> Reduce<State, Action> {
    self
  }
}
