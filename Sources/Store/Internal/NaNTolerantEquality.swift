#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether two values are equal as `==` would find them if a floating-point NaN were equal
/// to a NaN: for a non-exhaustive test step, whose expected state is the actual one with what
/// the closure sets, so that a NaN the closure did not touch does not fail it; and for
/// `onChange`, so that a value holding a NaN that an action left alone is not a change.
///
/// The two values are walked together through `Mirror`, and each pair met is decided by the
/// first rule that applies:
///
/// - Values of different types differ.
/// - An `Equatable` pair is equal when `==` finds it equal. A floating-point pair `==` finds
///   unequal is equal when both are NaN. Two objects each equal to itself that `==` finds
///   unequal differ (their `==` tells them apart, most likely by identity). Any other pair
///   `==` finds unequal is walked as below, and is equal only if every part matches and a NaN
///   among them explains the `==` that failed: being equal to itself says nothing of a value,
///   as an array holding a NaN is equal to itself through its shared storage. An array's (an
///   identified array's, a dictionary's) `Equatable` elements are compared by `==`, and only
///   those it rejects are walked.
/// - A class instance that is not `Equatable` is equal only to itself.
/// - Structs, tuples, enum payloads, optionals, arrays, identified arrays and stacks are
///   walked field by field (element by element); a dictionary's values are matched by key.
///
/// Whatever the walk cannot read whole counts as a difference, so that no two values that
/// differ are taken as equal: a value with a mirror of its own (which may leave fields out), a
/// set (a NaN in an element cannot be matched by hashing), a payload-less enum case that is
/// not `Equatable`, a compiler builtin other than a SIMD vector's lanes, and anything deeper
/// than ``maxDepth`` levels. A hand-written `==` is taken to compare each stored property
/// through that property's own `==` (or to compare less).
package enum NaNTolerantEquality {
  /// How a pair compares.
  enum Outcome {
    /// The values differ, or the walk cannot tell that they do not.
    case different
    /// The values are equal, every pair met as `==` finds them.
    case equal
    /// The values are equal only because a NaN is taken as equal to a NaN.
    case equalTakingNaNAsNaN

    /// Takes in the outcome of one more pair that must match, as the outcome of all of them:
    /// false, and `.different`, once that pair differs.
    mutating func absorb(_ outcome: Outcome) -> Bool {
      if outcome != .equal { self = outcome }
      return outcome != .different
    }
  }

  /// How many levels are walked before the rest counts as a difference: well past any real
  /// state, and a bound on a graph of objects that refer to each other.
  static let maxDepth = 64

  /// How many pairs a comparison visits before the rest counts as a difference: a value
  /// that shares its parts (a tree whose two branches are one value, nested 20 times) has
  /// few of them but millions of paths to them, and a walk by paths took minutes.
  static let maxVisits = 100_000

  /// Where a comparison is: how deep, and how many pairs it visited, shared by every level.
  struct Walk {
    /// The levels below the root.
    var depth = 0
    /// The pairs visited, counted across the whole comparison.
    let visits = Counter()

    /// A counter shared by the levels of one comparison.
    final class Counter {
      /// The pairs visited so far.
      var count = 0
    }

    /// The walk one level down.
    var deeper: Walk {
      var next = self
      next.depth += 1
      return next
    }

    /// Counts a visit; false once the walk has visited ``NaNTolerantEquality/maxVisits``.
    func visit() -> Bool {
      visits.count += 1
      return visits.count <= NaNTolerantEquality.maxVisits
    }
  }

  /// Whether `lhs` and `rhs` are equal, a NaN taken as equal to a NaN.
  ///
  /// - Complexity: O(*n*) for values of *n* fields and elements, and O(*n*) hashing for a
  ///   dictionary's keys, at most ``maxVisits`` pairs walked (past them, the values count as
  ///   different; the `Equatable` elements of a collection that `==` finds equal are not
  ///   walked, and not counted).
  package static func areEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    compare(lhs, rhs, walk: Walk()) != .different
  }

  /// How `lhs` compares with `rhs`, at `walk.depth` levels below the root.
  static func compare(_ lhs: Any, _ rhs: Any, walk: Walk) -> Outcome {
    guard walk.depth < maxDepth, walk.visit(), type(of: lhs) == type(of: rhs) else {
      return .different
    }
    if let equatable = lhs as? any Equatable {
      return compareEquatable(equatable, rhs, walk: walk)
    }
    if type(of: lhs) is AnyClass {
      // Whatever compares such objects (a hand-written `==` around them) most likely does so
      // by identity: their fields could match while they are two objects.
      return (lhs as AnyObject) === (rhs as AnyObject) ? .equal : .different
    }
    return compareFields(lhs, rhs, walk: walk)
  }

  /// How an `Equatable` pair compares: by `==`, and, when `==` fails (on anything but two
  /// objects each equal to itself), as both NaN or part by part.
  private static func compareEquatable<Value: Equatable>(_ lhs: Value, _ rhs: Any, walk: Walk)
    -> Outcome
  {
    guard let rhs = rhs as? Value else { return .different }
    if lhs == rhs { return .equal }
    // Objects each equal to themselves: `==` works for them, and tells them apart, most likely
    // by identity. A value equal to itself tells nothing: an array (or anything holding one)
    // is equal to itself through its shared storage, NaN or not, while an equal copy of it is
    // not, so a value's `==` that fails is always looked into.
    if type(of: lhs) is AnyClass, lhs == lhs, rhs == rhs { return .different }
    let outcome: Outcome
    if let number = lhs as? any FloatingPoint {
      return number.isNaN && isNaN(rhs) ? .equalTakingNaNAsNaN : .different
    } else if let vector = lhs as? any SIMD {
      outcome = compareLanes(vector, rhs, walk: walk)
    } else if let elements = lhs as? any EquatableElements {
      outcome = elements.compareElements(with: rhs, walk: walk)
    } else if let dictionary = lhs as? any EquatableValuesByKey {
      outcome = dictionary.compareValues(with: rhs, walk: walk)
    } else {
      outcome = compareFields(lhs, rhs, walk: walk)
    }
    // `==` failed through something it cannot compare: equal only if a NaN among the parts
    // is why, and every other part matches.
    return outcome == .equalTakingNaNAsNaN ? .equalTakingNaNAsNaN : .different
  }

  /// How two runs of `Equatable` elements compare: element by element with `==`, and only an
  /// element `==` rejects walked, so that a changed collection costs about what `==` costs.
  /// The elements are compared ``elementChunk`` at a time by the standard library's `==` for
  /// contiguous arrays, and only a chunk it rejects element by element: a loop here over every
  /// element, unspecialized in a debug build, took 40 times as long as `==` for a million
  /// integers (and so does `==` for array slices).
  fileprivate static func compareElements<Element: Equatable>(
    _ lhs: ArraySlice<Element>, _ rhs: ArraySlice<Element>, walk: Walk
  ) -> Outcome {
    guard lhs.count == rhs.count else { return .different }
    var result = Outcome.equal
    var offset = 0
    while offset < lhs.count {
      let end = Swift.min(offset + elementChunk, lhs.count)
      let left = ContiguousArray(lhs[(lhs.startIndex + offset)..<(lhs.startIndex + end)])
      let right = ContiguousArray(rhs[(rhs.startIndex + offset)..<(rhs.startIndex + end)])
      offset = end
      if left == right { continue }
      for (leftElement, rightElement) in zip(left, right) where leftElement != rightElement {
        guard result.absorb(compareRejected(leftElement, rightElement, walk: walk.deeper)) else {
          return .different
        }
      }
    }
    return result
  }

  /// How an element (a dictionary's value) that `==` rejected compares with its counterpart:
  /// equal, a NaN taken as equal to a NaN, when the two are one value bit for bit (the same
  /// element copied, its references to the same storage and objects), without a walk. `==`
  /// is reflexive but for a floating-point NaN, and a hand-written `==` is taken to compare
  /// stored properties by their own `==` (see ``NaNTolerantEquality``), so such a pair fails
  /// `==` only through a NaN it holds. A collection whose every element holds a NaN (a reading
  /// not yet taken) then costs a walk of the elements an action wrote, not of every element:
  /// 2,000 such rows took 0.06 to 0.1 s per action walked (a debug build), 100,000 rows past
  /// ``maxVisits`` counted as changed. Elements alike in value but not in bits (rebuilt ones,
  /// their strings in new storage) are walked.
  private static func compareRejected<Element>(_ lhs: Element, _ rhs: Element, walk: Walk)
    -> Outcome
  {
    areIdenticalBits(lhs, rhs) ? .equalTakingNaNAsNaN : compare(lhs, rhs, walk: walk)
  }

  /// Whether `lhs` and `rhs` are the same bits: the same value, its references to the same
  /// storage. Bytes a copy does not carry (padding, the unused part of an enum's payload) can
  /// make one value read as two, never two as one.
  private static func areIdenticalBits<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
    withUnsafeBytes(of: lhs) { left in
      withUnsafeBytes(of: rhs) { right in
        left.count == right.count
          && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
      }
    }
  }

  /// How many elements ``compareElements(_:_:walk:)`` copies and compares at once.
  static let elementChunk = 256

  /// How two dictionaries of `Equatable` values compare: the same keys, and each key's values
  /// by `==`, only the values `==` rejects walked. A key not equal to itself is found in
  /// neither.
  fileprivate static func compareValues<Key, Value: Equatable>(
    _ lhs: [Key: Value], _ rhs: [Key: Value], walk: Walk
  ) -> Outcome {
    guard lhs.count == rhs.count else { return .different }
    var result = Outcome.equal
    for (key, value) in lhs {
      guard let other = rhs[key] else { return .different }
      if value == other { continue }
      guard result.absorb(compareRejected(value, other, walk: walk.deeper)) else {
        return .different
      }
    }
    return result
  }

  /// Whether `value` is a floating-point NaN.
  private static func isNaN(_ value: Any) -> Bool {
    (value as? any FloatingPoint)?.isNaN ?? false
  }

  /// How two SIMD vectors compare lane by lane: their storage is a compiler builtin, which a
  /// mirror does not show.
  private static func compareLanes<Vector: SIMD>(_ lhs: Vector, _ rhs: Any, walk: Walk)
    -> Outcome
  {
    guard let rhs = rhs as? Vector else { return .different }
    return combine(lhs.indices.lazy.map { compare(lhs[$0], rhs[$0], walk: walk.deeper) })
  }

  /// How two values of one type compare through their mirrors: field by field, element by
  /// element, or by key.
  private static func compareFields(_ lhs: Any, _ rhs: Any, walk: Walk) -> Outcome {
    if let dictionary = lhs as? any KeyedValues, let other = rhs as? any KeyedValues {
      return compareByKey(dictionary.valuesByKey, other.valuesByKey, walk: walk)
    }
    // A mirror of its own may leave out what `==` compares.
    guard !(lhs is CustomReflectable) || lhs is any FullyMirrored else { return .different }
    let left = mirrors(of: lhs)
    let right = mirrors(of: rhs)
    guard left.count == right.count else { return .different }
    var outcomes: [Outcome] = []
    for (leftMirror, rightMirror) in zip(left, right) {
      switch leftMirror.displayStyle {
      // A set's elements cannot be matched by hashing when one holds a NaN. A value with no
      // display style (a compiler builtin, shown as `(Opaque Value)`, a closure) shows
      // nothing.
      case .set, .dictionary, nil: return .different
      case .enum where leftMirror.children.isEmpty:
        // A case without a payload is named by nothing a mirror shows.
        return .different
      default: break
      }
      let leftChildren = Array(leftMirror.children)
      let rightChildren = Array(rightMirror.children)
      guard leftChildren.count == rightChildren.count else { return .different }
      for (leftChild, rightChild) in zip(leftChildren, rightChildren) {
        // An enum's case is its payload's label.
        guard leftChild.label == rightChild.label else { return .different }
        let outcome = compare(leftChild.value, rightChild.value, walk: walk.deeper)
        guard outcome != .different else { return .different }
        outcomes.append(outcome)
      }
    }
    return combine(outcomes)
  }

  /// The mirrors of a value: its own, and for a class instance, those of its superclasses,
  /// whose stored properties it holds too.
  private static func mirrors(of value: Any) -> [Mirror] {
    var mirrors = [Mirror(reflecting: value)]
    while let superclass = mirrors.last?.superclassMirror { mirrors.append(superclass) }
    return mirrors
  }

  /// How two dictionaries compare: the same keys, and values that compare equal key by key.
  /// A key not equal to itself is found in neither.
  private static func compareByKey(
    _ lhs: [AnyHashable: Any], _ rhs: [AnyHashable: Any], walk: Walk
  ) -> Outcome {
    guard lhs.count == rhs.count else { return .different }
    var outcomes: [Outcome] = []
    for (key, value) in lhs {
      guard let other = rhs[key] else { return .different }
      let outcome = compare(value, other, walk: walk.deeper)
      guard outcome != .different else { return .different }
      outcomes.append(outcome)
    }
    return combine(outcomes)
  }

  /// The outcome of pairs that all must match.
  private static func combine(_ outcomes: some Sequence<Outcome>) -> Outcome {
    var result = Outcome.equal
    for outcome in outcomes {
      guard result.absorb(outcome) else { return .different }
    }
    return result
  }
}

/// Whether `old` and `new`, which `==` says differ, are equal all the same: equal part by part
/// with a NaN taken as equal to a NaN (see `NaNTolerantEquality`). The one gate for both of its
/// users: `onChange`, which without it saw a value holding a NaN change at every action (and ran
/// forever when its observer sent one), and a non-exhaustive test step, whose expected state
/// holds the NaN it did not touch. Whether `new` is equal to itself cannot decide it: an array
/// holding a NaN is, through its shared storage, while an equal copy of it is not.
///
/// - Parameters:
///   - old: The value before (for a test step, the expected state).
///   - new: The value after (for a test step, the actual state).
/// - Returns: Whether they differ only by a NaN, taken as equal to a NaN.
/// - Complexity: A walk of both values down the parts `==` finds different: about two to four
///   times what `==` costs for arrays and dictionaries of `Equatable` elements; `==` again at
///   each level of a nested value; a walk of each element holding a NaN that is not the same
///   bits on both sides (one an action wrote or rebuilt).
@usableFromInline
package func areEqualDespiteNaN<Value: Equatable>(_ old: Value, _ new: Value) -> Bool {
  NaNTolerantEquality.areEqual(old, new)
}

/// A type whose custom mirror shows everything its `==` compares, in order.
private protocol FullyMirrored {}

extension Array: FullyMirrored {}
extension ContiguousArray: FullyMirrored {}
extension ArraySlice: FullyMirrored {}
extension Optional: FullyMirrored {}
extension IdentifiedArray: FullyMirrored {}
extension StackState: FullyMirrored {}
extension StackState.Entry: FullyMirrored {}

/// A collection of `Equatable` elements whose `==` compares them in order, and nothing else.
private protocol EquatableElements {
  /// The type of the elements.
  associatedtype EquatableElement: Equatable
  /// The elements in order, as `==` compares them.
  var elementSlice: ArraySlice<EquatableElement> { get }
}

extension EquatableElements {
  /// How this collection compares with `other`, of the same type, element by element.
  func compareElements(with other: Any, walk: NaNTolerantEquality.Walk)
    -> NaNTolerantEquality.Outcome
  {
    guard let other = other as? Self else { return .different }
    return NaNTolerantEquality.compareElements(elementSlice, other.elementSlice, walk: walk)
  }
}

extension Array: EquatableElements where Element: Equatable {
  var elementSlice: ArraySlice<Element> { self[...] }
}

extension ContiguousArray: EquatableElements where Element: Equatable {
  var elementSlice: ArraySlice<Element> { self[...] }
}

extension ArraySlice: EquatableElements where Element: Equatable {
  var elementSlice: ArraySlice<Element> { self }
}

extension IdentifiedArray: EquatableElements where Element: Equatable {
  var elementSlice: ArraySlice<Element> { storage[...] }
}

/// A dictionary of `Equatable` values.
private protocol EquatableValuesByKey {
  /// How this dictionary compares with `other`, of the same type, key by key.
  func compareValues(with other: Any, walk: NaNTolerantEquality.Walk)
    -> NaNTolerantEquality.Outcome
}

extension Dictionary: EquatableValuesByKey where Value: Equatable {
  func compareValues(with other: Any, walk: NaNTolerantEquality.Walk)
    -> NaNTolerantEquality.Outcome
  {
    guard let other = other as? Self else { return .different }
    return NaNTolerantEquality.compareValues(self, other, walk: walk)
  }
}

/// A dictionary, whose mirror lists its entries in the order of its hash table.
private protocol KeyedValues {
  /// The values, each under its key.
  var valuesByKey: [AnyHashable: Any] { get }
}

extension Dictionary: KeyedValues {
  var valuesByKey: [AnyHashable: Any] {
    var result: [AnyHashable: Any] = [:]
    for (key, value) in self { result[AnyHashable(key)] = value }
    return result
  }
}
