import Synchronization

// A store of an optional child (a sheet) keeps a copy of the child's state, to show once the
// child is gone: a sheet being dismissed still draws. While the child is there, that copy
// shares the child's buffers, so the reducer's next write into them (a row of a list in the
// sheet) found them shared and copied them whole: every row, at every row action, once a view
// had read the sheet's store (10,000 rows: 121.6 us an action, against 2.2 through a `Scope`).
//
// So the reducer that runs the child (`ifLet`, `presents`) lets go of the copies of the state
// at its address for the child's step, and copies the state again once the step is done: the
// step writes in place, and the copy is as recent as it would have been. Only copies of state
// at a fixed address of a root's state are registered (a child reached through stored
// properties, from a store that reads its root's state in place; and the parts of it that
// stores scoped from the child's store copy): there, the address names the child for as long
// as it is there, so a reducer at that address is running that child.

/// A child that derived stores copy, where it lies in its root's state: the address their
/// copies are registered at, and whether the child there is still the one they were made for.
///
/// Touched on the main actor only: by the stores, and by the reducer of the root whose state
/// holds the address (no other reducer runs on that memory).
package final class KeptCopyAnchor: @unchecked Sendable {
  /// Where the child lies in its root's state.
  let address: UnsafeRawPointer
  /// The child's type: a reducer at the address runs a child of this type.
  let stateType: ObjectIdentifier
  /// For an `Identifiable` child: whether the child at the address is the one the stores were
  /// made for (its id), which a child with another id may have replaced since they looked.
  private let isOwn: ((UnsafeRawPointer) -> Bool)?
  /// Set once the child is gone, or another has taken its place: the copies then keep the
  /// last state of the child the stores were made for, and no reducer touches them again.
  var isGone = false

  /// An anchor for a child of type `State` at `address`.
  init<State>(
    _: State.Type, at address: UnsafePointer<State>,
    isOwn: ((UnsafePointer<State>) -> Bool)?
  ) {
    self.address = UnsafeRawPointer(address)
    self.stateType = ObjectIdentifier(State.self)
    self.isOwn = isOwn.map { isOwn in { isOwn($0.assumingMemoryBound(to: State.self)) } }
  }

  /// Whether a reducer running a child of `stateType` at the address runs this one.
  fileprivate func isRunning(_ stateType: ObjectIdentifier) -> Bool {
    guard stateType == self.stateType, !isGone else { return false }
    return isOwn?(address) ?? true
  }
}

/// A copy that a derived store keeps of its state, at a place of its own, of the state at a
/// fixed address of its root's state: a reducer about to change that state lets the copy go,
/// and has it taken again once it is done.
///
/// Owns the copy's memory, so that a reducer that let the copy go can always take it again,
/// even if the store was let go meanwhile (on another thread). Touched as the anchor is.
final class KeptCopy<State>: KeptCopyProtocol, @unchecked Sendable {
  /// Where the store keeps its copy. Initialized but while a reducer has let it go.
  let storage: UnsafeMutablePointer<State>
  /// The child the state lies in (the store's own state, or one that contains it).
  let anchor: KeptCopyAnchor
  /// Where the copied state lies.
  let address: UnsafePointer<State>
  /// Whether a reducer let the copy go and has not had it taken again yet.
  private var isLetGo = false

  /// A copy of the state at `address`, in `anchor`'s child, made from `initial`.
  init(
    of initial: UnsafePointer<State>, at address: UnsafePointer<State>, in anchor: KeptCopyAnchor
  ) {
    self.storage = .allocate(capacity: 1)
    copyValue(initial, to: storage, replacing: false)
    self.anchor = anchor
    self.address = address
  }

  deinit {
    if !isLetGo { storage.deinitialize(count: 1) }
    storage.deallocate()
  }

  func letGo(forStepOf stateType: ObjectIdentifier) -> Bool {
    guard !isLetGo, anchor.isRunning(stateType) else { return false }
    storage.deinitialize(count: 1)
    isLetGo = true
    return true
  }

  func takeAgain() {
    storage.initialize(to: address.pointee)
    isLetGo = false
  }
}

/// ``KeptCopy``, of any state.
@usableFromInline
protocol KeptCopyProtocol: AnyObject, Sendable {
  /// Lets the copy go if a reducer running a child of `stateType` at the anchor's address runs
  /// the anchor's child, and says whether it did.
  func letGo(forStepOf stateType: ObjectIdentifier) -> Bool
  /// Copies the state again, from where it lies, after a reducer's step.
  func takeAgain()
}

/// The kept copies, by the address of the child they lie in.
@usableFromInline
enum KeptCopies {
  private static let byAddress = Mutex<[UInt: [any KeptCopyProtocol]]>([:])
  /// How many are registered: while none is, a reducer's step does not take the lock.
  private static let count = Atomic<Int>(0)

  /// Registers `copy`, for reducers at its anchor's address to let go of.
  static func register<State>(_ copy: KeptCopy<State>) {
    let key = UInt(bitPattern: copy.anchor.address)
    byAddress.withLock { $0[key, default: []].append(copy) }
    count.add(1, ordering: .relaxed)
  }

  /// Removes `copy`, once its store is let go.
  static func unregister<State>(_ copy: KeptCopy<State>) {
    let key = UInt(bitPattern: copy.anchor.address)
    let removed = byAddress.withLock { byAddress -> Bool in
      guard var copies = byAddress[key],
        let index = copies.firstIndex(where: { $0 === copy })
      else { return false }
      copies.remove(at: index)
      byAddress[key] = copies.isEmpty ? nil : copies
      return true
    }
    if removed { count.subtract(1, ordering: .relaxed) }
  }

  /// How many copies are registered at `address` (for tests).
  static func registered(at address: UnsafeRawPointer) -> Int {
    byAddress.withLock { $0[UInt(bitPattern: address)]?.count ?? 0 }
  }

  /// Lets go of the copies of a child of type `State` at `address`, for a reducer's step of
  /// that child, and returns them, for ``takeAgain(_:)`` once the step is done; `nil` when
  /// none was let go (almost always: a look at a counter while no store keeps a copy).
  ///
  /// - Complexity: O(1) while no copy is registered; otherwise a lock and a look-up, and O(*k*)
  ///   for the *k* copies registered at the address.
  @usableFromInline
  static func letGo<State>(
    _: State.Type, at address: UnsafeRawPointer
  ) -> [any KeptCopyProtocol]? {
    guard count.load(ordering: .relaxed) != 0 else { return nil }
    let key = UInt(bitPattern: address)
    guard let copies = byAddress.withLock({ $0[key] }) else { return nil }
    let stateType = ObjectIdentifier(State.self)
    var letGo: [any KeptCopyProtocol] = []
    for copy in copies where copy.letGo(forStepOf: stateType) { letGo.append(copy) }
    return letGo.isEmpty ? nil : letGo
  }

  /// Has the copies ``letGo(_:at:)`` returned taken again, once the step is done.
  @usableFromInline
  static func takeAgain(_ copies: [any KeptCopyProtocol]) {
    for copy in copies { copy.takeAgain() }
  }
}
