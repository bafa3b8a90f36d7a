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

/// A reducer with `R`'s state and action, for the opaque type of a `body`:
/// `var body: some ReducerOf<Self>` is `var body: some Reducer<State, Action>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

/// An effect that feeds back `R`'s actions: `EffectOf<Self>` in a reducer is
/// `Effect<Action>`.
public typealias EffectOf<R: Reducer> = Effect<R.Action>
