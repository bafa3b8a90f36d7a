import Effects

/// Key paths the library derives from a user's key path at each action or render, made once.
///
/// A key path literal into a generic type (`\StackState<Screen>.entries`) is built anew each
/// time its expression runs, its types looked up by their mangled names, and appending one key
/// path to another allocates a third: together about 4.7 us of an action to a stack screen
/// that took 4.8 us, where the same screen through `Scope` took 0.09 us.
///
/// Bounded: emptied when it holds ``limit`` key paths (a program names far fewer stacks).
/// The library uses ``shared``; tests make caches of their own.
@usableFromInline
final class KeyPathCache: Sendable {
  /// What a cached key path was derived from: a key path object, by identity, or a type.
  @usableFromInline
  enum Key: Hashable, Sendable {
    /// The writable key path to a stack's entries, from the key path to the stack.
    case stackEntries(ObjectIdentifier)
    /// The read-only key path to a stack's entries, from the key path to the stack: kept
    /// apart from the writable one, which is of another class.
    case readOnlyStackEntries(ObjectIdentifier)
    /// The key path from a stack entry to its screen's state, by the entry's type.
    case entryElement(ObjectIdentifier)
    /// A scope's key path through a computed property that its `Scope` said is safe to read
    /// at any time: the store follows it between actions (the entry is the key path itself).
    case safeToRead(ObjectIdentifier)

    /// The kind of path, for the keys also kept by their source key path's equality (see
    /// ``KeyPathCache/cached(_:equalTo:)``); nil for the others.
    var equalityKind: UInt8? {
      switch self {
      case .stackEntries: 0
      case .readOnlyStackEntries: 1
      case .entryElement, .safeToRead: nil
      }
    }
  }

  /// A derived key path's kind and the key path it was derived from, compared by equality.
  ///
  /// `@unchecked Sendable`: key paths are immutable once made.
  private struct EqualSource: Hashable, @unchecked Sendable {
    let kind: UInt8
    let source: AnyKeyPath
  }

  /// A cached key path, with the key path object it was derived from. Keeping that object
  /// alive keeps its identity from being given to another key path while the entry lasts.
  /// (Looked up by identity first: a key path literal outside generic code is one object,
  /// made once, and hashing a key path costs as much as the rest of the lookup. By equality
  /// only when identity finds nothing: see ``KeyPathCache/cached(_:equalTo:)``.)
  ///
  /// `@unchecked Sendable`: key paths are immutable once made.
  private struct Cached: @unchecked Sendable {
    let path: AnyKeyPath
    let source: AnyObject?
  }

  private struct Entries: Sendable {
    /// The paths by their source's identity.
    var paths: [Key: Cached] = [:]
    /// The same paths by their source's equality, for the keys that have an
    /// ``Key/equalityKind``.
    var byEquality: [EqualSource: Cached] = [:]
  }

  private let cache = Locked(Entries())

  /// Key paths marked safe to read (see ``Key/safeToRead(_:)``), by equality.
  ///
  /// `@unchecked Sendable`: key paths are immutable once made.
  private struct MarkedPaths: @unchecked Sendable {
    var paths: Set<AnyKeyPath> = []
  }

  /// The key paths marked safe to read, found by equality: a key path literal into a generic
  /// type is a new object each time its expression runs, so the one a scope marks is not the
  /// one its effects' lifetimes hold, and a mark found by identity alone was never found.
  /// Emptied when it holds ``limit`` key paths, as the cache is (a scope marks its key path
  /// again at every action).
  private let marked = Locked(MarkedPaths())

  /// How many key paths the cache holds before it is emptied.
  let limit: Int

  /// The cache the library's reducers and stores use.
  @usableFromInline
  static let shared = KeyPathCache(limit: 1_024)

  /// An empty cache that holds up to `limit` key paths.
  init(limit: Int) {
    self.limit = limit
  }

  /// The key path made for `key` before, if any.
  @usableFromInline
  func cached(_ key: Key) -> AnyKeyPath? {
    cache.withLock { $0.paths[key] }?.path
  }

  /// The key path made for `key` before from a key path equal to `source`, when `key` has an
  /// ``Key/equalityKind``: the lookup for a source whose identity was not seen, such as a key
  /// path literal into a generic type (`\Feature<T>.State.path`) or one with an index known
  /// at run time, which is a new object each time its expression runs. Found here, the path
  /// is neither made nor kept again: each action to a generic feature's stack made and kept
  /// one before, and emptied the cache every ``limit`` actions.
  ///
  /// - Complexity: One hash of `source`, where the lookup by identity costs none.
  @usableFromInline
  func cached(_ key: Key, equalTo source: AnyKeyPath) -> AnyKeyPath? {
    guard let kind = key.equalityKind else { return nil }
    return cache.withLock { $0.byEquality[EqualSource(kind: kind, source: source)] }?.path
  }

  /// Keeps `path` as the key path made for `key` from `source`, and returns it; by
  /// `source`'s equality too when `key` has an ``Key/equalityKind`` (see
  /// ``cached(_:equalTo:)``).
  @usableFromInline
  func keep<Path: AnyKeyPath>(_ path: Path, for key: Key, from source: AnyObject?)
    -> Path
  {
    let entry = Cached(path: path, source: source)
    let equalSource = (source as? AnyKeyPath).flatMap { source in
      key.equalityKind.map { EqualSource(kind: $0, source: source) }
    }
    cache.withLock { entries in
      if entries.paths.count >= limit {
        entries.paths.removeAll(keepingCapacity: true)
        entries.byEquality.removeAll(keepingCapacity: true)
      }
      entries.paths[key] = entry
      if let equalSource { entries.byEquality[equalSource] = entry }
    }
    return path
  }

  /// The key path made for `key` before (from `source` itself, or from a key path equal to
  /// it), or the one `make` makes now, kept.
  func path<Path: AnyKeyPath>(_ key: Key, from source: AnyKeyPath?, _ make: () -> Path) -> Path {
    let found = cached(key) ?? source.flatMap { cached(key, equalTo: $0) }
    guard let found else { return keep(make(), for: key, from: source) }
    return unsafeDowncast(found, to: Path.self)
  }

  /// How many key paths the cache holds now, by identity.
  var count: Int { cache.withLock { $0.paths.count } }

  /// Marks `path` safe to read at any time, and returns whether it is the object the marks
  /// hold for it: the first of the key paths equal to it that was marked. (Another equal
  /// one, a generic key path made again, is not worth keeping by identity: the next will be
  /// another object again.)
  ///
  /// - Complexity: One hash of `path`.
  func markSafeToRead(_ path: AnyKeyPath) -> Bool {
    marked.withLock { marked in
      if marked.paths.count >= limit, !marked.paths.contains(path) {
        marked.paths.removeAll(keepingCapacity: true)
      }
      return marked.paths.insert(path).memberAfterInsert === path
    }
  }

  /// Whether a key path equal to `path` was marked safe to read.
  func isMarkedSafeToRead(_ path: AnyKeyPath) -> Bool {
    marked.withLock { $0.paths.contains(path) }
  }

  /// A new key path to the entries of the stack at `toStack`.
  @usableFromInline
  static func makeEntriesPath<Root, Screen>(
    of toStack: WritableKeyPath<Root, StackState<Screen>>
  ) -> WritableKeyPath<Root, IdentifiedArray<StackElementID, StackState<Screen>.Entry>> {
    toStack.appending(path: \.entries)
  }
}

/// The key path to the entries of the stack at `toStack`, made once per stack key path.
///
/// Inlinable: its cast is then to a type known where it is written, where a cast in generic
/// code looks the type up at run time.
@inlinable
func entriesPath<Root, Screen>(
  of toStack: WritableKeyPath<Root, StackState<Screen>>
) -> WritableKeyPath<Root, IdentifiedArray<StackElementID, StackState<Screen>.Entry>> {
  let key = KeyPathCache.Key.stackEntries(ObjectIdentifier(toStack))
  guard
    let cached = KeyPathCache.shared.cached(key)
      ?? KeyPathCache.shared.cached(key, equalTo: toStack)
  else {
    return KeyPathCache.shared.keep(
      KeyPathCache.makeEntriesPath(of: toStack), for: key, from: toStack)
  }
  typealias Entries = IdentifiedArray<StackElementID, StackState<Screen>.Entry>
  return unsafeDowncast(cached, to: WritableKeyPath<Root, Entries>.self)
}

/// The key path to the entries of the stack at `toStack`, read-only, made once per stack key
/// path.
func readOnlyEntriesPath<Root, Screen>(
  of toStack: KeyPath<Root, StackState<Screen>>
) -> KeyPath<Root, IdentifiedArray<StackElementID, StackState<Screen>.Entry>> {
  KeyPathCache.shared.path(.readOnlyStackEntries(ObjectIdentifier(toStack)), from: toStack) {
    toStack.appending(path: \.entries)
  }
}

extension StackState {
  /// The key path from an entry to its screen's state, made once per screen type.
  static var entryElement: KeyPath<Entry, Element> {
    KeyPathCache.shared.path(.entryElement(ObjectIdentifier(Entry.self)), from: nil) {
      \Entry.element
    }
  }
}
