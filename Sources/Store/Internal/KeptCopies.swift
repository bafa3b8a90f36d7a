import Synchronization

// A store of an optional child (a sheet) or of a stack's screen keeps a copy of its state, to
// show once the child is gone: a sheet being dismissed, a screen being popped, still draws.
// While the child is there, that copy shares the child's buffers, so the reducer's next write
// into them (a row of a list in the sheet) found them shared and copied them whole: every
// row, at every row action, once a view had read the child's store (10,000 rows: 118 us an
// action, against 3.1 at 100 rows).
//
// So the reducer that runs the child (`ifLet` and `presents`; `navigationStack` for a screen)
// lets go of the copies of the child for the child's step, and copies the child again once
// the step is done: the step writes in place, and the copy is as recent as it would have been.
// The step cannot remove the child (it changes the child's state, not where it lies), so the
// child is there to copy again. Only copies of a child that a reducer steps where the copies
// can be found are registered: an optional child reached through stored properties from a
// store that reads its root's state in place, or a screen of a stack reached that way, by its
// id (and the parts of either that stores scoped from theirs copy). There, the place names the
// child for as long as it is there, and a reducer stepping a child at that place steps that
// child; the anchor checks the rest (the type, the id, a screen's push).
//
// A store of an enum's case keeps a copy of the case's payload, which `ifCaseLet` takes out
// of the enum for the case's step. Its copies are registered under the enum's place and the
// case key's identity; `ifCaseLet` lets them go once it has the payload out, and has them
// taken from it again after the case's step, before the enum's own reducer may switch the
// case.
//
// Children nest. An optional child, a stack or an enum in an optional child at a fixed place
// has a fixed place too. A child of a screen (a sheet of the screen, a case of the screen's
// enum: a stack's destinations; and their own optional children and cases, through optional
// children) moves with the screen: its copies are registered under the screen's place and
// id, and, while the screen's reducer steps the screen, also under the child's place for that
// step, where the child's reducer (`ifLet`, `presents`, `ifCaseLet`) finds them. What has no
// place a reducer steps it at keeps its copies: a child of a case's payload (the payload is
// moved out for the step) or of a row, a stack of a screen, and a child behind a computed
// property.

/// A child that derived stores copy, and where it lies in its root's state: the place their
/// copies are registered at, and whether the child there is still the one they were made for.
///
/// Touched on the main actor only: by the stores, and by the reducer of the root whose state
/// holds the place (no other reducer runs on that memory).
@usableFromInline
package final class KeptCopyAnchor: @unchecked Sendable {
  /// What the anchored child is.
  enum Kind {
    /// An optional child.
    case child
    /// A stack's screen.
    case screen
    /// The payload of a case of an enum, with the case key's identity.
    case payload(CaseKeyIdentity)
  }

  let kind: Kind
  /// The key the child's copies are registered under, with ``id``: where the child lies in
  /// its root's state (an optional child, an enum whose case the child is), or where the
  /// collection that holds it lies (a screen, and a child of a screen).
  let place: UnsafeRawPointer
  /// Which child at the place: the optional child, a screen by id (for a child of a screen
  /// too), or a case of the enum there.
  let id: KeptCopyID
  /// The type of the state a reducer steps: the child's, or the collection's element's.
  let stateType: ObjectIdentifier
  /// Whether the state a reducer steps, given by address, is the one the stores were made for:
  /// for an `Identifiable` child or case payload, its id (a child with another id may have
  /// replaced it since they looked); for a screen, its push (a stack replaced since may reuse
  /// its id).
  private let isOwn: ((UnsafeRawPointer) -> Bool)?
  /// The anchor of the optional child or screen this child lies in, and the child's offset in
  /// the state that anchor's reducer steps (for a case, the enum's offset; for a child of a
  /// screen, the offset in the stack's entry); `nil` for a child that lies at a fixed place of
  /// its root's state alone, and for a screen.
  let enclosing: (anchor: KeptCopyAnchor, offset: Int)?
  /// For a screen of a stack that lies in an optional child: that child's anchor. Screens
  /// are told apart by their pushes, unique in the process; once the child is gone, the
  /// stores of its screens are a dismissed sheet's, which no reducer steps again.
  private let container: KeptCopyAnchor?
  /// For a child of a screen, reached from the screen through optional children: its offset
  /// (for a case, the enum's) in the stack's entry the screen's reducer steps.
  let screenOffset: Int?
  /// Set once the child is gone, or another has taken its place: the copies then keep the
  /// last state of the child the stores were made for, and no reducer touches them again.
  var isGone = false

  /// An anchor of a `kind` of child of type `stateType`: at `place`, or at `enclosing.offset`
  /// in the child of `enclosing.anchor` (for a case, the enum), which ``placesChildren``. A
  /// child of a screen has no place of its own (`place` is not read): its copies are
  /// registered under the screen's.
  private init(
    _ kind: Kind, of stateType: ObjectIdentifier, at place: UnsafeRawPointer?,
    in enclosing: (anchor: KeptCopyAnchor, offset: Int)?, isOwn: ((UnsafeRawPointer) -> Bool)?
  ) {
    self.kind = kind
    if let enclosing, let screen = enclosing.anchor.screenForChildren {
      self.place = screen.place
      self.id = screen.id
      self.screenOffset = (enclosing.anchor.screenOffset ?? 0) + enclosing.offset
    } else {
      self.place = place ?? enclosing!.anchor.fixedPlace! + enclosing!.offset
      self.id = Self.id(atPlaceOf: kind)
      self.screenOffset = nil
    }
    self.stateType = stateType
    self.isOwn = isOwn
    self.enclosing = enclosing
    self.container = nil
  }

  /// An anchor for an optional child of type `State`: at `address`, or at `enclosing.offset`
  /// in the child of `enclosing.anchor`, which ``placesChildren``.
  convenience init<State>(
    _: State.Type, at address: UnsafeRawPointer?,
    in enclosing: (anchor: KeptCopyAnchor, offset: Int)?,
    isOwn: ((UnsafePointer<State>) -> Bool)?
  ) {
    self.init(
      .child, of: ObjectIdentifier(State.self), at: address, in: enclosing,
      isOwn: isOwn.map { isOwn in { isOwn($0.assumingMemoryBound(to: State.self)) } })
  }

  /// An anchor for the payload of type `Payload` of the case `identity` of an enum: the enum
  /// at `place`, or the one at `enclosing.offset` in the child of `enclosing.anchor`, which
  /// ``placesChildren``. `isOwn` is asked of the payload, as an optional child's is of the
  /// child.
  convenience init<Payload>(
    case identity: CaseKeyIdentity, of _: Payload.Type, enumAt place: UnsafeRawPointer?,
    in enclosing: (anchor: KeptCopyAnchor, offset: Int)?,
    isOwn: ((UnsafePointer<Payload>) -> Bool)?
  ) {
    self.init(
      .payload(identity), of: ObjectIdentifier(Payload.self), at: place, in: enclosing,
      isOwn: isOwn.map { isOwn in { isOwn($0.assumingMemoryBound(to: Payload.self)) } })
  }

  /// An anchor for the screen with `id`, of type `stateType`, of the stack whose entries lie
  /// at `collection`, in the optional child of `container` when given.
  init(
    screen id: StackElementID, of stateType: ObjectIdentifier, in collection: UnsafeRawPointer,
    container: KeptCopyAnchor?, isOwn: @escaping (UnsafeRawPointer) -> Bool
  ) {
    self.kind = .screen
    self.place = collection
    self.id = .screen(id)
    self.stateType = stateType
    self.isOwn = isOwn
    self.enclosing = nil
    self.container = container
    self.screenOffset = nil
  }

  /// The id a `kind` of child's copies are looked up under at the child's place.
  private static func id(atPlaceOf kind: Kind) -> KeptCopyID {
    switch kind {
    case .child, .screen: .child
    case .payload(let identity): .payload(of: identity)
    }
  }

  /// The key its copies are registered under.
  var key: KeptCopyKey { KeptCopyKey(place, id: id) }

  /// Whether no reducer steps the child again: it is gone, or the child or screen it lies in
  /// is, or the optional child its stack lies in.
  var isStale: Bool {
    isGone || container?.isGone == true || enclosing?.anchor.isStale == true
  }

  /// Whether this anchors a screen: its copies are registered under its collection's place
  /// and its id.
  var isScreen: Bool {
    guard case .screen = kind else { return false }
    return true
  }

  /// Where the child lies at each of its steps, when that is one place: an optional child's
  /// of the root's state, or of an optional child with a fixed place. Not a screen's (its
  /// stack's place is the collection's), nor a child's of a screen (it moves with the
  /// screen), nor a case's payload (taken out of the enum for the case's step).
  var fixedPlace: UnsafeRawPointer? {
    guard case .child = kind, screenOffset == nil else { return nil }
    return place
  }

  /// The screen whose steps have the children of this child where their reducers find them:
  /// the screen itself, or the one an optional child lies in; `nil` for a child at a fixed
  /// place, and for a case's payload (moved out of its enum for its step).
  private var screenForChildren: KeptCopyAnchor? {
    switch kind {
    case .screen: self
    case .child: screenOffset == nil ? nil : enclosing!.anchor.screenForChildren
    case .payload: nil
    }
  }

  /// Whether a child at an offset in the state this anchor's reducer steps lies where a
  /// reducer stepping it can find its copies: this is a screen, or an optional child at a
  /// fixed place or in a screen. (Not a case's payload, moved out of its enum for its step.)
  var placesChildren: Bool {
    switch kind {
    case .screen, .child: true
    case .payload: false
    }
  }

  /// Whether this anchors a child of a screen, looked up under the screen's key `key`: its
  /// copies are registered there, for the screen's steps to register them under the child's
  /// place for the step, where the child's reducer looks them up.
  func liesInScreen(registeredUnder key: KeptCopyKey) -> Bool {
    screenOffset != nil && key == KeptCopyKey(place, id: id)
  }

  /// Where a screen's step, with the screen's entry at `entry`, has this child of the
  /// screen: the key its copies are registered under for the step.
  func keyInScreen(at entry: UnsafeRawPointer) -> KeptCopyKey {
    KeptCopyKey(entry + screenOffset!, id: Self.id(atPlaceOf: kind))
  }

  /// Whether a reducer stepping the state of type `stateType` at `state`, which it looked the
  /// copies up for under `place`, steps this anchor's child. (For a case, `place` is where the
  /// enum lies; for a child of a screen, where the screen's step has it.)
  fileprivate func isStepped(
    _ stateType: ObjectIdentifier, at state: UnsafeRawPointer, under place: UnsafeRawPointer
  ) -> Bool {
    guard stateType == self.stateType, !isGone, container?.isGone != true else { return false }
    // A child lies in a child that must be the one the stores were made for too: a newcomer
    // in the enclosing child's place, with the same case or child, is not theirs.
    if let enclosing {
      let outer = place - enclosing.offset
      guard enclosing.anchor.isStepped(enclosing.anchor.stateType, at: outer, under: outer)
      else { return false }
    }
    return isOwn?(state) ?? true
  }
}

/// A copy that a derived store keeps of its state, at a place of its own, of state that lies
/// at a fixed offset in an anchor's child: a reducer about to change the child lets the copy
/// go, and has it taken again once it is done.
///
/// Owns the copy's memory, so that a reducer that let the copy go can always take it again,
/// even if the store was let go meanwhile (on another thread). Touched as the anchor is.
final class KeptCopy<State>: KeptCopyProtocol, @unchecked Sendable {
  /// Where the store keeps its copy. Initialized but while a reducer has let it go.
  let storage: UnsafeMutablePointer<State>
  /// The child the state lies in (the store's own state, or one that contains it).
  let anchor: KeptCopyAnchor
  /// Where the copied state lies in the state a reducer steps (0 for the child itself).
  let offset: Int
  /// Whether a reducer let the copy go and has not had it taken again yet: the reducer is
  /// stepping the state, and the copy must not be read.
  private(set) var isLetGo = false

  /// A copy, made from `initial`, of the state at `offset` in `anchor`'s child.
  init(of initial: UnsafePointer<State>, at offset: Int, in anchor: KeptCopyAnchor) {
    self.storage = .allocate(capacity: 1)
    copyValue(initial, to: storage, replacing: false)
    self.anchor = anchor
    self.offset = offset
  }

  deinit {
    if !isLetGo { storage.deinitialize(count: 1) }
    storage.deallocate()
  }

  func letGo(
    forStepOf stateType: ObjectIdentifier, at state: UnsafeRawPointer, under place: UnsafeRawPointer
  ) -> Bool {
    guard !isLetGo, anchor.isStepped(stateType, at: state, under: place) else { return false }
    storage.deinitialize(count: 1)
    isLetGo = true
    return true
  }

  func takeAgain(from state: UnsafeRawPointer) {
    storage.initialize(to: state.advanced(by: offset).assumingMemoryBound(to: State.self).pointee)
    isLetGo = false
  }
}

/// ``KeptCopy``, of any state.
@usableFromInline
protocol KeptCopyProtocol: AnyObject, Sendable {
  /// The child the copied state lies in.
  var anchor: KeptCopyAnchor { get }
  /// Lets the copy go if a reducer stepping the state of type `stateType` at `state`, which it
  /// looked the copy up for under `place` (the anchor's place, or for a child of a screen,
  /// where the screen's step has the child), steps the anchor's child, and says whether it
  /// did.
  func letGo(
    forStepOf stateType: ObjectIdentifier, at state: UnsafeRawPointer, under place: UnsafeRawPointer
  ) -> Bool
  /// Copies the state again after a reducer's step, from the state stepped at `state`.
  func takeAgain(from state: UnsafeRawPointer)
}

/// Which child at a place copies are registered under. (Plain values: an `AnyHashable` id
/// cost a generic metadata look-up at each comparison in the register.)
enum KeptCopyID: Hashable, Sendable {
  /// The optional child that lies at the place.
  case child
  /// The screen with this id, of the stack whose entries lie at the place.
  case screen(StackElementID)
  /// The payload of this case of the enum that lies at the place.
  case payload(of: CaseKeyIdentity)
}

/// Where copies are registered: a place, and which child there.
struct KeptCopyKey: Hashable, Sendable {
  let place: UInt
  let id: KeptCopyID

  init(_ place: UnsafeRawPointer, id: KeptCopyID) {
    self.place = UInt(bitPattern: place)
    self.id = id
  }
}

/// The kept copies, by the place of the child they lie in.
@usableFromInline
enum KeptCopies {
  private static let byPlace = ModuleLock<[KeptCopyKey: [any KeptCopyProtocol]]>([:])
  /// How many are registered: while none is, a reducer's step does not take the lock.
  private static let count = Atomic<Int>(0)

  /// Registers `copy`, for reducers at its anchor's place to let go of.
  static func register<State>(_ copy: KeptCopy<State>) {
    let key = KeptCopyKey(copy.anchor.place, id: copy.anchor.id)
    byPlace.withLock { $0[key, default: []].append(copy) }
    count.add(1, ordering: .relaxed)
  }

  /// Removes `copy`, once its store is let go.
  static func unregister<State>(_ copy: KeptCopy<State>) {
    let key = KeptCopyKey(copy.anchor.place, id: copy.anchor.id)
    let removed = byPlace.withLock { byPlace -> Bool in
      guard var copies = byPlace[key],
        let index = copies.firstIndex(where: { $0 === copy })
      else { return false }
      copies.remove(at: index)
      byPlace[key] = copies.isEmpty ? nil : copies
      return true
    }
    if removed { count.subtract(1, ordering: .relaxed) }
  }

  /// How many copies are registered under `place` and `id` (for tests).
  static func registered(at place: UnsafeRawPointer, id: KeptCopyID = .child) -> Int {
    let key = KeptCopyKey(place, id: id)
    return byPlace.withLock { $0[key]?.count ?? 0 }
  }

  /// Whether any copy is registered: while none is, a reducer need not find where it steps.
  @usableFromInline
  static var isActive: Bool {
    count.load(ordering: .relaxed) != 0
  }

  /// Lets go of the copies of the optional child of type `State` at `child`, for a reducer's
  /// step of it, and returns them, for ``takeAgain(_:from:)`` once the step is done; `nil`
  /// when none was let go (almost always: a look at a counter while no store keeps a copy).
  ///
  /// - Complexity: O(1) while no copy is registered; otherwise a lock and a look-up, and O(*k*)
  ///   for the *k* copies registered under the place and id (the child's store's and those of
  ///   stores scoped from it).
  @usableFromInline
  static func letGo<State>(_: State.Type, at child: UnsafeRawPointer) -> [any KeptCopyProtocol]? {
    guard isActive else { return nil }
    return letGo(ObjectIdentifier(State.self), under: child, id: .child, at: child)
  }

  /// Lets go of the copies of the element with `id`, of type `State`, at `element` in the
  /// collection at `collection`, for a reducer's step of it; as ``letGo(_:at:)``. Only a
  /// stack's screens have copies registered (their ids are ``StackElementID``s).
  @usableFromInline
  static func letGo<State, ID: Hashable>(
    _: State.Type, id: ID, at element: UnsafeRawPointer, in collection: UnsafeRawPointer
  ) -> [any KeptCopyProtocol]? {
    guard isActive, let id = id as? StackElementID else { return nil }
    return letGo(ObjectIdentifier(State.self), under: collection, id: .screen(id), at: element)
  }

  /// Lets go of the copies of the payload of type `Payload` at `payload`, taken out of the
  /// case `identity` of the enum at `place`, for a reducer's step of it; as ``letGo(_:at:)``.
  @usableFromInline
  static func letGo<Payload>(
    _: Payload.Type, case identity: CaseKeyIdentity, at payload: UnsafeRawPointer,
    inEnumAt place: UnsafeRawPointer
  ) -> [any KeptCopyProtocol]? {
    guard isActive else { return nil }
    return letGo(
      ObjectIdentifier(Payload.self), under: place, id: .payload(of: identity), at: payload)
  }

  private static func letGo(
    _ stateType: ObjectIdentifier, under place: UnsafeRawPointer, id: KeptCopyID,
    at state: UnsafeRawPointer
  ) -> [any KeptCopyProtocol]? {
    let key = KeptCopyKey(place, id: id)
    var stepRegistration: StepRegistration?
    var pruned = 0
    let copies = byPlace.withLock { byPlace -> [any KeptCopyProtocol]? in
      guard var copies = byPlace[key] else { return nil }
      // Copies that no reducer steps again, of stores still held (the parts of a dismissed
      // sheet, the screens of a dismissed sheet's stack, whose collection of stores no longer
      // prunes them): out of the register, so that later steps here do not walk them. Only
      // under their own key (not where a screen's step registered them for the step).
      let before = copies.count
      copies.removeAll { $0.anchor.isStale && $0.anchor.key == key }
      if copies.count != before {
        pruned = before - copies.count
        byPlace[key] = copies.isEmpty ? nil : copies
      }
      // The copies of the children of the screen this step may be stepping (a sheet, a
      // case of an enum): found by their reducers under the child's place for this step.
      // (A screen replaced or popped since turns them away there.)
      for copy in copies
      where !copy.anchor.isGone && copy.anchor.liesInScreen(registeredUnder: key) {
        let registration = copy.anchor.keyInScreen(at: state)
        byPlace[registration, default: []].append(copy)
        if stepRegistration == nil { stepRegistration = StepRegistration(copy.anchor) }
        stepRegistration!.entries.append((registration, copy))
      }
      return copies
    }
    if pruned != 0 { count.subtract(pruned, ordering: .relaxed) }
    guard let copies, !copies.isEmpty else { return nil }
    var letGo: [any KeptCopyProtocol] = []
    for copy in copies
    where !copy.anchor.liesInScreen(registeredUnder: key)
      && copy.letGo(forStepOf: stateType, at: state, under: place)
    {
      letGo.append(copy)
    }
    if let stepRegistration { letGo.append(stepRegistration) }
    return letGo.isEmpty ? nil : letGo
  }

  /// Copies registered under the places where the step of a screen has its children, for
  /// the step: taken out of the register when the step is done, in place of being taken
  /// again.
  private final class StepRegistration: KeptCopyProtocol, @unchecked Sendable {
    var entries: [(key: KeptCopyKey, copy: any KeptCopyProtocol)] = []
    /// The anchor of the first copy registered for the step (of a child of the screen).
    let anchor: KeptCopyAnchor

    init(_ anchor: KeptCopyAnchor) {
      self.anchor = anchor
    }

    func letGo(
      forStepOf stateType: ObjectIdentifier, at state: UnsafeRawPointer,
      under place: UnsafeRawPointer
    ) -> Bool {
      false
    }

    func takeAgain(from state: UnsafeRawPointer) {
      KeptCopies.byPlace.withLock { byPlace in
        for (key, copy) in entries {
          guard var copies = byPlace[key], let index = copies.firstIndex(where: { $0 === copy })
          else { continue }
          copies.remove(at: index)
          byPlace[key] = copies.isEmpty ? nil : copies
        }
      }
    }
  }

  /// Has the copies a `letGo` returned taken again, from the state stepped at `state`, once
  /// the step is done.
  @usableFromInline
  static func takeAgain(_ copies: [any KeptCopyProtocol], from state: UnsafeRawPointer) {
    for copy in copies { copy.takeAgain(from: state) }
  }
}
