/// An action that a parent's reducer hands on to one of its children: an element of a
/// collection, a screen of a stack, a presented child. A test store names the operator that
/// routes it when such an action changed nothing that the test expected it to change: without
/// that operator in the parent's body, no reducer sees the action, and nothing warns.
package protocol ChildAddressedAction {
  /// The operator that hands the action on (`forEach`, `navigationStack`, `presents`), or
  /// `nil` for an action the parent's operator handles itself (a push, a pop, a dismissal).
  var routingOperator: String? { get }
}

extension IdentifiedAction: ChildAddressedAction {
  package var routingOperator: String? { "forEach" }
}

extension StackAction: ChildAddressedAction {
  package var routingOperator: String? {
    if case .element = self { return "navigationStack" }
    return nil
  }
}

extension PresentationAction: ChildAddressedAction {
  package var routingOperator: String? {
    if case .presented = self { return "presents" }
    return nil
  }
}
