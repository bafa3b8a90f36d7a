// The spellings the presentation and stack modifiers had before they got names of their own
// (and that The Composable Architecture uses), kept unavailable so that code written with
// them fails with "has been renamed to", and a fix-it, instead of an error about mismatched
// generic types. The type checker looks at an unavailable overload only when nothing else
// fits, so these cost a correct modifier chain nothing (LongModifierChainTests).

extension Reducer {
  /// Renamed ``Reducer/presents(_:action:fileID:line:child:)``: a child whose actions come
  /// wrapped in a ``PresentationAction`` is attached with `presents`.
  @available(
    *, unavailable, renamed: "presents(_:action:fileID:line:child:)",
    message: "a child whose actions come in a PresentationAction is attached with presents"
  )
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChild: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CaseKey<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) -> IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    fatalError("unavailable")
  }

  /// Renamed ``Reducer/presents(_:action:fileID:line:)``: a destination with no reducer of
  /// its own, such as an alert, is attached with `presents`.
  @available(
    *, unavailable, renamed: "presents(_:action:fileID:line:)",
    message: "an alert or another destination with no reducer is attached with presents"
  )
  public func ifLet<ChildState, ChildAction: Sendable>(
    _ toChild: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CaseKey<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    fatalError("unavailable")
  }

  /// Renamed ``Reducer/navigationStack(_:action:fileID:line:destination:)``: the screens of a
  /// ``StackState`` are run with `navigationStack`.
  @available(
    *, unavailable, renamed: "navigationStack(_:action:fileID:line:destination:)",
    message: "the screens of a StackState are run with navigationStack"
  )
  public func forEach<DestinationState: Sendable, DestinationAction, Destination: Reducer>(
    _ toStack: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKey<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> Self
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    fatalError("unavailable")
  }

  /// Renamed ``Reducer/navigationStack(_:action:fileID:line:)``: a stack of routes is handled
  /// with `navigationStack`.
  @available(
    *, unavailable, renamed: "navigationStack(_:action:fileID:line:)",
    message: "a StackState of routes is handled with navigationStack"
  )
  public func forEach<Route: Sendable>(
    _ toStack: WritableKeyPath<State, StackState<Route>>,
    action toStackAction: CaseKey<Action, StackAction<Route, Never>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    fatalError("unavailable")
  }
}
