/// How to put a value into one case of an enum, and get it back out: a one-line stand-in for
/// a macro-generated case path.
///
/// Parents embed child actions in a case of their own action enum. Declare one key per such
/// case, with the same name as the case; Swift picks the case or the key by the type it needs.
///
/// ```swift
/// enum Action: Sendable {
///   case cart(Cart.Action)
///   case account(Account.Action)
/// }
///
/// extension Action {
///   static let cart = CaseKey(Self.cart) { if case .cart(let a) = $0 { a } else { nil } }
///   static let account = CaseKey(Self.account) { if case .account(let a) = $0 { a } else { nil } }
/// }
///
/// Scope(state: \.cart, action: Action.cart) { Cart() }   // the key
/// store.send(.cart(.checkoutTapped))                      // the case
/// ```
///
/// Extraction is a plain `if case`: no reflection, no allocation.
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
