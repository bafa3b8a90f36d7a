import Observation

/// One value an observer read through a store: where it is, what it was, and how to tell that
/// it changed.
///
/// Not nested in `Store`, and not generic: nested, it was generic too, and so was the store's
/// dictionary of them, which code not specialized for the store's types (all of it, in this
/// module) then used through the dictionary's generic code, looking up the type's metadata and
/// conformances at each lookup, insertion and walk: about a tenth of the check of an element's
/// store after an action. The subclasses, nested in `Store`, know the store's `State`.
@MainActor
class Tracked {
  /// The registrar's key for this value: a `KeyPath<Store<State, Action>, Int>` of the store
  /// that keeps this (see `Store.token(of:)`).
  let token: AnyKeyPath
  /// The ``StoreCore/stateVersion`` of the state last compared, or that the value was read
  /// from when it was made.
  var checkedAt = 0

  init(token: AnyKeyPath) {
    self.token = token
  }

  /// Whether the value in the state at `state` (of the `State` of the store that keeps this)
  /// differs from the one last seen; remembers the new one.
  func update(from state: UnsafeRawPointer) -> Bool { true }

  /// Whether the value is known to be the one last seen without reading the state: a stored
  /// collection's stamp, read where the root keeps it. Most actions change no ids, and a
  /// copy of the state costs more than the rest of the check.
  func isUnchangedInPlace() -> Bool { false }
}

extension Store {
  /// The registrar's key for `entry`, one of this store's.
  func token(of entry: Tracked) -> KeyPath<Store, Int> {
    unsafeDowncast(entry.token, to: KeyPath<Store, Int>.self)
  }

  /// A value read through a key path.
  final class TrackedValue<Value>: Tracked {
    let keyPath: KeyPath<State, Value>
    /// Where the value lies in the state, when the path goes through stored properties only.
    let offset: Int?
    var last: Value
    let isEqual: ValueEquality<Value>

    init(keyPath: KeyPath<State, Value>, last: Value, token: KeyPath<Store, Int>) {
      self.keyPath = keyPath
      self.offset = MemoryLayout<State>.offset(of: keyPath)
      self.last = last
      self.isEqual = equality(of: Value.self)
      super.init(token: token)
    }

    override func update(from state: UnsafeRawPointer) -> Bool {
      let state = state.assumingMemoryBound(to: State.self)
      return withValue(at: keyPath, offset: offset, in: state) { value in
        // Compared where they are: see `equality(of:)`.
        let equal = withUnsafeMutablePointer(to: &last) { last in
          isEqual(last, UnsafeMutablePointer(mutating: value))
        }
        if equal { return false }
        last = value.pointee
        return true
      }
    }
  }

  /// A value read through a stored path that holds stamped collections at fixed places
  /// (a struct holding the rows beside a title): kept as ``TrackedValue`` keeps it, with its
  /// collections hollow, so that the copy shares no collection's buffer (see
  /// ``HollowingPlan``).
  final class TrackedHollowedValue<Value>: Tracked {
    let keyPath: KeyPath<State, Value>
    let offset: Int
    let plan: HollowingPlan
    /// The value read, its collections hollow: they keep their stamps, not their elements.
    var last: Value
    let isEqual: ValueEquality<Value>

    init(
      keyPath: KeyPath<State, Value>, offset: Int, last: Value, plan: HollowingPlan,
      token: KeyPath<Store, Int>
    ) {
      self.keyPath = keyPath
      self.offset = offset
      self.plan = plan
      self.last = last
      self.isEqual = equality(of: Value.self)
      super.init(token: token)
      withUnsafeMutablePointer(to: &self.last) { plan.hollow(UnsafeMutableRawPointer($0)) }
    }

    /// Whether the value changed: a collection's stamps moved, or the rest differs (by `==`
    /// over the whole value, its collections put back for the comparison, when the bytes
    /// outside them changed). `last` is not brought up to date: a changed entry is dropped
    /// (see `checkObservations`) and made anew when read.
    override func update(from state: UnsafeRawPointer) -> Bool {
      let value = UnsafeMutableRawPointer(mutating: state + offset)
      return withUnsafeMutablePointer(to: &last) { last in
        let kept = UnsafeMutableRawPointer(last)
        guard plan.haveSameStamps(kept, value) else { return true }
        let size = MemoryLayout<Value>.size
        if plan.haveSameBytesOutsideSlots(kept, value, size: size) { return false }
        plan.fill(kept, from: value)
        defer { plan.hollow(kept) }
        let current = value.assumingMemoryBound(to: Value.self)
        guard isEqual(last, current) else { return true }
        // Equal in other bytes (a long string built again): kept as it is now, so that the
        // next check finds the same bytes.
        last.pointee = current.pointee
        return false
      }
    }
  }

  /// A reference read through a key path (an object, or an optional one, of a class that is not
  /// `Equatable` or of a protocol only classes conform to, and so compared by identity):
  /// remembered weakly, so that what the store
  /// remembers keeps nothing alive. Remembered strongly, an object read through the store
  /// (`store.delegate`) outlived the state's hold on it, and a `weak` property read that way
  /// never became `nil`.
  final class TrackedReference<Value>: Tracked {
    let keyPath: KeyPath<State, Value>
    let offset: Int?
    let reading: ReferenceReading<Value>
    weak var last: AnyObject?
    /// Whether the value last seen was `nil` (rather than an object since let go).
    var lastWasNil: Bool

    init(
      keyPath: KeyPath<State, Value>, last: Value, reading: ReferenceReading<Value>,
      token: KeyPath<Store, Int>
    ) {
      self.keyPath = keyPath
      self.offset = MemoryLayout<State>.offset(of: keyPath)
      self.reading = reading
      let object = reading.object(last)
      self.last = object
      self.lastWasNil = object == nil
      super.init(token: token)
    }

    override func update(from state: UnsafeRawPointer) -> Bool {
      let state = state.assumingMemoryBound(to: State.self)
      let now = withValue(at: keyPath, offset: offset, in: state) { reading.object($0.pointee) }
      let changed =
        switch (last, now) {
        case (nil, nil): !lastWasNil  // an object, since let go, then `nil`
        case (let old?, let new?): old !== new
        default: true  // `nil` and an object, or an object let go and another
        }
      if changed {
        last = now
        lastWasNil = now == nil
      }
      return changed
    }
  }

  /// Something derived from the state that an observer depends on: a collection's structure
  /// stamp (its ids), or whether an optional child is present.
  final class TrackedDerived<Value: Equatable>: Tracked {
    let read: (UnsafePointer<State>) -> Value
    var last: Value

    init(
      read: @escaping (UnsafePointer<State>) -> Value, last: Value, token: KeyPath<Store, Int>
    ) {
      self.read = read
      self.last = last
      super.init(token: token)
    }

    override func update(from state: UnsafeRawPointer) -> Bool {
      let state = state.assumingMemoryBound(to: State.self)
      let value = read(state)
      guard value != last else { return false }
      last = value
      return true
    }
  }

  /// The ids of a collection: followed by its structure stamp, and compared when the stamp
  /// moved. A sort that changed no order, an array replaced by an equal one (a refresh), a
  /// row removed and added back all move the stamp and keep the ids. A computed view of a
  /// collection (a filter) is built anew at each read, with a new stamp: the reader gives a
  /// build the last build's stamp when it has the same ids in the same order.
  final class TrackedIDs<ID: Hashable, Element: Identifiable>: Tracked where Element.ID == ID {
    let reader: CollectionReader<State, ID, Element>
    var stamp: UInt64
    /// The ids last seen, or `nil` to count any new stamp as a change.
    let ids: [ID]?

    init(
      reader: CollectionReader<State, ID, Element>, stamp: UInt64, ids: [ID]?,
      token: KeyPath<Store, Int>
    ) {
      self.reader = reader
      self.stamp = stamp
      self.ids = ids
      super.init(token: token)
    }

    override func isUnchangedInPlace() -> Bool {
      guard let stamps = reader.stampsInPlace else { return false }
      return stamps().structure == stamp
    }

    override func update(from state: UnsafeRawPointer) -> Bool {
      let state = state.assumingMemoryBound(to: State.self)
      // Through the reader, which a computed view's element stores share: one build of the
      // view serves them all.
      let elements = reader.read(given: state)
      guard elements.structure != stamp else { return false }
      stamp = elements.structure
      // O(1) when the count changed; otherwise O(n), after a change that cost as much. A
      // change is reported once: the entry is dropped then (see `checkObservations`).
      guard let ids else { return true }
      return !elements.hasIDs(ids)
    }
  }

  /// A registrar key: never read, only compared and hashed. Its argument is a number this
  /// store gave one ``TrackKey``: the registrar hashes the key path at every access and
  /// change, and a number hashes faster than a key path inside a key path.
  subscript(observing number: Int) -> Int { 0 }

  /// Registers that the value at `keyPath`, now `value`, was read.
  ///
  /// Most values are remembered and compared after each action. A collection that stamps its
  /// versions (``IdentifiedArray``, ``StackState``) is followed by its stamps instead: a
  /// remembered copy would share the collection's buffers, so the next change to one element
  /// would copy the whole collection, at every action, for as long as a view shows it.
  func track<Value>(_ keyPath: KeyPath<State, Value>, _ value: Value) {
    register(.value(keyPath)) { token in
      // By the static type: a cast of the value would also match an optional holding a
      // stamped value, whose key path is not one to the stamped type.
      if let stamped = Value.self as? any VersionStamped.Type {
        let read = stampReader(keyPath, stamped)
        // A computed collection, such as a filtered view, is built anew at each read, with
        // new stamps each time: it shares no buffer with the state, and is compared as any
        // value. So is a stored one of a state built anew at each read (a child state a
        // computed property makes, read through its store): kept hollow, it was found changed
        // after every action. A store's copy of such a state is read again unchanged until the
        // next action, which cannot tell: what it holds is compared as any value too.
        let stamp = core.withState(read)
        if !keepsCopyOfComputedState, stamp == (value as! any VersionStamped).versionStamp {
          return TrackedDerived(read: read, last: stamp, token: token)
        }
        return TrackedValue(keyPath: keyPath, last: value, token: token)
      }
      if let reference = ReferenceReading(Value.self) {
        return TrackedReference(keyPath: keyPath, last: value, reading: reference, token: token)
      }
      // A value that holds stamped collections: a copy would share their buffers. Only
      // through stored properties, and only when its collections keep their stamps from one
      // read to the next: a computed property that builds its collections anew at each read
      // gives new stamps each time, and is compared as any value.
      if let offset = MemoryLayout<State>.offset(of: keyPath),
        let plan = HollowingPlan.plan(for: value),
        readsSameStamps(as: value, at: offset, plan: plan)
      {
        return TrackedHollowedValue(
          keyPath: keyPath, offset: offset, last: value, plan: plan, token: token)
      }
      return TrackedValue(keyPath: keyPath, last: value, token: token)
    }
  }

  /// Whether the collections of `value`, read `offset` bytes into this store's state, are
  /// where the state keeps them: a read of the state now finds them with the same stamps.
  ///
  /// They are, in a state that lies where the root keeps it or in a derived store's copy of
  /// one. A store scoped through a computed property reads a state built anew at each read:
  /// its collections may be the state's own (a child given the stored rows), or built with it
  /// (a child given a filtered view), with new stamps at each read, which a hollow copy would
  /// find changed after every action. Read again to tell; but a derived store's copy of such a
  /// state (an optional child or a case behind a computed property) is read again unchanged
  /// until the next action, and cannot tell: they are taken for new at each read.
  ///
  /// - Complexity: O(1) but for a store scoped through a computed property, which reads its
  ///   state once more.
  private func readsSameStamps<Value>(as value: Value, at offset: Int, plan: HollowingPlan)
    -> Bool
  {
    if keepsCopyOfComputedState { return false }
    if core.stateLiesInPlace || core.keepsCopyOfState { return true }
    // (A value with a plan holds a collection: its bytes are never empty, and have an address.)
    return withUnsafeBytes(of: value) { read in
      core.withState { plan.haveSameStamps(read.baseAddress!, UnsafeRawPointer($0) + offset) }
    }
  }

  /// Whether this store keeps a copy of a state reached through a computed property (an
  /// optional child or a case a computed property builds; see
  /// ``StoreCore/viewsComputedState``): read again, the copy has the stamps of the build it
  /// was made from until the next action, and cannot tell whether its collections are built
  /// anew at each read (a filtered view's) or are the state's own.
  private var keepsCopyOfComputedState: Bool {
    core.keepsCopyOfState && core.viewsComputedState
  }

  /// Registers that the ids of the collection at `keyPath`, now `elements` with `ids`, were
  /// read. The collection is followed by its structure stamp, and its ids (the array the
  /// collection of stores holds, not a copy) are compared when the stamp moves, when
  /// `comparesIDs` allows (not for a stack, whose screens are told apart by their pushes: one
  /// replaced by a stack with the same ids shows new screens).
  func trackIDs<ID: Hashable, Element: Identifiable>(
    _ keyPath: KeyPath<State, IdentifiedArray<ID, Element>>,
    _ elements: IdentifiedArray<ID, Element>, ids: [ID], comparesIDs: Bool
  ) {
    register(.ids(keyPath)) { token in
      let reader = collectionReader(keyPath)
      return TrackedIDs(
        reader: reader, stamp: elements.structure,
        ids: comparesIDs ? ids : nil, token: token)
    }
  }

  /// Registers that something derived from the state was read, under `key`.
  func trackDerived<Value: Equatable>(
    _ key: TrackKey, _ read: @escaping (UnsafePointer<State>) -> Value
  ) {
    register(key) { TrackedDerived(read: read, last: core.withState(read), token: $0) }
  }

  /// Registers a read under `key`: with the registrar, and, the first time, with what `make`
  /// makes to compare after each action.
  ///
  /// A value read again while the stores are checked after an action, before this store's
  /// check (by an observer that renders in `onChange`, told of another store's change first),
  /// is compared first: were this reader added to the readers of the value as it was before
  /// the action, the check would tell it of the change it has already drawn, or, if an
  /// observer's action turned the value back meanwhile, of nothing, leaving it showing a value
  /// the state no longer holds. So the earlier readers are told of the change now, and this
  /// one reads anew.
  private func register(_ key: TrackKey, _ make: (KeyPath<Store, Int>) -> Tracked) {
    hasBeenRead = true
    if let entry = tracked[key] {
      // Between actions every store has checked what changed (an element store whose element
      // did not change has nothing to compare), and a value that never equals itself (a new
      // object at each read) would be reported at every read.
      guard core.reads.hooksAreRunning else {
        observation.access(self, keyPath: token(of: entry))
        return
      }
      let version = core.stateVersion
      guard entry.checkedAt != version else {
        observation.access(self, keyPath: token(of: entry))
        return
      }
      entry.checkedAt = version
      guard !entry.isUnchangedInPlace(),
        core.withState({ entry.update(from: UnsafeRawPointer($0)) })
      else {
        observation.access(self, keyPath: token(of: entry))
        return
      }
      tracked[key] = nil
      // The earlier readers are told once the notice being sent (if one is: this reader
      // draws in an observer's `onChange`) has been, and this reader reads under a key of
      // its own, which that telling does not reach.
      tokens[key] = nil
      let earlier = token(of: entry)
      core.reads.notice { [weak self] in
        guard let self else { return }
        self.observation.withMutation(of: self, keyPath: earlier) {}
      }
    }
    let token = self.token(for: key)
    observation.access(self, keyPath: token)
    let entry = make(token)
    entry.checkedAt = core.stateVersion
    tracked[key] = entry
    watch()
  }

  /// The registrar's key for `key`: the one made before, or a new one.
  private func token(for key: TrackKey) -> KeyPath<Store, Int> {
    if let token = tokens[key] { return token }
    if tokens.count >= Self.tokenCacheLimit { tokens.removeAll(keepingCapacity: true) }
    // A number never given before: an observer may still hold a key made before the cache
    // was emptied, and is notified through the tracked value that holds that key.
    let number = nextTokenNumber
    nextTokenNumber += 1
    let token: KeyPath<Store, Int> = \.[observing: number]
    tokens[key] = token
    return token
  }

  /// How many registrar keys ``tokens`` keeps: more than a screen reads through one store.
  static var tokenCacheLimit: Int { 256 }

  /// Notifies the observers of every value read through this store that changed since it was
  /// last seen; for an element's store, first checks what was scoped from it (see
  /// `DerivedCore`).
  ///
  /// - Complexity: O(*k*) for the *k* values read through this store since they last changed,
  ///   plus the checks of the stores scoped from an element's store.
  func checkObservations() {
    // What was scoped from an element's store is checked with it (see `DerivedCore`).
    core.runOwnedHooks()
    // Read even with nothing left to compare: a derived store follows its state after each
    // action once anything was read through it (a row view playing its removal reads it).
    // A store that keeps no copy reads nothing then: its state is read where the root has it,
    // and reading a path through a subscript that went out of range (`\.items[0]` once the
    // items are gone) would stop the program for a value no one looks at.
    guard hasBeenRead else { return }
    guard !tracked.isEmpty else {
      if core.keepsCopyOfState { core.withState { _ in } }
      return
    }
    // Read only when an entry needs it, and then once for all: a store that only follows a
    // stored collection's ids never reads its state (for an element's store, never brings its
    // copy of the element up to date), and a store scoped through a computed property runs it
    // once.
    // (Asked again in the second pass rather than listed: a list is an allocation at every
    // check of every store a view shows.)
    let version = core.stateVersion
    var needsState = false
    for entry in tracked.values {
      entry.checkedAt = version
      if !needsState, !entry.isUnchangedInPlace() { needsState = true }
    }
    var changed: [TrackKey] = []
    if needsState {
      core.withState { state in
        for (key, entry) in tracked
        where !entry.isUnchangedInPlace() && entry.update(from: UnsafeRawPointer(state)) {
          changed.append(key)
        }
      }
    }
    // Observation tracking is one-shot: the observers of a value are let go once they are
    // notified, and register again when they read it again (a view renders). So forget the
    // value here, until it is read again: a value read once outside tracking, or by a view
    // that is gone, is otherwise compared after every action for the store's whole life,
    // and its remembered copy makes each change to a collection in it copy the collection.
    // Forgotten before observers are notified, so one that reads it again at once, in
    // `onChange`, registers anew.
    // (Kept until a second change instead, a tracking closure that reads a value then sends
    // an action changing it would be told of the next change, as an `Observable` object's
    // observers are, and is not now (see `Store`). Tried and left: a value read once is then
    // compared one change longer, and copied with a collection in it (a button's handler
    // reading `store.state` copied 10,000 rows once more), and a store scoped through a
    // subscript read its path after the row was removed, which stops the program.)
    // No change, or one, makes no list: a list made at every check (a reserved empty one
    // allocates) cost a third of an action beside 1,000 scoped rows (bench 24, 2.8 to 4.2).
    guard changed.count > 1 else {
      guard let key = changed.first, let entry = tracked.removeValue(forKey: key) else { return }
      core.reads.notifying { observation.withMutation(of: self, keyPath: token(of: entry)) {} }
      return
    }
    // With several, all of them are forgotten before any observer is told: a view told of
    // the first that draws again at once reads the others too, and had their entries still
    // been here, it would have joined their readers, to be told again, of changes it had
    // drawn (a view reading two values one action changed drew three times). And they are
    // read again under keys of their own: a view that reads a value again in `onChange`
    // registers under the value's key, which the notices still to come would reach.
    var told: [KeyPath<Store, Int>] = []
    for key in changed {
      guard let entry = tracked.removeValue(forKey: key) else { continue }
      tokens[key] = nil
      told.append(token(of: entry))
    }
    for token in told {
      core.reads.notifying { observation.withMutation(of: self, keyPath: token) {} }
    }
  }

  /// Starts checking after each action the root dispatches (for a store scoped under an
  /// element's store, after each action that may have changed the element), unless an owner
  /// does it.
  private func watch() {
    guard !isWatching, !isCheckedByOwner else { return }
    isWatching = true
    core.afterDispatch { [weak self] in
      guard let self else { return false }
      self.checkObservations()
      return true
    }
  }
}

/// Reads the version stamp of the value at `keyPath`, opened to its concrete type once, here.
private func stampReader<State, Value, Stamped: VersionStamped>(
  _ keyPath: KeyPath<State, Value>, _: Stamped.Type
) -> (UnsafePointer<State>) -> VersionStamp {
  let typed = keyPath as! KeyPath<State, Stamped>
  let offset = MemoryLayout<State>.offset(of: typed)
  return { withValue(at: typed, offset: offset, in: $0) { $0.pointee.versionStamp } }
}

/// How to read a value of `Value` as an object, when it is one (a class instance) or an optional
/// one, compared by identity: for `Store.TrackedReference`.
struct ReferenceReading<Value> {
  /// The object the value holds, or `nil`.
  let object: (Value) -> AnyObject?

  /// How to read `Value` as an object, or `nil` when it is not a class, an existential only
  /// classes conform to (`weak var delegate: (any Delegate)?`), or an optional of either, or
  /// when the class is `Equatable`: `==` needs the object last seen, which is then kept.
  init?(_: Value.Type) {
    if isObjectType(Value.self) {
      object = { $0 as AnyObject }
    } else if let optional = Value.self as? any OptionalOfObject.Type,
      isObjectType(optional.wrappedType)
    {
      object = { ($0 as! any OptionalOfObject).object }
    } else {
      return nil
    }
  }
}

/// Whether a value of `type` is an object reference that is not `Equatable`: a class, or an
/// existential only classes conform to.
private func isObjectType(_ type: Any.Type) -> Bool {
  (type is AnyObject.Type || isClassBoundExistential(type)) && !(type is any Equatable.Type)
}

/// Whether `type` is an existential that only classes conform to: `AnyObject`, `any Delegate`
/// for a `protocol Delegate: AnyObject`, `any Base & Named`. A value of it is a reference to
/// an object, but `type is AnyObject.Type` is false, as the type is not a class.
///
/// Read from the type's metadata, as the Swift ABI lays it out (docs/ABI/TypeMetadata.rst and
/// include/swift/ABI/Metadata.h in the Swift repository, stable where the ABI is). Every
/// type's metadata starts with its kind (a class's, on Apple platforms, with a pointer, which
/// is never one of these):
/// - 0x303, an existential: the 32 bits of flags after the kind have bit 31 clear when the
///   protocols include a class constraint;
/// - 0x307, an extended existential (`any Source<Int>`, a protocol with a primary associated
///   type, constrained): the word after the kind points to its shape, whose first 32 bits of
///   flags hold its special kind in the low 8, 1 for a class constraint (2 is an existential
///   metatype, `any Source<Int>.Type`). On arm64e that pointer is signed, and is not
///   followed: there, such a type is remembered as a value.
func isClassBoundExistential(_ type: Any.Type) -> Bool {
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  let wordSize = MemoryLayout<UInt>.size
  switch metadata.load(as: UInt.self) {
  case 0x303:
    let flags = metadata.load(fromByteOffset: wordSize, as: UInt32.self)
    return flags & 0x8000_0000 == 0
  case 0x307:
    #if arch(arm64e)
      // There the shape pointer is signed, and following it as it is would fault: such a
      // type is remembered as a value, as it was before extended existentials were read.
      return false
    #else
      let shape = metadata.load(fromByteOffset: wordSize, as: UnsafeRawPointer.self)
      return shape.load(as: UInt32.self) & 0xFF == 1
    #endif
  default:
    return false
  }
}

/// An optional, opened to its wrapped type: for ``ReferenceReading``.
protocol OptionalOfObject {
  /// The type it wraps.
  static var wrappedType: Any.Type { get }
  /// What it wraps, as an object (only asked when the wrapped type is a class).
  var object: AnyObject? { get }
}

extension Optional: OptionalOfObject {
  static var wrappedType: Any.Type { Wrapped.self }
  var object: AnyObject? { map { $0 as AnyObject } }
}

/// A value that changes its stamp whenever it may have changed, so that observers can follow
/// it without keeping a copy. Stamps come from one counter, so two values never share one.
protocol VersionStamped {
  var versionStamp: VersionStamp { get }
  /// Lets go of the elements and keeps the stamps: what a store keeps of a collection it
  /// only compares (see ``HollowingPlan``).
  mutating func hollowOut()
}

/// The version of a stamped value. Equal stamps mean an unchanged value; different stamps
/// mean a value that may have changed (a write of an equal element counts as a change).
struct VersionStamp: Hashable {
  var structure: UInt64
  var content: UInt64
  var extra = 0
}

extension IdentifiedArray: VersionStamped {
  var versionStamp: VersionStamp {
    VersionStamp(structure: structure, content: content)
  }

  mutating func hollowOut() {
    self = IdentifiedArray(hollowWith: stamps)
  }
}

extension StackState: VersionStamped {
  var versionStamp: VersionStamp {
    VersionStamp(structure: entries.structure, content: entries.content, extra: nextID)
  }

  mutating func hollowOut() {
    entries.hollowOut()
  }
}

/// What an observer read: a value, a collection's ids, or an optional child's presence.
enum TrackKey: Hashable {
  case value(AnyKeyPath)
  case ids(AnyKeyPath)
  case presence(ScopeKey)
}

/// How to compare two values of `Value`: by `==` if it is `Equatable`; by identity if it is
/// a class (a reference in state changes when another object is put there; what the object
/// does inside is its own to publish, as an `Observable` class does); otherwise by the bytes
/// the value is stored in.
///
/// Bytes that did not change hold the same inline fields, the same buffers and the same
/// objects. A buffer the remembered copy shares is copied before it is written, so a change
/// to an array or string inside moves it and counts. An object the value holds counts by
/// identity, as a class in state does: a change inside it, or a weak reference to it that
/// became `nil`, is not seen. Bytes that changed count as a change, even when the value is
/// equal (the same array, built again).
///
/// An `Equatable` value whose bytes did not change is equal without calling `==`, and `==`
/// gets the two values where they are, not copies: a large state read whole (`store.state`)
/// is compared after every action, and the `==` the compiler writes for nested structures
/// and enums can take many times the value's size in stack already.
func equality<Value>(of type: Value.Type) -> ValueEquality<Value> {
  guard let equatable = type as? any Equatable.Type else {
    if type is AnyObject.Type {
      return { first, second in
        (first.pointee as AnyObject) === (second.pointee as AnyObject)
      }
    }
    return { first, second in haveSameBytes(first, second) }
  }
  func compare<E: Equatable>(_: E.Type) -> ValueEquality<Value> {
    { first, second in haveSameBytes(first, second) || areEqual(first, second, as: E.self) }
  }
  return compare(equatable)
}

/// Whether two values, given where they are stored, are equal (see `equality(of:)`).
typealias ValueEquality<Value> = (UnsafeMutablePointer<Value>, UnsafeMutablePointer<Value>)
  -> Bool

/// Whether the values at `first` and `second` are stored in the same bytes.
private func haveSameBytes<Value>(_ first: UnsafePointer<Value>, _ second: UnsafePointer<Value>)
  -> Bool
{
  haveSameBytes(
    UnsafeRawPointer(first), UnsafeRawPointer(second), count: MemoryLayout<Value>.size)
}

/// `==` on the values at `first` and `second`, whose type is `E`, read in place.
private func areEqual<Value, E: Equatable>(
  _ first: UnsafePointer<Value>, _ second: UnsafePointer<Value>, as _: E.Type
) -> Bool {
  UnsafeRawPointer(first).assumingMemoryBound(to: E.self).pointee
    == UnsafeRawPointer(second).assumingMemoryBound(to: E.self).pointee
}
