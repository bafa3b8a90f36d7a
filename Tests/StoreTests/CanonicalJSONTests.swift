import Effects
import Foundation
import Testing

@testable import Store

/// Checkpoint digests of states holding unordered collections: equal states digest alike
/// whatever their collections' iteration order, which differs between runs (hash seeds) and
/// between equal values with different histories.
@Suite struct CanonicalJSONTests {
  struct Point: Hashable, Codable {
    var x: Int
    var y: Int
  }

  struct Tagged: Hashable, Codable {
    var title = "tags"
    var tags: Set<String> = []
    var byPoint: [Point: Set<Int>] = [:]
    var byName: [String: Int] = [:]
    var list: [Int] = [3, 1, 2]
  }

  let encoder = makeLogEncoder()

  func digest(_ value: Tagged) throws -> String {
    let json = try encoder.encode(value)
    return StateDigest.of(CanonicalJSON.canonical(json, of: value, encoder: encoder))
  }

  /// Equal values built with different capacities, which iterate in different orders.
  func variants(_ make: (Int) -> Tagged) -> [Tagged] {
    [4, 64, 512, 4096].map(make)
  }

  /// The parser that finds a line's fields recurses once per level: past the depth
  /// `JSONDecoder` reads, it refuses the text instead of overflowing the stack (a million
  /// levels crashed the process).
  @Test func aLineNestedPastTheDecodersDepthIsRefusedNotRecursedInto() {
    let deep = Data(#"{"action":"#.utf8 + Array(repeating: UInt8(ascii: "["), count: 1_000_000))
    #expect(JSONField.bytes(of: "action", in: deep) == nil)
    let nested = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
    let line = Data(#"{"action":\#(nested)}"#.utf8)
    #expect(JSONField.bytes(of: "action", in: line) == Data(nested.utf8))
  }

  @Test func equalSetsBuiltDifferentlyDigestAlike() throws {
    let words = (0..<12).map { "word \($0)" }
    let states = variants { capacity in
      var tags = Set<String>(minimumCapacity: capacity)
      for word in words.reversed() { tags.insert(word) }
      return Tagged(tags: tags)
    }
    #expect(Set(states).count == 1)
    // Their plain encodings differ (the odds of 12 elements iterating in the same order in
    // 16 buckets and in 4,096 are about one in 12 factorial); their digests do not.
    #expect(try Set(states.map { try encoder.encode($0) }).count > 1)
    #expect(try Set(states.map(digest)).count == 1)
  }

  @Test func equalDictionariesWithStructKeysAndNestedSetsDigestAlike() throws {
    let states = variants { capacity in
      var byPoint = [Point: Set<Int>](minimumCapacity: capacity)
      for x in 0..<6 {
        var values = Set<Int>(minimumCapacity: capacity)
        for value in (0..<5).reversed() { values.insert(value * x) }
        byPoint[Point(x: x, y: -x)] = values
      }
      return Tagged(byPoint: byPoint)
    }
    #expect(try Set(states.map(digest)).count == 1)
  }

  @Test func whatHasAnOrderKeepsItAndDifferentValuesDigestDifferently() throws {
    let base = Tagged(tags: ["a", "b"], byName: ["z": 1, "y": 2])
    var reordered = base
    reordered.list = [1, 2, 3]
    #expect(try digest(base) != digest(reordered))
    var retagged = base
    retagged.tags = ["a", "c"]
    #expect(try digest(base) != digest(retagged))
    // A state whose collections are already in canonical order digests as its plain
    // encoding did before canonical digests, so logs recorded then still verify.
    let plain = Tagged(tags: [], byName: ["z": 1, "y": 2])
    #expect(try digest(plain) == StateDigest.of(encoder.encode(plain)))
  }

  /// A set behind a wrapper that hands it its own encoder, as newtype wrappers do.
  struct Tags: Hashable, Encodable {
    var values: Set<String>
    func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
  }

  struct Wrapped: Hashable, Encodable {
    var tags: Tags
  }

  /// Keys that differ in something they do not encode.
  struct Version: Hashable, Encodable {
    var name: String
    var revision: Int
    enum CodingKeys: CodingKey { case name }
  }

  func canonical(_ value: some Encodable) throws -> String {
    let json = try encoder.encode(value)
    return String(
      decoding: CanonicalJSON.canonical(json, of: value, encoder: encoder), as: UTF8.self)
  }

  func sets(_ words: [String]) -> [Set<String>] {
    [4, 64, 512, 4096].map { capacity in
      var set = Set<String>(minimumCapacity: capacity)
      for word in words.reversed() { set.insert(word) }
      return set
    }
  }

  @Test func setsBehindWrappersAtTheRootAndKeysThatTieAreOrderedToo() throws {
    let words = (0..<12).map { "w\($0)" }
    #expect(try Set(sets(words).map { try canonical(Wrapped(tags: Tags(values: $0))) }).count == 1)
    #expect(try Set(sets(words).map { try canonical($0) }).count == 1)
    let tied = [4, 64, 512, 4096].map { capacity in
      var versions = [Version: Int](minimumCapacity: capacity)
      for revision in (0..<8).reversed() {
        versions[Version(name: "v", revision: revision)] = revision
      }
      return versions
    }
    #expect(try Set(tied.map { try canonical($0) }).count == 1)
  }

  @Test func stateChangesIgnoreTheOrderOfSetsAndNameWhatChangedInThem() {
    let words = (0..<12).map { "word \($0)" }
    let states = variants { capacity in
      var tags = Set<String>(minimumCapacity: capacity)
      for word in words.reversed() { tags.insert(word) }
      return Tagged(tags: tags)
    }
    for state in states.dropFirst() {
      #expect(stateChanges(from: states[0], to: state) == [])
    }
    var changed = states[1]
    changed.tags.remove("word 3")
    changed.tags.insert("word 99")
    #expect(!stateChanges(from: states[0], to: changed).isEmpty)
    #expect(stateChanges(from: states[0], to: changed).allSatisfy { $0.hasPrefix("tags") })
  }

  struct TagRow: Encodable {
    var name: String
    var tags: Set<String>
  }

  struct TagRows: Encodable {
    var rows: [TagRow]
  }

  @Test func aRemovedElementHoldingASetIsReportedAsRemovedOnly() {
    let tags = Set((0..<40).map { "t\($0)" })
    let old = TagRows(rows: ["a", "b", "c"].map { TagRow(name: $0, tags: tags) })
    let new = TagRows(rows: Array(old.rows.dropFirst()))
    let changes = stateChanges(from: old, to: new)
    #expect(changes.count == 1, "\(changes)")
    #expect(changes.first?.hasPrefix("rows[0] removed") == true)
  }

  @Test func theCanonicalFormIsJSONWithTheSameValues() throws {
    let value = Tagged(
      tags: ["b", "a", "c"], byPoint: [Point(x: 1, y: 2): [3, 1]], byName: ["k": 1])
    let json = try encoder.encode(value)
    let canonical = CanonicalJSON.canonical(json, of: value, encoder: encoder)
    #expect(try JSONDecoder().decode(Tagged.self, from: canonical) == value)
    let text = String(decoding: canonical, as: UTF8.self)
    #expect(text.contains(#""tags":["a","b","c"]"#))
    #expect(text.contains(#""byPoint":[{"x":1,"y":2},[1,3]]"#))
  }
}

/// Sets beside 128-bit integers: the walk that finds a value's unordered collections had no
/// way to step over an `Int128` or `UInt128` (the encoding protocols' default throws), and
/// found no collection at all in a state holding one, so equal states digested differently.
@Suite struct CanonicalWideIntegerTests {
  struct Wide: Hashable, Codable {
    var signed: Int128 = .min
    var unsigned: UInt128 = .max
    var list: [Int128] = [1, -1]
    var single = OneWide(value: 7)
    var tags: Set<String> = []
  }

  /// Encodes through a single-value container.
  struct OneWide: Hashable, Codable {
    var value: UInt128
    init(value: UInt128) { self.value = value }
    init(from decoder: any Decoder) throws {
      value = try decoder.singleValueContainer().decode(UInt128.self)
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  let encoder = makeLogEncoder()

  func canonicalText(_ value: some Encodable) throws -> String {
    let json = try encoder.encode(value)
    return String(
      decoding: CanonicalJSON.canonical(json, of: value, encoder: encoder), as: UTF8.self)
  }

  @Test func aSetBesideA128BitIntegerIsOrdered() throws {
    let words = (0..<12).map { "word \($0)" }
    let states = [4, 64, 512, 4096].map { capacity in
      var tags = Set<String>(minimumCapacity: capacity)
      for word in words.reversed() { tags.insert(word) }
      return Wide(tags: tags)
    }
    #expect(Set(states).count == 1)
    #expect(try Set(states.map { try encoder.encode($0) }).count > 1)
    let texts = try Set(states.map(canonicalText))
    #expect(texts.count == 1)
    let sorted = words.sorted().map { #""\#($0)""# }.joined(separator: ",")
    #expect(texts.first?.contains(#""tags":[\#(sorted)]"#) == true, "\(texts)")
  }

  /// A value whose `encode(to:)` fails for the walk alone: the collections beside it are
  /// still ordered, before it or after it.
  struct Refuses: Hashable, Codable {
    func encode(to encoder: any Encoder) throws {
      guard "\(type(of: encoder))".contains("JSON") else {
        throw EncodingError.invalidValue(
          self, .init(codingPath: encoder.codingPath, debugDescription: "not for the walk"))
      }
      var container = encoder.singleValueContainer()
      try container.encode("refuses")
    }
  }

  struct Partial: Hashable, Codable {
    var a: Set<Int>
    var b: Refuses = Refuses()
    var c: Set<Int>
  }

  @Test func aValueWhoseWalkFailsLeavesTheCollectionsBesideItOrdered() throws {
    var roomy = Set<Int>(minimumCapacity: 4096)
    for number in (0..<40).reversed() { roomy.insert(number) }
    let text = try canonicalText(Partial(a: roomy, c: roomy))
    // Ordered by their JSON text, as every set is.
    let sorted = (0..<40).map(String.init).sorted().joined(separator: ",")
    #expect(text.contains(#""a":[\#(sorted)]"#), "\(text)")
    #expect(text.contains(#""c":[\#(sorted)]"#), "\(text)")
  }

  struct Entry: Hashable, Codable {
    var tags: Set<Int> = []
    var refuses: Refuses?
  }

  /// Where the walk meets the value that fails depends on the order a dictionary around it
  /// iterates in: equal values still order alike (the walk kept what it had found before the
  /// failure, and so ordered one copy's sets and not the other's).
  @Test func equalValuesOrderAlikeWhereverTheWalkMeetsAFailure() throws {
    let keys = (0..<8).map { "key \($0)" }
    let copies = [2, 16, 128, 1024, 8192].map { capacity in
      var entries = [String: Entry](minimumCapacity: capacity)
      for key in keys.reversed() {
        var tags = Set<Int>(minimumCapacity: capacity)
        for number in 0..<20 { tags.insert(number) }
        entries[key] = key == "key 3" ? Entry(refuses: Refuses()) : Entry(tags: tags)
      }
      return entries
    }
    #expect(Set(copies).count == 1)
    #expect(Set(copies.map { $0.keys.map(\.self) }).count > 1, "the copies iterate alike")
    #expect(try Set(copies.map(canonicalText)).count == 1)
  }
}

/// Sets found through wrappers (a value that hands its set its own encoder) inside a value
/// whose walk fails are taken back with the rest (the second review): where the walk fails
/// depends on the order the outer set iterates in.
@Suite struct CanonicalWrappedFailureTests {
  struct Wrapper: Hashable, Codable {
    var tags: Set<Int>
    init(tags: Set<Int>) { self.tags = tags }
    init(from decoder: any Decoder) throws { tags = try Set<Int>(from: decoder) }
    func encode(to encoder: any Encoder) throws { try tags.encode(to: encoder) }
  }

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Writes its wrappers as an object (its keys sorted by the log's encoder), and refuses any
  /// encoder but JSON's when it reaches the key "key 3": where the walk fails depends on the
  /// order the dictionary iterates in.
  struct Outer: Hashable, Encodable {
    var items: [String: Wrapper]
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      for (key, item) in items {
        if key == "key 3", !"\(type(of: encoder))".contains("JSON") {
          throw EncodingError.invalidValue(
            item, .init(codingPath: [], debugDescription: "not for the walk"))
        }
        try container.encode(item, forKey: Key(stringValue: key))
      }
    }
  }

  @Test func equalValuesOrderAlikeWhenAValueWithWrappersFailsItsWalk() throws {
    let encoder = makeLogEncoder()
    // The wrapped sets are built alike in every copy, so they iterate alike: only where the
    // walk fails differs.
    var tags = Set<Int>(minimumCapacity: 64)
    for number in 0..<40 { tags.insert(number) }
    let copies = [2, 16, 128, 1024].map { capacity in
      var items = [String: Wrapper](minimumCapacity: capacity)
      for group in (0..<8).reversed() { items["key \(group)"] = Wrapper(tags: tags) }
      return Outer(items: items)
    }
    #expect(Set(copies).count == 1)
    #expect(Set(copies.map { Array($0.items.keys) }).count > 1, "the copies iterate alike")
    let texts = try Set(
      copies.map { value in
        let json = try encoder.encode(value)
        return CanonicalJSON.canonical(json, of: value, encoder: encoder)
      })
    #expect(texts.count == 1)
  }
}

/// A recorded state holding an `Int128` and a set replays, in the same process or another
/// (where the set iterates in another order).
@MainActor
@Suite struct WideIntegerReplayTests {
  struct Feature: Reducer {
    struct State: Codable, Equatable {
      var total: Int128 = 0
      var tags: Set<Int> = []
    }
    enum Action: Codable, Equatable, Sendable { case tag(Int) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      if case .tag(let number) = action {
        state.tags.insert(number)
        state.total += 1
      }
      return .none
    }
  }

  let directory = TemporaryDirectory("wide-integer")

  @Test func aStateWithAnInt128AndASetReplays() throws {
    var roomy = Set<Int>(minimumCapacity: 4096)
    for number in 0..<40 { roomy.insert(number) }
    let path = directory.path("wide.jsonl")
    let store = Store(initialState: Feature.State(total: 1, tags: roomy)) { Feature() }
    let recorder = try store.recordActions(
      to: path, feature: "Wide", checkpointInterval: 1, time: { 0 })
    for number in 40..<50 { store.send(.tag(number)) }
    try recorder.finish()
    let report = try ActionLogReplayer(feature: "Wide") { Feature() }.replay(path: path)
    #expect(report.isComplete)
    #expect(report.checkpointsVerified == 11)
    #expect(report.finalState == store.state)
  }
}

/// A value whose only stored property is a set or a dictionary, but which writes a list of its
/// own, whose order means something: the guess that it hands the collection its own encoder
/// (and so that its list is the collection's, in iteration order) sorted the list, so that
/// different values had the same canonical form, and a replay that reached the wrong one did
/// not diverge. A list is sorted now only when it holds what the collection's own encoding
/// holds.
@Suite struct CanonicalOwnListTests {
  /// A list stored sparsely, by position; written as its values in the order of their
  /// positions.
  struct SparseList: Codable, Equatable, Sendable {
    var storage: [Int: String]

    init(_ values: [String]) {
      storage = Dictionary(uniqueKeysWithValues: values.enumerated().map { ($0, $1) })
    }

    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      var values: [String] = []
      while !container.isAtEnd { values.append(try container.decode(String.self)) }
      self.init(values)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      for position in storage.keys.sorted() { try container.encode(storage[position, default: ""]) }
    }
  }

  /// A list stored as a set of positioned values, one per element: as many elements as the
  /// set holds are written, but not the set's own.
  struct PositionedList: Encodable {
    struct Entry: Hashable, Encodable {
      var position: Int
      var value: String
    }

    var entries: Set<Entry>

    init(_ values: [String]) {
      entries = Set(values.enumerated().map { Entry(position: $0, value: $1) })
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      for entry in entries.sorted(by: { $0.position < $1.position }) {
        try container.encode(entry.value)
      }
    }
  }

  /// A ranking stored as scores by player: written as its players, best first.
  struct Ranking: Encodable {
    var scores: [CanonicalJSONTests.Point: Int]

    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      for (player, _) in scores.sorted(by: { $0.value > $1.value }) {
        try container.encode(player)
      }
    }
  }

  struct Playlist: Reducer {
    struct State: Codable, Equatable, Sendable {
      var songs = SparseList(["d", "c", "b", "a"])
    }
    enum Action: Codable, Equatable, Sendable { case shuffle }
    /// The order the shuffle leaves the songs in.
    var shuffled = ["d", "c", "b", "a"]

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.songs = SparseList(shuffled)
      return .none
    }
  }

  let encoder = makeLogEncoder()

  func canonical(_ value: some Encodable) throws -> String {
    let json = try encoder.encode(value)
    return String(
      decoding: CanonicalJSON.canonical(json, of: value, encoder: encoder), as: UTF8.self)
  }

  @Test func aListAValueWritesItselfKeepsItsOrder() throws {
    let before = Playlist.State(songs: SparseList(["d", "c", "b", "a"]))
    let after = Playlist.State(songs: SparseList(["b", "a", "d", "c"]))
    #expect(try canonical(before) == #"{"songs":["d","c","b","a"]}"#)
    #expect(try canonical(after) == #"{"songs":["b","a","d","c"]}"#)
    #expect(stateChanges(from: before, to: after).count == 4)
    #expect(try canonical(PositionedList(["d", "c", "b", "a"])) == #"["d","c","b","a"]"#)
    let reordered = PositionedList(["b", "a", "d", "c"])
    #expect(stateChanges(from: PositionedList(["d", "c", "b", "a"]), to: reordered).count == 4)
  }

  /// Players are the dictionary's keys, but a list of keys alone is not the dictionary's own
  /// encoding (keys and values): its order, by score, is kept.
  @Test func aListOfADictionarysKeysKeepsItsOrder() throws {
    let players = (1...4).map { CanonicalJSONTests.Point(x: $0, y: 0) }
    let ranking = Ranking(scores: Dictionary(uniqueKeysWithValues: zip(players, [20, 10, 40, 30])))
    let written = #"[{"x":3,"y":0},{"x":4,"y":0},{"x":1,"y":0},{"x":2,"y":0}]"#
    #expect(try canonical(ranking) == written)
    let reversed = Ranking(
      scores: Dictionary(uniqueKeysWithValues: zip(players, [30, 40, 10, 20])))
    #expect(stateChanges(from: ranking, to: reversed).count == 4)
  }

  @MainActor
  @Test func aReplayThatReachesAnotherOrderDiverges() throws {
    let directory = TemporaryDirectory("canonical-own-list")
    let path = directory.path("playlist.jsonl")
    let store = Store(initialState: Playlist.State(songs: SparseList([]))) { Playlist() }
    let recorder = try store.recordActions(
      to: path, feature: "Playlist", checkpointInterval: 1, time: { 0 })
    store.send(.shuffle)
    try recorder.finish()
    // The checkpoint shows the list as the state wrote it.
    let lines = try directory.lines(path)
    #expect(lines.contains { $0.hasSuffix(#""state":{"songs":["d","c","b","a"]}}"#) })
    #expect {
      try ActionLogReplayer(feature: "Playlist") { Playlist(shuffled: ["b", "a", "d", "c"]) }
        .replay(path: path)
    } throws: { error in
      guard case .diverged(1, _, let differences, _) = error as? ActionLogError else {
        return false
      }
      return differences.contains(#"recorded → replayed: songs[0]: "d" → "b""#)
    }
  }
}

/// What a wrapper writes that holds what its collection's own encoding holds is still put in
/// order, however it wrote it: equal values digest alike.
@Suite struct CanonicalWrappedCollectionTests {
  /// A dictionary whose keys are not strings, behind a wrapper that hands it its own encoder.
  struct PointNames: Encodable {
    var names: [CanonicalJSONTests.Point: String]
    func encode(to encoder: any Encoder) throws { try names.encode(to: encoder) }
  }

  /// A set behind a wrapper that writes its elements itself, in iteration order.
  struct Written: Encodable {
    var tags: Set<String>
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      for tag in tags { try container.encode(tag) }
    }
  }

  /// A set behind a wrapper that writes it as an array, through that array's encoding.
  struct AsArray: Encodable {
    var tags: Set<String>
    func encode(to encoder: any Encoder) throws { try Array(tags).encode(to: encoder) }
  }

  /// A reading that may be a NaN, and so not equal to itself, which no lookup finds.
  struct Reading: Hashable, Encodable {
    var value: Double
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value.isNaN ? "NaN" : "\(value)")
    }
  }

  /// A set of readings behind a wrapper that hands it its own encoder.
  struct Readings: Encodable {
    var values: Set<Reading>
    func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
  }

  /// How many times the walk encodes a ``Level``.
  final class EncodeCount: Sendable {
    let count = Locked(0)
  }

  /// A wrapper of a set of wrappers, as deep as it goes, each handing its set its own
  /// encoder.
  struct Level: Hashable, Encodable {
    @TaskLocal static var encodes: EncodeCount?
    var children: Set<Level>

    func encode(to encoder: any Encoder) throws {
      Self.encodes?.count.withLock { $0 += 1 }
      try children.encode(to: encoder)
    }
  }

  let encoder = makeLogEncoder()

  func canonical(_ value: some Encodable) throws -> String {
    let json = try encoder.encode(value)
    return String(
      decoding: CanonicalJSON.canonical(json, of: value, encoder: encoder), as: UTF8.self)
  }

  func sets<Element: Hashable>(_ elements: [Element]) -> [Set<Element>] {
    [4, 64, 512, 4096].map { capacity in
      var set = Set<Element>(minimumCapacity: capacity)
      for element in elements.reversed() { set.insert(element) }
      return set
    }
  }

  @Test func aDictionaryBehindAWrapperIsStillOrdered() throws {
    let copies = [4, 64, 512, 4096].map { capacity in
      var names = [CanonicalJSONTests.Point: String](minimumCapacity: capacity)
      for x in (0..<12).reversed() { names[.init(x: x, y: -x)] = "p\(x)" }
      return PointNames(names: names)
    }
    #expect(Set(copies.map { Array($0.names.keys) }).count > 1, "the copies iterate alike")
    let texts = try Set(copies.map(canonical))
    #expect(texts.count == 1)
    #expect(texts.first?.hasPrefix(#"[{"x":0,"y":0},"p0",{"x":1,"y":-1},"p1","#) == true)
  }

  @Test func aSetAWrapperWritesElementByElementIsOrdered() throws {
    let words = (0..<12).map { "w\($0)" }
    let sorted = "[" + words.sorted().map { #""\#($0)""# }.joined(separator: ",") + "]"
    #expect(Set(sets(words).map(Array.init)).count > 1, "the copies iterate alike")
    #expect(try Set(sets(words).map { try canonical(Written(tags: $0)) }) == [sorted])
    #expect(try Set(sets(words).map { try canonical(AsArray(tags: $0)) }) == [sorted])
  }

  @Test func aSetHoldingNaNBehindAWrapperIsOrdered() throws {
    let readings = ((0..<12).map(Double.init) + [.nan, .nan]).map(Reading.init)
    #expect(sets(readings).allSatisfy { $0.count == 14 })
    let texts = try Set(sets(readings).map { try canonical(Readings(values: $0)) })
    #expect(texts.count == 1, "\(texts)")
    #expect(texts.first?.hasPrefix(#"["0.0","1.0","10.0","11.0","2.0""#) == true, "\(texts)")
  }

  /// A dictionary of optional values behind a wrapper that writes each key, then the value
  /// unwrapped or a nil: the same JSON as the dictionary's own encoding, so ordered (it was
  /// left in iteration order when `encodeNil()` counted as something else). So is a set of
  /// optionals written unwrapped.
  @Test func optionalsWrittenUnwrappedOrAsNilAreTheCollectionsOwn() throws {
    struct OptionalValues: Encodable {
      var byPoint: [CanonicalJSONTests.Point: Int?]
      func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for (key, value) in byPoint {
          try container.encode(key)
          if let value { try container.encode(value) } else { try container.encodeNil() }
        }
      }
    }
    struct OptionalTags: Encodable {
      var tags: Set<String?>
      func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for tag in tags {
          if let tag { try container.encode(tag) } else { try container.encodeNil() }
        }
      }
    }
    let dictionaries = [4, 64, 512, 4096].map { capacity in
      var values = [CanonicalJSONTests.Point: Int?](minimumCapacity: capacity)
      for x in (0..<12).reversed() { values[.init(x: x, y: -x)] = x.isMultiple(of: 3) ? nil : x }
      return OptionalValues(byPoint: values)
    }
    #expect(Set(dictionaries.map { Array($0.byPoint.keys) }).count > 1, "the copies iterate alike")
    let texts = try Set(dictionaries.map(canonical))
    #expect(texts.count == 1, "\(texts)")
    #expect(texts.first?.hasPrefix(#"[{"x":0,"y":0},null,{"x":1,"y":-1},1,"#) == true, "\(texts)")
    let tags: [String?] = (0..<12).map { "t\($0)" } + [nil]
    #expect(try Set(sets(tags).map { try canonical(OptionalTags(tags: $0)) }).count == 1)
  }

  /// The walk encodes each wrapper once, however deep: an earlier attempt encoded a wrapped
  /// collection again to compare, which ran every wrapper inside it again, 2^k times at depth
  /// k.
  @Test func wrappersInsideWrappersAreWalkedOnceEach() throws {
    var level = Level(children: [])
    for _ in 0..<24 { level = Level(children: [level]) }
    let json = try encoder.encode(level)
    let counter = EncodeCount()
    let text = Level.$encodes.withValue(counter) {
      String(decoding: CanonicalJSON.canonical(json, of: level, encoder: encoder), as: UTF8.self)
    }
    #expect(counter.count.withLock { $0 } == 25)
    #expect(text == String(repeating: "[", count: 25) + String(repeating: "]", count: 25))
  }
}
