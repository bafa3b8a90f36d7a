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

  /// Creates a reducer that runs another reducer, erasing its type.
  ///
  /// - Parameter reducer: The reducer to run.
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
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
