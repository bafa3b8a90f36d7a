import Effects

/// Builds a reducer from a block of reducers run in order: the `body` of a ``Reducer``.
///
/// Blocks are built pairwise, so a body of *n* reducers costs the type checker O(*n*) work,
/// however deep the scopes nest. `if`, `if`/`else`, `switch` and `for` are supported.
@resultBuilder
public enum ReducerBuilder<State, Action: Sendable> {
  // Parameters are `consuming`: a body is built again at every action, and a borrowed reducer
  // returned or stored had to be copied (a retain of each key path and closure it holds, and
  // their releases). Consumed, it is moved: an action through an `ifCaseLet` took 1,054
  // instructions in the builder's code, 770 consumed; bench rows 12 and 27, 2.90-3.19 and
  // 13.1-13.3 times a `Scope`, 2.29-2.51 and 10.3-10.8.
  /// Accepts a reducer over this block's state and action.
  @inlinable
  public static func buildExpression<R: Reducer>(_ reducer: consuming R) -> R
  where R.State == State, R.Action == Action {
    reducer
  }

  /// An empty block: a reducer that does nothing.
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  /// The first reducer of a block.
  @inlinable
  public static func buildPartialBlock<R: Reducer>(first: consuming R) -> R
  where R.State == State, R.Action == Action {
    first
  }

  /// The reducers so far, followed by the next one.
  @inlinable
  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
    accumulated: consuming R0,
    next: consuming R1
  ) -> CombinedReducer<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    CombinedReducer(accumulated, next)
  }

  /// An `if` without `else`.
  @inlinable
  public static func buildOptional<R: Reducer>(_ reducer: consuming R?) -> ConditionalReducer<R>
  where R.State == State, R.Action == Action {
    ConditionalReducer(reducer)
  }

  /// The first branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(first reducer: consuming R0)
    -> EitherReducer<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    .first(reducer)
  }

  /// The second branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(second reducer: consuming R1)
    -> EitherReducer<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    .second(reducer)
  }

  /// A `for` loop.
  @inlinable
  public static func buildArray<R: Reducer>(_ reducers: consuming [R]) -> ReducerLoop<R>
  where R.State == State, R.Action == Action {
    ReducerLoop(reducers)
  }

  /// An `if #available` block.
  @inlinable
  public static func buildLimitedAvailability<R: Reducer>(
    _ reducer: consuming R
  ) -> Reduce<State, Action>
  where R.State == State, R.Action == Action {
    Reduce(erasing: reducer)
  }
}
