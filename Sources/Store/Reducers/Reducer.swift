import Effects

/// A feature's logic: how its state changes in response to each action, and what effects to
/// run afterwards.
///
/// State is a value type, actions are an enum, and ``reduce(into:action:)`` is pure apart from
/// the `Effect` it returns. Write a reducer either by implementing `reduce(into:action:)`, or
/// by composing other reducers in ``body``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action: Sendable { case incrementTapped, decrementTapped }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .incrementTapped: state.count += 1
///     case .decrementTapped: state.count -= 1
///     }
///     return .none
///   }
/// }
///
/// struct App: Reducer {
///   struct State { var counter = Counter.State() }
///   enum Action: Sendable { case counter(Counter.Action) }
///
///   var body: some Reducer<State, Action> {
///     Scope(state: \.counter, action: .counter) { Counter() }
///   }
/// }
///
/// extension CaseKey<App.Action, Counter.Action> {
///   static var counter: Self {
///     Self(App.Action.counter) { if case .counter(let a) = $0 { a } else { nil } }
///   }
/// }
/// ```
public protocol Reducer<State, Action> {
  /// The feature's state: a value type.
  associatedtype State
  /// The events and commands the feature handles: an enum.
  associatedtype Action: Sendable
  /// The reducer this one is composed of, or `Never` when it implements
  /// ``reduce(into:action:)`` itself.
  associatedtype Body

  /// Applies `action` to `state` and returns the effects to run afterwards.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: The work to run after the change, or `.none`.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is built from, combined in order.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` has no body; this is never called.
  public var body: Body {
    fatalError("\(Self.self) implements reduce(into:action:) and has no body to read.")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body``.
  ///
  /// - Parameters:
  ///   - state: The state to change in place.
  ///   - action: The action to handle.
  /// - Returns: The effects of the body's reducers, merged.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

extension Reducer {
  /// A case key into this reducer's actions: in ``body``, `action: ActionKey.rows` is
  /// `action: .rows` with the key's action type named, so that the type checker looks for
  /// `rows` among the keys of this reducer's actions alone.
  ///
  /// A leading dot leaves the key's root to be inferred, and the type checker weighs every key
  /// with that name declared on `CaseKey` where the body can see it: each feature of a module
  /// that names a case `alert`, `rows` or `path` adds a candidate to every other feature's
  /// chain. While the chain's head does not name its types (`EmptyReducer()`,
  /// `Reduce { state, action in ... }`), the candidates of its links are tried together: a
  /// trial's four-case destination chain took 1.1 s to type-check with ten other features
  /// using its four names, and failed ("unable to type-check this expression in reasonable
  /// time") with forty; with `ActionKey` and ``StateKey``, 5 to 30 ms. Naming the head's types
  /// (`EmptyReducer<State, Action>()`) is enough for shared names, not for long chains.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   EmptyReducer()
  ///     .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Editor() }
  ///     .ifCaseLet(StateKey.alert, action: ActionKey.alert)
  /// }
  /// ```
  ///
  /// In a test, `Parent.ActionKey.rows[id: 1]` names the root the same way.
  public typealias ActionKey<Value> = CaseKey<Action, Value>

  /// A case key into this reducer's state, an enum: in ``body``,
  /// `.ifCaseLet(StateKey.edit, action: ActionKey.edit)` names the keys' roots, as
  /// ``ActionKey`` does for actions.
  public typealias StateKey<Value> = CaseKey<State, Value>
}

/// A reducer with `R`'s state and action, for the opaque type of a `body`:
/// `var body: some ReducerOf<Self>` is `var body: some Reducer<State, Action>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

/// An effect that feeds back `R`'s actions: `EffectOf<Self>` in a reducer is
/// `Effect<Action>`.
public typealias EffectOf<R: Reducer> = Effect<R.Action>
