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
/// A case without a payload has a key whose value is `Void`, for a test to receive it by key
/// (`receive(CaseKey.rows[id: 3].appending(.saved))`):
///
/// ```swift
/// extension CaseKey<Row.Action, Void> {
///   static var saved: Self { Self({ .saved }) { if case .saved = $0 { () } else { nil } } }
/// }
/// ```
///
/// A key declared `internal` in a feature's module is seen by its tests through
/// `@testable import`; declare it `public` for other modules.
///
/// Extraction is a plain `if case`: no reflection, no allocation. A key is known by where it
/// is created, so two cases with the same payload types (an `add` and an `edit` of one form)
/// have distinct keys, and scoped stores of their own.
///
/// > Important: Create each key where it is declared, as above. Keys made inside a shared
/// > helper function are all created at one place, the helper's `CaseKey(...)` call, so the
/// > store takes them for one key: scoping through `.edit` would hand out the store made for
/// > `.add`, whose actions go to `.add`. A helper that makes keys must take the place of its
/// > caller and pass it on:
/// >
/// > ```swift
/// > func key<Root, Value>(
/// >   _ embed: @escaping @Sendable (Value) -> Root,
/// >   _ extract: @escaping @Sendable (Root) -> Value?,
/// >   fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
/// > ) -> CaseKey<Root, Value> {
/// >   CaseKey(embed, extract: extract, fileID: fileID, line: line, column: column)
/// > }
/// > ```
///
/// Keys live on `CaseKey`, not on the action type, for the type checker's sake: a static
/// property on the action type with the case's name makes every use of that name ambiguous
/// between the case and the key, and in a chain of `scope` calls those ambiguities multiply
/// (a chain of 10 scopes took 0.9 s to type-check that way, and 13 ms this way). A generic
/// feature's action type cannot be named in such an extension; declare its keys on the
/// action type under names of their own (`static var childKey: CaseKey<Self, Child.Action>`),
/// and make its generic parameters `Sendable` (`struct Parent<D: Reducer & Sendable>`): the
/// key's `@Sendable` closures capture their types, which Swift 6.2 warns of otherwise
/// (`capture of non-Sendable type 'D.Type' in an isolated closure`).
public struct CaseKey<Root, Value>: Sendable {
  /// Wraps a value in the case.
  public let embed: @Sendable (Value) -> Root
  /// Gets the value out of the case, or `nil` for any other case.
  public let extract: @Sendable (Root) -> Value?
  /// Where the key was created (each link's, for a key made by ``appending(_:)``): what tells
  /// two keys with the same types apart, so that scoping through one case never hands out
  /// the store of another.
  @usableFromInline package let identity: CaseKeyIdentity

  /// Creates a key from the case's constructor and a matching extractor, which can be given
  /// as a trailing closure: `Self(Action.cart) { if case .cart(let a) = $0 { a } else { nil } }`.
  ///
  /// - Parameters:
  ///   - embed: The case constructor, such as `Action.cart`.
  ///   - extract: Returns the payload when the value is that case, otherwise `nil`.
  ///   - fileID: Where the key is created: leave the default, unless this is called from a
  ///     function that makes keys, which must pass its caller's. Two keys created at one
  ///     place are the same key, whatever cases they are for.
  ///   - line: Where the key is created: leave the default.
  ///   - column: Where the key is created: leave the default.
  public init(
    _ embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.embed = embed
    self.extract = extract
    self.identity = CaseKeyIdentity(fileID: fileID, line: line, column: column)
  }

  init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?,
    identity: CaseKeyIdentity
  ) {
    self.embed = embed
    self.extract = extract
    self.identity = identity
  }

  /// A key into a case of the payload, reached through this case.
  ///
  /// - Parameter next: A key into `Value`'s cases.
  /// - Returns: A key from `Root` straight to the nested payload.
  public func appending<Next>(_ next: CaseKey<Value, Next>) -> CaseKey<Root, Next> {
    CaseKey<Root, Next>(
      embed: { self.embed(next.embed($0)) },
      extract: { self.extract($0).flatMap(next.extract) },
      identity: identity.appending(next.identity)
    )
  }
}

/// Where a ``CaseKey`` was created.
///
/// Two words, both plain integers: keys are created often (a reducer's `body` may be built
/// for every action), and a larger key, or one that holds a reference, measurably slows down
/// every action through a `Scope` (10 nested scopes went from 1.3 to 7 times the cost of one
/// with a third word).
@usableFromInline
package struct CaseKeyIdentity: Hashable, Sendable {
  /// The address of the `#fileID` literal (one per creation site; code inlined into another
  /// module has its own copy, so a key created in `@inlinable` code may get two identities,
  /// and two stores); for a key made by `appending(_:)`, a digest of it and the appended
  /// key's identity instead.
  @usableFromInline let file: UInt
  /// The line and column.
  @usableFromInline let position: UInt64

  @usableFromInline
  init(fileID: StaticString, line: UInt, column: UInt) {
    file = UInt(bitPattern: fileID.utf8Start)
    position = UInt64(truncatingIfNeeded: line) << 24 | UInt64(truncatingIfNeeded: column)
  }

  private init(file: UInt, position: UInt64) {
    self.file = file
    self.position = position
  }

  /// The identity of a key the library makes for one child: an element's or a screen's id,
  /// the presented child, a dismissal. Keys for two ids differ (as far as their hashes do),
  /// so that scoping through them never hands out one child's store for the other.
  init(child: some Hashable) {
    self.init(file: UInt(bitPattern: child.hashValue), position: 0x0C_417D)
  }

  /// The identity of this key with `other` appended: this key's position, and a digest of
  /// both keys' file words and `other`'s position for the file word (as wide as a word, and
  /// not linear, so that appending a key twice, or two keys in either order, differ).
  func appending(_ other: Self) -> Self {
    func mix(_ digest: UInt64, _ word: UInt64) -> UInt64 {
      let multiplied = (digest ^ word) &* 0x100_0000_01b3
      return multiplied ^ (multiplied >> 29)
    }
    var digest: UInt64 = 0xcbf2_9ce4_8422_2325
    digest = mix(digest, UInt64(truncatingIfNeeded: file))
    digest = mix(digest, other.position)
    digest = mix(digest, UInt64(truncatingIfNeeded: other.file))
    return Self(file: UInt(truncatingIfNeeded: digest), position: position)
  }
}
