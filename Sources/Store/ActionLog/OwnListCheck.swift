/// What a value that wraps a set or a dictionary (its only stored property) wrote into its
/// own encoder's unkeyed container, checked against what the collection's own encoding
/// writes there: whether the canonical JSON may sort that list.
///
/// A wrapper that hands the collection its own encoder (`try values.encode(to: encoder)`)
/// writes the collection's list, in iteration order, which changes with the hash seed: it
/// must be sorted. A wrapper that writes a list of its own (a `[Int: String]`'s values in the
/// order of their keys) writes an order that may mean something: sorted, two different values
/// would have the same canonical form. The walk sees the same calls either way, so what is
/// written is checked instead: a list that holds what the collection's own encoding holds
/// (each element of a set once; each key of a dictionary once, each followed by a value of
/// the dictionary's type), in whatever order, tells no more than the collection does, and is
/// sorted with nothing lost. Any other list keeps its order. (An optional element or value
/// may be written unwrapped, and a nil with `encodeNil()`: the JSON is the same.)
///
/// "No more than the collection" is as far as a mirror tells: the wrapper's one stored
/// property is the collection. What the mirror does not show, such as the case of an enum
/// whose cases each hold one set and write it in an order of their own, is lost in the sort:
/// a known limit, which the action log format article states.
protocol OwnListCheck: AnyObject {
  /// How the list is put in order when it passes.
  var order: CanonicalOrder { get }
  /// Whether everything written so far, and nothing else, is what the collection's own
  /// encoding writes, up to order, and all of it.
  var isOwnList: Bool { get }
  /// Notes `value`, written as the list's next item.
  func note<T>(_ value: T)
  /// Notes a nil written with `encodeNil()`.
  func noteNil()
  /// Notes an item of another kind (a nested container).
  func noteOther()
}

/// An optional type: its nil is what a list's `encodeNil()` stands for.
private protocol OptionalType {
  /// The type's nil.
  static var nilValue: Self { get }
}

extension Optional: OptionalType {
  static var nilValue: Self { nil }
}

/// The members of a collection (a set's elements, a dictionary's keys) not yet written to a
/// list: each may be written once.
struct UnwrittenMembers<Member: Hashable> {
  /// The members equal to themselves, not yet written.
  private var members: Set<Member>
  /// How many members not equal to themselves (a NaN, or a value holding one), which no
  /// lookup finds, are not yet written.
  private var unequalCount: Int

  init(_ members: Set<Member>) {
    let unequalCount = members.lazy.filter { $0 != $0 }.count
    self.members = unequalCount == 0 ? members : members.filter { $0 == $0 }
    self.unequalCount = unequalCount
  }

  /// Whether every member was written.
  var isEmpty: Bool { members.isEmpty && unequalCount == 0 }

  /// Takes `value` off the members not yet written (an optional member may be written
  /// unwrapped); `false` when it is not one of them.
  mutating func remove<T>(_ value: T) -> Bool {
    guard T.self == Member.self || Member.self == Optional<T>.self, let member = value as? Member
    else { return false }
    if members.remove(member) != nil { return true }
    guard member != member, unequalCount > 0 else { return false }
    unequalCount -= 1
    return true
  }

  /// Takes nil off the members not yet written, when they are optionals; `false` when nil is
  /// not one of them.
  mutating func removeNil() -> Bool {
    guard let nilMember = (Member.self as? any OptionalType.Type)?.nilValue as? Member else {
      return false
    }
    return remove(nilMember)
  }
}

/// The check of a list written in place of a set's own encoding: each element once.
final class ElementListCheck<Element: Hashable>: OwnListCheck {
  private var unwritten: UnwrittenMembers<Element>
  private var isOwn = true

  init(_ set: Set<Element>) {
    unwritten = UnwrittenMembers(set)
  }

  var order: CanonicalOrder { .elements }
  var isOwnList: Bool { isOwn && unwritten.isEmpty }

  func note<T>(_ value: T) {
    if isOwn { isOwn = unwritten.remove(value) }
  }

  func noteNil() {
    if isOwn { isOwn = unwritten.removeNil() }
  }

  func noteOther() { isOwn = false }
}

/// The check of a list written in place of a dictionary's own encoding, when it is a flat
/// list of keys and values: each key once, each followed by a value of the dictionary's type.
/// Sorted by key, the pairs keep together what was written together.
final class PairListCheck<Key: Hashable, Value>: OwnListCheck {
  private var unwritten: UnwrittenMembers<Key>
  private var isOwn = true
  /// Whether the next item is a key, not a value.
  private var isKeyNext = true

  init(_ dictionary: [Key: Value]) {
    unwritten = UnwrittenMembers(Set(dictionary.keys))
  }

  var order: CanonicalOrder { .pairs }
  var isOwnList: Bool { isOwn && isKeyNext && unwritten.isEmpty }

  func note<T>(_ value: T) {
    if isOwn {
      isOwn =
        isKeyNext
        ? unwritten.remove(value) : T.self == Value.self || Value.self == Optional<T>.self
    }
    isKeyNext.toggle()
  }

  func noteNil() {
    if isOwn { isOwn = isKeyNext ? unwritten.removeNil() : Value.self is any OptionalType.Type }
    isKeyNext.toggle()
  }

  func noteOther() { isOwn = false }
}
