#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON a checkpoint's digest is taken of: the log's encoding of the state, with the
/// elements of every `Set`, and the entries of every `Dictionary` encoded as a list of keys
/// and values, in a canonical order.
///
/// `JSONEncoder` writes such collections in their iteration order, which depends on the
/// process's hash seed and on the collection's history, so two equal states, or one state in
/// two runs, could encode differently and a correct log fail its checkpoints. Sorted keys take
/// care of objects. Here the encoded state is read back as a tree of byte ranges, the
/// unordered collections (found by walking the state with an encoder that only notes where
/// they are) are sorted by their elements' own canonical bytes, and everything else is kept
/// byte for byte: a state without unordered collections, or whose collections are already in
/// canonical order, digests exactly as before.
///
/// A value whose only stored property is such a collection, and which writes a list in its
/// encoder's unkeyed container, has that list sorted only when it holds what the
/// collection's own encoding holds (see ``OwnListCheck``): when it handed the collection its
/// own encoder (`try values.encode(to: encoder)`), or wrote its elements itself. Any other
/// list it writes (a dictionary's values in the order of their keys, a set's entries by
/// position, its elements' names) keeps the order it was written in: that order may be the
/// value's, which the canonical form must not lose. A value that writes such a list in its
/// collection's iteration order must sort it itself, for equal values to digest alike.
enum CanonicalJSON {
  /// The canonical form of `json`, the log encoder's encoding of `value`.
  ///
  /// - Parameters:
  ///   - json: `value` encoded by the log's encoder (compact, sorted keys).
  ///   - value: The value, walked to find its unordered collections.
  ///   - encoder: The log's encoder, for the spelling of object keys.
  /// - Returns: `json` itself when nothing needs reordering.
  /// - Complexity: O(*n*) for *n* bytes of JSON when it holds no unordered collection; else
  ///   O(*n* log *n*) at worst.
  static func canonical(_ json: Data, of value: some Encodable, encoder: JSONEncoder) -> Data {
    // The walk calls the value's `encode(to:)`, as the encoder that wrote `json` did: it runs
    // here. What follows only reads JSON, and recurses once per level of it (the parse, the
    // write, and the release of the tree of nodes): it runs where a deep state has room.
    let places = unorderedPlaces(in: value)
    guard !places.isEmpty else { return json }
    let spelledKeys = spellings(ofKeysIn: places.keys, encoder: encoder)
    return StackRoom.run(reading: json) {
      ordered(json, places: places, spelledKeys: spelledKeys) ?? json
    }
  }

  /// `json` with the arrays at `places` put in order; `nil` when nothing needs reordering, or
  /// `json` cannot be read.
  ///
  /// - Parameters:
  ///   - json: The text to reorder.
  ///   - places: Where its unordered collections are, and how to order each.
  ///   - spelledKeys: Each object key in `places`, as the log's encoder writes it.
  private static func ordered(
    _ json: Data, places: [[JSONPathComponent]: CanonicalOrder], spelledKeys: [String: [UInt8]]
  ) -> Data? {
    let bytes = [UInt8](json)
    var parser = RawJSONParser(bytes: bytes)
    guard let root = parser.parse() else { return nil }
    for (path, kind) in places {
      var node = root
      var trail = [root]
      var found = true
      for component in path {
        switch component {
        case .index(let index):
          guard node.kind == .array, node.children.indices.contains(index) else {
            found = false
            break
          }
          node = node.children[index]
        case .key(let key):
          let spelled = spelledKeys[key] ?? []
          guard node.kind == .object,
            let position = node.keys.firstIndex(where: {
              JSONField.isKey(bytes[$0], key, spelled: spelled)
            })
          else {
            found = false
            break
          }
          node = node.children[position]
        }
        if !found { break }
        trail.append(node)
      }
      guard found, node.kind == .array else { continue }
      node.order = kind
      for step in trail { step.isReordered = true }
    }
    guard root.isReordered else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    root.write(from: bytes, to: &output)
    return Data(output)
  }

  /// Each object key that `paths` step through, as `encoder` writes it (with its quotes);
  /// an empty spelling for one it cannot write.
  private static func spellings(
    ofKeysIn paths: some Sequence<[JSONPathComponent]>, encoder: JSONEncoder
  ) -> [String: [UInt8]] {
    var spelled: [String: [UInt8]] = [:]
    for path in paths {
      for case .key(let key) in path where spelled[key] == nil {
        spelled[key] = (try? encoder.encode(key)).map { [UInt8]($0) } ?? []
      }
    }
    return spelled
  }
}

extension CanonicalJSON {
  /// Where `value`'s encoding holds unordered collections, and how to order each; empty when
  /// it holds none. A value whose `encode(to:)` fails for this walk alone (it throws for any
  /// encoder but a JSON one) is left as it is, with the collections inside it; every other
  /// collection is found, whatever order the walk takes through sets and dictionaries, so
  /// that equal values order alike.
  static func unorderedPlaces(in value: some Encodable)
    -> [[JSONPathComponent]: CanonicalOrder]
  {
    let finder = UnorderedCollectionFinder()
    finder.visit(value, at: [])
    finder.dropListsNotOwn()
    return finder.places
  }
}

/// How an unordered collection's JSON array is put in order.
enum CanonicalOrder: Sendable {
  /// A set: its elements, sorted.
  case elements
  /// A dictionary written as a flat list of keys and values: its pairs, sorted by key.
  case pairs
}

/// A step into encoded JSON: an object's key or an array's position.
enum JSONPathComponent: Hashable {
  case key(String)
  case index(Int)
}

/// A collection whose encoding follows its iteration order, which equal values need not
/// share.
protocol UnorderedEncodable {
  /// How its encoding is put in order.
  static var canonicalOrder: CanonicalOrder { get }

  /// A check of a list written in place of the collection's own encoding: by a value that
  /// wraps it, into its own encoder's unkeyed container.
  func ownListCheck() -> any OwnListCheck
}

extension Set: UnorderedEncodable {
  static var canonicalOrder: CanonicalOrder { .elements }

  func ownListCheck() -> any OwnListCheck { ElementListCheck(self) }
}

extension Dictionary: UnorderedEncodable {
  static var canonicalOrder: CanonicalOrder { .pairs }

  func ownListCheck() -> any OwnListCheck { PairListCheck(self) }
}

/// Where a value's unordered collections sit in its encoding.
final class UnorderedCollectionFinder {
  var places: [[JSONPathComponent]: CanonicalOrder] = [:]
  /// The keys of `places`, in the order they were found: a visit that fails takes back what
  /// it found.
  private var found: [[JSONPathComponent]] = []
  /// The lists that values wrapping a set or a dictionary (see `wrappedCollection(of:)`)
  /// write into their own encoders' unkeyed containers, where they are, with the check of
  /// what was written in them: read when the walk is over, so that a visit, which recurses
  /// once per level, takes no more stack for them.
  private var listChecks: [(path: [JSONPathComponent], check: any OwnListCheck)] = []

  /// Finds the unordered collections in `value`, at `path`. A value whose walk fails
  /// contributes none, not even those found before it failed: where it failed can depend on
  /// the order a set or dictionary around it iterates in, which equal values need not share.
  /// Its siblings are still walked.
  func visit<T: Encodable>(_ value: T, at path: [JSONPathComponent]) {
    // Called once per level of the value, on the caller's stack, as deep as the state goes:
    // what a wrapper's list needs is kept out of here (see `listChecks`).
    let start = found.count
    do {
      if let unordered = value as? any UnorderedEncodable {
        register(path, type(of: unordered).canonicalOrder)
        try value.encode(to: PlaceEncoder(finder: self, path: path))
      } else {
        try value.encode(to: PlaceEncoder(finder: self, path: path, origin: value))
      }
    } catch {
      for place in found[start...] { places[place] = nil }
      found.removeSubrange(start...)
    }
  }

  /// Notes the list a value that wraps an unordered collection writes at `path`, in its own
  /// encoder's unkeyed container: ordered as the collection is, unless ``dropListsNotOwn()``
  /// finds, once the walk is over, that it holds something else.
  func registerList(at path: [JSONPathComponent], _ check: any OwnListCheck) {
    // A place found already (a second container asked for) keeps what it was found as.
    guard places[path] == nil else { return }
    // Taken back with the rest if the visit fails (the second review).
    register(path, check.order)
    listChecks.append((path, check))
  }

  /// Takes back the lists noted by ``registerList(at:_:)`` that do not hold what the
  /// collection's own encoding holds: a list of the wrapper's own keeps its order.
  func dropListsNotOwn() {
    for (path, check) in listChecks where !check.isOwnList { places[path] = nil }
    listChecks = []
  }

  /// Notes an unordered collection at `path`, to be taken back if the visit it is part of
  /// fails.
  func register(_ path: [JSONPathComponent], _ order: CanonicalOrder) {
    places[path] = order
    found.append(path)
  }

  /// The unordered collection that `value` wraps, which it may encode by handing it its own
  /// encoder (`try values.encode(to: encoder)`): a value whose only stored property is one,
  /// or wraps one the same way, a few levels down.
  static func wrappedCollection(of value: Any) -> (any UnorderedEncodable)? {
    var current = value
    for _ in 0..<4 {
      if let unordered = current as? any UnorderedEncodable { return unordered }
      guard !(current is any Sequence) else { return nil }
      let children = Mirror(reflecting: current).children.makeIterator()
      guard let only = children.next(), children.next() == nil else { return nil }
      current = only.value
    }
    return nil
  }
}

/// An encoder that writes nothing, only following the value's structure for the finder.
private struct PlaceEncoder: Encoder {
  let finder: UnorderedCollectionFinder
  let path: [JSONPathComponent]
  /// The value being encoded, when it may wrap an unordered collection (see
  /// ``UnorderedCollectionFinder/wrappedCollection(of:)``).
  var origin: Any? = nil
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // A dictionary whose keys are strings or integers encodes as an object, which sorted
    // keys already put in order.
    if finder.places[path] == .pairs { finder.places[path] = nil }
    return KeyedEncodingContainer(PlaceKeyedContainer(finder: finder, path: path))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    // A wrapper that handed its set its own encoder writes the set's list here, in iteration
    // order; one that writes a list of its own writes it in an order that may mean something.
    // What is written is checked against the set, and the list is ordered only if it holds
    // what the set's own encoding does.
    guard let origin, let collection = UnorderedCollectionFinder.wrappedCollection(of: origin)
    else { return PlaceUnkeyedContainer(finder: finder, path: path) }
    let check = collection.ownListCheck()
    finder.registerList(at: path, check)
    return PlaceUnkeyedContainer(finder: finder, path: path, check: check)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    PlaceSingleValueContainer(finder: finder, path: path)
  }
}

private struct PlaceKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let finder: UnorderedCollectionFinder
  let path: [JSONPathComponent]
  var codingPath: [any CodingKey] { [] }

  private func child(_ key: Key) -> [JSONPathComponent] { path + [.key(key.stringValue)] }

  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode(_ value: Bool, forKey key: Key) throws {}
  mutating func encode(_ value: String, forKey key: Key) throws {}
  mutating func encode(_ value: Double, forKey key: Key) throws {}
  mutating func encode(_ value: Float, forKey key: Key) throws {}
  mutating func encode(_ value: Int, forKey key: Key) throws {}
  mutating func encode(_ value: Int8, forKey key: Key) throws {}
  mutating func encode(_ value: Int16, forKey key: Key) throws {}
  mutating func encode(_ value: Int32, forKey key: Key) throws {}
  mutating func encode(_ value: Int64, forKey key: Key) throws {}
  mutating func encode(_ value: UInt, forKey key: Key) throws {}
  mutating func encode(_ value: UInt8, forKey key: Key) throws {}
  mutating func encode(_ value: UInt16, forKey key: Key) throws {}
  mutating func encode(_ value: UInt32, forKey key: Key) throws {}
  mutating func encode(_ value: UInt64, forKey key: Key) throws {}
  // Without these two, the protocol's default throws, and the walk found no place at all.
  mutating func encode(_ value: Int128, forKey key: Key) throws {}
  mutating func encode(_ value: UInt128, forKey key: Key) throws {}

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    finder.visit(value, at: child(key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(PlaceKeyedContainer<NestedKey>(finder: finder, path: child(key)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    PlaceUnkeyedContainer(finder: finder, path: child(key))
  }

  mutating func superEncoder() -> any Encoder {
    PlaceEncoder(finder: finder, path: path + [.key("super")])
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    PlaceEncoder(finder: finder, path: child(key))
  }
}

private struct PlaceUnkeyedContainer: UnkeyedEncodingContainer {
  let finder: UnorderedCollectionFinder
  let path: [JSONPathComponent]
  /// For the container of a value that wraps a set or a dictionary: what is written in it,
  /// checked against what the collection's own encoding writes.
  let check: (any OwnListCheck)?
  var codingPath: [any CodingKey] { [] }
  private(set) var count = 0

  init(
    finder: UnorderedCollectionFinder, path: [JSONPathComponent], check: (any OwnListCheck)? = nil
  ) {
    self.finder = finder
    self.path = path
    self.check = check
  }

  private mutating func next() -> [JSONPathComponent] {
    defer { count += 1 }
    return path + [.index(count)]
  }

  /// Steps over a value with nothing to find inside it, noting it for the check.
  private mutating func skip<T>(_ value: T) {
    note(value)
    count += 1
  }

  mutating func encodeNil() throws {
    // A nil: the collection's own encoding writes one for an optional element or value.
    check?.noteNil()
    count += 1
  }
  mutating func encode(_ value: Bool) throws { skip(value) }
  mutating func encode(_ value: String) throws { skip(value) }
  mutating func encode(_ value: Double) throws { skip(value) }
  mutating func encode(_ value: Float) throws { skip(value) }
  mutating func encode(_ value: Int) throws { skip(value) }
  mutating func encode(_ value: Int8) throws { skip(value) }
  mutating func encode(_ value: Int16) throws { skip(value) }
  mutating func encode(_ value: Int32) throws { skip(value) }
  mutating func encode(_ value: Int64) throws { skip(value) }
  mutating func encode(_ value: UInt) throws { skip(value) }
  mutating func encode(_ value: UInt8) throws { skip(value) }
  mutating func encode(_ value: UInt16) throws { skip(value) }
  mutating func encode(_ value: UInt32) throws { skip(value) }
  mutating func encode(_ value: UInt64) throws { skip(value) }
  mutating func encode(_ value: Int128) throws { skip(value) }
  mutating func encode(_ value: UInt128) throws { skip(value) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    // In a function of its own, whose frame is gone before the visit recurses.
    note(value)
    finder.visit(value, at: next())
  }

  /// Notes `value` for the check, when there is one.
  private func note<T>(_ value: T) {
    check?.note(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    check?.noteOther()
    return KeyedEncodingContainer(PlaceKeyedContainer<NestedKey>(finder: finder, path: next()))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    check?.noteOther()
    return PlaceUnkeyedContainer(finder: finder, path: next())
  }

  mutating func superEncoder() -> any Encoder {
    check?.noteOther()
    return PlaceEncoder(finder: finder, path: next())
  }
}

private struct PlaceSingleValueContainer: SingleValueEncodingContainer {
  let finder: UnorderedCollectionFinder
  let path: [JSONPathComponent]
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws {}
  mutating func encode(_ value: Bool) throws {}
  mutating func encode(_ value: String) throws {}
  mutating func encode(_ value: Double) throws {}
  mutating func encode(_ value: Float) throws {}
  mutating func encode(_ value: Int) throws {}
  mutating func encode(_ value: Int8) throws {}
  mutating func encode(_ value: Int16) throws {}
  mutating func encode(_ value: Int32) throws {}
  mutating func encode(_ value: Int64) throws {}
  mutating func encode(_ value: UInt) throws {}
  mutating func encode(_ value: UInt8) throws {}
  mutating func encode(_ value: UInt16) throws {}
  mutating func encode(_ value: UInt32) throws {}
  mutating func encode(_ value: UInt64) throws {}
  mutating func encode(_ value: Int128) throws {}
  mutating func encode(_ value: UInt128) throws {}

  // A value encoded as a single value takes its container's place.
  mutating func encode<T: Encodable>(_ value: T) throws {
    finder.visit(value, at: path)
  }
}

/// A JSON value as byte ranges of the text it was read from.
final class RawJSONNode {
  enum Kind { case scalar, array, object }

  let kind: Kind
  let start: Int
  var end = 0
  /// The elements of an array, or the values of an object.
  var children: [RawJSONNode] = []
  /// The keys of an object (with their quotes), one per child.
  var keys: [Range<Int>] = []
  /// For an unordered collection: how to order its elements.
  var order: CanonicalOrder?
  /// Whether this value or one inside it is reordered.
  var isReordered = false

  init(kind: Kind, start: Int) {
    self.kind = kind
    self.start = start
  }

  /// Appends the canonical text: the original bytes where nothing inside is reordered.
  func write(from bytes: [UInt8], to output: inout [UInt8]) {
    guard isReordered else {
      output += bytes[start..<end]
      return
    }
    switch kind {
    case .scalar:
      output += bytes[start..<end]
    case .object:
      output.append(UInt8(ascii: "{"))
      for (position, child) in children.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        output += bytes[keys[position]]
        output.append(UInt8(ascii: ":"))
        child.write(from: bytes, to: &output)
      }
      output.append(UInt8(ascii: "}"))
    case .array:
      var items = children.map { child -> [UInt8] in
        var text: [UInt8] = []
        child.write(from: bytes, to: &text)
        return text
      }
      switch order {
      case .elements?:
        items.sort { $0.lexicographicallyPrecedes($1) }
      case .pairs? where items.count.isMultiple(of: 2):
        // By key, then by value: keys that differ only in what they do not encode tie.
        let pairs = stride(from: 0, to: items.count, by: 2).map { (items[$0], items[$0 + 1]) }
        items = pairs.sorted {
          $0.0 == $1.0 ? $0.1.lexicographicallyPrecedes($1.1) : $0.0.lexicographicallyPrecedes($1.0)
        }
        .flatMap { [$0.0, $0.1] }
      case .pairs?, nil:
        break
      }
      output.append(UInt8(ascii: "["))
      for (position, item) in items.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        output += item
      }
      output.append(UInt8(ascii: "]"))
    }
  }
}

/// Reads JSON text into ``RawJSONNode``s, or gives `nil` for text that is not JSON, or that
/// nests arrays and objects deeper than `JSONDecoder` reads (``JSONCheck/maximumDepth``): it
/// recurses once per level, so a line of a million `[` would otherwise overflow the stack.
struct RawJSONParser {
  let bytes: [UInt8]
  private var position = 0
  /// How many arrays and objects enclose the value being read.
  private var depth = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func parse() -> RawJSONNode? {
    guard let root = value() else { return nil }
    skipSpace()
    return position == bytes.count ? root : nil
  }

  private mutating func skipSpace() {
    while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) {
      position += 1
    }
  }

  private mutating func value() -> RawJSONNode? {
    skipSpace()
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "{"): return container(.object, closer: UInt8(ascii: "}"))
    case UInt8(ascii: "["): return container(.array, closer: UInt8(ascii: "]"))
    case UInt8(ascii: "\""):
      let node = RawJSONNode(kind: .scalar, start: position)
      guard let range = string() else { return nil }
      node.end = range.upperBound
      return node
    default:
      let node = RawJSONNode(kind: .scalar, start: position)
      while position < bytes.count,
        ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09]
          .contains(bytes[position])
      {
        position += 1
      }
      node.end = position
      return node.end > node.start ? node : nil
    }
  }

  /// Reads a string, returning its range with the quotes.
  private mutating func string() -> Range<Int>? {
    let start = position
    position += 1
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "\\"): position += 2
      case UInt8(ascii: "\""):
        position += 1
        return start..<position
      default: position += 1
      }
    }
    return nil
  }

  private mutating func container(_ kind: RawJSONNode.Kind, closer: UInt8) -> RawJSONNode? {
    guard depth < JSONCheck.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    let node = RawJSONNode(kind: kind, start: position)
    position += 1
    skipSpace()
    if position < bytes.count, bytes[position] == closer {
      position += 1
      node.end = position
      return node
    }
    while true {
      if kind == .object {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\""),
          let key = string()
        else { return nil }
        node.keys.append(key)
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
        position += 1
      }
      guard let child = value() else { return nil }
      node.children.append(child)
      skipSpace()
      guard position < bytes.count else { return nil }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == closer {
        position += 1
        node.end = position
        return node
      } else {
        return nil
      }
    }
  }
}
