/// How to put a value into one case of an enum, and get it back out: a one-line stand-in for
/// a macro-generated case path.
///
/// Parents embed child actions in a case of their own action enum. Declare one key per such
/// case, as a static property of `CaseKey` named like the case, and write it as `.cart` where
/// a key is expected:
///
/// ```swift
/// enum Action: Sendable {
///   case cart(Cart.Action)
///   case account(Account.Action)
/// }
///
/// extension CaseKey<Action, Cart.Action> {
///   static var cart: Self { Self(Action.cart) { if case .cart(let a) = $0 { a } else { nil } } }
/// }
///
/// Scope(state: \.cart, action: .cart) { Cart() }   // the key
/// store.send(.cart(.checkoutTapped))           // the case
/// ```
///
/// Extraction is a plain `if case`: no reflection, no allocation.
///
/// Keys live on `CaseKey`, not on the action type, for the type checker's sake: a static
/// property on the action type with the case's name makes every use of that name ambiguous
/// between the case and the key, and in a chain of `scope` calls those ambiguities multiply
/// (a chain of 10 scopes took 0.9 s to type-check that way, and 7 ms this way). A generic
/// feature's action type cannot be named in such an extension; declare its keys on the
/// action type under names of their own (`static var childKey: CaseKey<Self, Child.Action>`).
public struct CaseKey<Root, Value>: Sendable {
  /// Wraps a value in the case.
  public let embed: @Sendable (Value) -> Root
  /// Gets the value out of the case, or `nil` for any other case.
  public let extract: @Sendable (Root) -> Value?

  /// Creates a key from the case's constructor and a matching extractor.
  ///
  /// - Parameters:
  ///   - embed: The case constructor, such as `Action.cart`.
  ///   - extract: Returns the payload when the value is that case, otherwise `nil`.
  public init(
    _ embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }

  /// Creates a key from the case's constructor and a matching extractor, given as a trailing
  /// closure.
  ///
  /// - Parameters:
  ///   - embed: The case constructor, such as `Action.cart`.
  ///   - extract: Returns the payload when the value is that case, otherwise `nil`.
  public init(
    _ embed: @escaping @Sendable (Value) -> Root,
    _ extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.init(embed, extract: extract)
  }

  /// A key into a case of the payload, reached through this case.
  ///
  /// - Parameter next: A key into `Value`'s cases.
  /// - Returns: A key from `Root` straight to the nested payload.
  public func appending<Next>(_ next: CaseKey<Value, Next>) -> CaseKey<Root, Next> {
    CaseKey<Root, Next>(
      { self.embed(next.embed($0)) },
      extract: { self.extract($0).flatMap(next.extract) }
    )
  }
}
