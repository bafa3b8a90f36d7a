/// Where a type holds stamped collections (``IdentifiedArray``, ``StackState``) in its own
/// bytes: through stored properties and tuples, at offsets fixed for the type. Found once per
/// type, from one value, and checked against that value's bytes.
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
/// collection there is kept in the copy, and copied at its next change, as before. A type
/// whose layout the plan cannot confirm (see `collectSlots`) has no plan, and its values are
/// copied whole.
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
  /// - Complexity: O(1) after the first call for the type; the first walks the value's
  ///   stored properties with `Mirror`, O(*f*) for the *f* fields of the structs and tuples
  ///   it reaches.
  static func plan<Value>(for value: Value) -> HollowingPlan? {
    let id = ObjectIdentifier(Value.self)
    if let known = plans[id] { return known }
    let plan = makePlan(value)
    plans[id] = .some(plan)
    return plan
  }

  private static func makePlan<Value>(_ value: Value) -> HollowingPlan? {
    // An existential's value is not in its bytes.
    guard type(of: value as Any) == Value.self else { return nil }
    var slots: [Slot] = []
    let laidOut = withUnsafeBytes(of: value) { bytes in
      collectSlots(in: value, at: 0, of: bytes, into: &slots)
    }
    guard laidOut, !slots.isEmpty else { return nil }
    return HollowingPlan(slots: slots)
  }

  /// Adds the slots of the stamped collections reached from `value`, which lies at `offset`
  /// in `bytes`, through stored properties and tuples; `false` when the layout is not the one
  /// the fields' types give, and the plan cannot be trusted.
  ///
  /// A struct's or a tuple's fields lie in order, each at the next offset its alignment
  /// allows. `Mirror` gives a field's value, and so the type of what it holds: for a field of
  /// an existential type, the type of the value inside, whose size is not the field's. The
  /// fields' sizes must then add up to the type's; and a collection must have its very bytes
  /// (its buffers' addresses, its stamps) where the layout puts it, which a collection behind
  /// an existential's box, or a copy of it in an optional elsewhere, cannot have.
  private static func collectSlots(
    in value: Any, at offset: Int, of bytes: UnsafeRawBufferPointer,
    into slots: inout [Slot]
  ) -> Bool {
    let type = type(of: value)
    if type is any VersionStamped.Type {
      let collection = value as! any VersionStamped
      guard hasBytes(of: collection, at: offset, in: bytes) else { return false }
      slots.append(slot(for: collection, at: offset))
      return true
    }
    guard !(type is any CustomReflectable.Type), !(type is AnyObject.Type) else { return true }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .struct || mirror.displayStyle == .tuple else { return true }
    var end = 0
    for child in mirror.children {
      let (size, alignment) = layout(of: Swift.type(of: child.value))
      let start = (end + alignment - 1) / alignment * alignment
      guard offset + start + size <= bytes.count,
        collectSlots(in: child.value, at: offset + start, of: bytes, into: &slots)
      else { return false }
      end = start + size
    }
    return end == layout(of: type).size
  }

  /// Whether `collection`'s bytes are the ones at `offset` in `bytes`.
  private static func hasBytes(
    of collection: any VersionStamped, at offset: Int, in bytes: UnsafeRawBufferPointer
  ) -> Bool {
    func compare<T>(_ collection: T) -> Bool {
      let size = MemoryLayout<T>.size
      guard offset % MemoryLayout<T>.alignment == 0, offset + size <= bytes.count else {
        return false
      }
      return withUnsafeBytes(of: collection) { mine in
        haveSameBytes(bytes.baseAddress! + offset, mine.baseAddress!, count: size)
      }
    }
    return _openExistential(collection, do: compare)
  }

  /// `MemoryLayout`'s size and alignment of a type known only at run time.
  private static func layout(of type: Any.Type) -> (size: Int, alignment: Int) {
    func layout<T>(_: T.Type) -> (size: Int, alignment: Int) {
      (MemoryLayout<T>.size, MemoryLayout<T>.alignment)
    }
    return _openExistential(type, do: layout)
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
