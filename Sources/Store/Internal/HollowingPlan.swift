/// Where a type holds stamped collections (``IdentifiedArray``, ``StackState``) in its own
/// bytes: through stored properties and tuples, at offsets fixed for the type. Found once per
/// type, from one value.
///
/// A store that keeps a copy of a value it tracks (`store.state`, or `store.list` for a struct
/// that holds the rows beside a title) keeps the copy's collections hollow: empty, with the
/// stamps of the collections copied. A full copy would share the collections' buffers, so the
/// next write to one element, in the reducer, would find the buffer shared and copy every
/// element, at each action for as long as a view shows the value. The stamps move with any
/// change to a collection, so the comparison after an action still sees every change (see
/// `Store.TrackedHollowedValue`).
///
/// The plan does not reach into optionals, enum payloads, existentials, arrays, dictionaries,
/// objects or a type with a custom mirror: what lies in an optional or an enum's case is not
/// always there, and what an existential or an object holds is not in the value's bytes. A
/// collection there is kept in the copy, and copied at its next change, as before.
@MainActor
final class HollowingPlan {
  /// A stamped collection at a fixed offset of the type, with how to handle it there.
  struct Slot {
    let offset: Int
    let size: Int
    /// Replaces the collection at the address with a hollow one that has its stamps.
    let hollow: (UnsafeMutableRawPointer) -> Void
    /// Assigns the collection at the second address to the first.
    let fill: (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    /// The stamps of the collection at the address.
    let stamps: (UnsafeRawPointer) -> VersionStamp
  }

  /// By offset, none overlapping.
  let slots: [Slot]

  private init(slots: [Slot]) {
    self.slots = slots
  }

  /// Plans by type, `nil` for a type with no stamped collection the plan reaches.
  private static var plans: [ObjectIdentifier: HollowingPlan?] = [:]

  /// The plan for `Value`, found from `value` the first time; `nil` when it has no slot.
  ///
  /// - Complexity: O(1) after the first call for the type; the first walks the value with
  ///   `Mirror` and compares bytes, O(*s* × *k*) for a value of *s* bytes holding *k*
  ///   collections.
  static func plan<Value>(for value: Value) -> HollowingPlan? {
    let id = ObjectIdentifier(Value.self)
    if let known = plans[id] { return known }
    let plan = makePlan(value)
    plans[id] = .some(plan)
    return plan
  }

  private static func makePlan<Value>(_ value: Value) -> HollowingPlan? {
    var found: [any VersionStamped] = []
    collectStamped(in: value, into: &found)
    guard !found.isEmpty else { return nil }
    var slots: [Slot] = []
    withUnsafeBytes(of: value) { bytes in
      var taken = Set<Int>()
      for collection in found {
        guard let offset = uniqueOffset(of: collection, in: bytes, found: found, taken: taken)
        else { continue }
        taken.insert(offset)
        slots.append(slot(for: collection, at: offset))
      }
    }
    guard !slots.isEmpty else { return nil }
    return HollowingPlan(slots: slots.sorted { $0.offset < $1.offset })
  }

  /// The stamped collections reached from `value` through stored properties and tuples.
  private static func collectStamped(in value: Any, into found: inout [any VersionStamped]) {
    let type = type(of: value)
    if let stamped = value as? any VersionStamped, type is any VersionStamped.Type {
      found.append(stamped)
      return
    }
    guard !(type is any CustomReflectable.Type), !(type is AnyObject.Type) else { return }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .struct || mirror.displayStyle == .tuple else { return }
    for child in mirror.children {
      collectStamped(in: child.value, into: &found)
    }
  }

  /// Where `collection` lies in `bytes`, when that is known for certain: its bytes (its
  /// buffers' addresses and its stamps) appear there, and at as many places as `found` holds
  /// copies of it, so each copy has its own. `nil` when it is not in `bytes` (it is behind an
  /// existential's box) or when a copy of it also lies where the plan does not reach (an
  /// optional holding the same collection), which the bytes cannot tell apart.
  private static func uniqueOffset(
    of collection: any VersionStamped, in bytes: UnsafeRawBufferPointer,
    found: [any VersionStamped], taken: Set<Int>
  ) -> Int? {
    func offsets<T: VersionStamped>(_ collection: T) -> [Int] {
      let size = MemoryLayout<T>.size
      let step = MemoryLayout<T>.alignment
      guard size > 0, bytes.count >= size else { return [] }
      return withUnsafeBytes(of: collection) { mine in
        stride(from: 0, through: bytes.count - size, by: step).filter { offset in
          haveSameBytes(bytes.baseAddress! + offset, mine.baseAddress!, count: size)
        }
      }
    }
    let places = offsets(collection)
    let copies = found.filter { sameBytes($0, collection) }.count
    guard places.count == copies else { return nil }
    return places.first { !taken.contains($0) }
  }

  private static func sameBytes(_ first: any VersionStamped, _ second: any VersionStamped) -> Bool {
    guard type(of: first) == type(of: second) else { return false }
    func bytes<T>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
    return _openExistential(first, do: bytes) == _openExistential(second, do: bytes)
  }

  private static func slot(for collection: any VersionStamped, at offset: Int) -> Slot {
    func make<T: VersionStamped>(_: T) -> Slot {
      Slot(
        offset: offset, size: MemoryLayout<T>.size,
        hollow: { $0.assumingMemoryBound(to: T.self).pointee.hollowOut() },
        fill: {
          $0.assumingMemoryBound(to: T.self).pointee = $1.assumingMemoryBound(to: T.self).pointee
        },
        stamps: { $0.assumingMemoryBound(to: T.self).pointee.versionStamp })
    }
    return _openExistential(collection, do: make)
  }

  /// Hollows the collections of the value at `value`.
  func hollow(_ value: UnsafeMutableRawPointer) {
    for slot in slots { slot.hollow(value + slot.offset) }
  }

  /// Whether the collections of the values at `first` and `second` have the same stamps.
  func haveSameStamps(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer) -> Bool {
    slots.allSatisfy { $0.stamps(first + $0.offset) == $0.stamps(second + $0.offset) }
  }

  /// Whether the values at `first` and `second`, of `size` bytes, have the same bytes outside
  /// the collections.
  func haveSameBytesOutsideSlots(
    _ first: UnsafeRawPointer, _ second: UnsafeRawPointer, size: Int
  ) -> Bool {
    var start = 0
    for slot in slots {
      if !haveSameBytes(first + start, second + start, count: slot.offset - start) {
        return false
      }
      start = slot.offset + slot.size
    }
    return start >= size || haveSameBytes(first + start, second + start, count: size - start)
  }

  /// Puts the collections of the value at `source` in the hollow value at `value`.
  func fill(_ value: UnsafeMutableRawPointer, from source: UnsafeRawPointer) {
    for slot in slots { slot.fill(value + slot.offset, source + slot.offset) }
  }
}

/// Whether `count` bytes at `first` and at `second` are the same.
func haveSameBytes(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
  var offset = 0
  while offset + 8 <= count {
    guard
      first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    else { return false }
    offset += 8
  }
  while offset < count {
    guard
      first.load(fromByteOffset: offset, as: UInt8.self)
        == second.load(fromByteOffset: offset, as: UInt8.self)
    else { return false }
    offset += 1
  }
  return true
}
