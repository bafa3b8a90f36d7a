import Effects
import Foundation
import Observation
import Store

/// Reads a value through `Mirror` into a ``DumpNode`` tree.
///
/// Custom mirrors are honoured, so a collection type that reports `.collection` prints as a
/// list whatever its storage. A few types print as one line from their description instead of
/// their storage: strings, `UUID`, `Date`, `URL`, `Decimal`, `Data`, `Duration`, attributed
/// text, `TimeZone`, `Calendar`, `CharacterSet`, `NSNumber` and a stack's `StackElementID`
/// (`#2`); so do values stored in a compiler builtin, which a mirror shows as `(Opaque Value)`
/// (`Float16`, `SIMD2<Double>`, `ObjectIdentifier`).
///
/// The rows of an identified array are labelled by id (`[id: 7]`), those of any other
/// collection by position (`[2]`); a stack's screens by id too, each printed as its state.
/// Rows identified by their address (a class's default `ObjectIdentifier` id) are labelled by
/// position.
///
/// Two guards keep any value finite: a class instance met again on the path from the root
/// prints as `TypeName(↻)`, and nothing deeper than ``maxDepth`` levels is read (`…`).
struct DumpReflector {
  /// The default nesting limit, well past any real state and well short of the stack's.
  static let defaultMaxDepth = 64

  /// How many container levels are read before the rest of a branch prints as `…`.
  let maxDepth: Int
  /// The class instances on the path from the root to the value being read.
  private var path: Set<ObjectIdentifier> = []
  /// When not `nil`, redacted values (a `Secret`) print numbered by equality, `<redacted #1>`,
  /// across every value this reflector reads: one value per distinct content met.
  private var redacted: [any RedactedValue]?
  /// The names of each object type met so far, short and fully qualified.
  private var typeNames: [ObjectIdentifier: (short: String, qualified: String)] = [:]
  /// Whether each struct type met so far prints as its description (see
  /// ``storesBuiltin(_:children:)``): decided once per type, as a state of many rows would
  /// otherwise look up the type name of each row's every field.
  private var builtinLeafTypes: [ObjectIdentifier: Bool] = [:]

  /// A reflector that stops reading at `maxDepth` levels.
  ///
  /// - Parameters:
  ///   - maxDepth: How many container levels to read.
  ///   - numberingRedactedValues: Whether redacted values print numbered by equality, so that
  ///     two that differ print differently without showing what they hold.
  init(maxDepth: Int = DumpReflector.defaultMaxDepth, numberingRedactedValues: Bool = false) {
    self.maxDepth = maxDepth
    self.redacted = numberingRedactedValues ? [] : nil
  }

  /// The tree for `value`.
  ///
  /// - Parameters:
  ///   - value: Anything.
  ///   - depth: The level `value` sits at; the root is 0.
  /// - Complexity: O(*n* log *n*), where *n* is the number of values reached, for sorting
  ///   sets and dictionaries.
  mutating func node(for value: Any, depth: Int = 0) -> DumpNode {
    guard depth < maxDepth else { return .leaf("…") }
    if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
      // A key stored as `AnyHashable` prints as what it wraps.
      return node(for: hashable.base, depth: depth)
    }
    if redacted != nil, let secret = value as? any RedactedValue {
      return .leaf("<redacted #\(number(of: secret))>")
    }
    if let text = Self.leafText(of: value) {
      var leaf = DumpNode.leaf(text)
      leaf.textLines = Self.textLines(of: value)
      return leaf
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first else { return .leaf("nil") }
      // A nested optional that holds nil (a choice made, of nothing) prints as a test writes
      // it, `.some(nil)`: unwrapped, it would print as `nil`, as the outer optional's own nil
      // does.
      if let written = wrappedNilDescription(wrapped.value) { return .leaf(written) }
      return node(for: wrapped.value, depth: depth)
    case .enum:
      return enumNode(for: value, mirror: mirror, depth: depth)
    case .tuple:
      return DumpNode(
        kind: .tuple, name: "", typeName: "",
        children: mirror.children.map { child(label: $0.label, value: $0.value, depth: depth) })
    case .collection:
      // An identified array's rows are known by id, as its subscript reaches them.
      let labelsByID = value is any IdentifiedCollection
      let children = mirror.children.enumerated().map { index, element in
        let id = Self.idText(of: element.value)
        let label = labelsByID ? id.map { "[id: \($0)]" } ?? "[\(index)]" : "[\(index)]"
        // A stack's screen prints as its state: the label names its id already.
        let shown =
          (element.value as? any LifetimeStateCarrier)?.carriedLifetimeState ?? element.value
        var entry = child(label: label, value: shown, depth: depth)
        entry.id = id
        return entry
      }
      return DumpNode(kind: .collection, name: "", typeName: "", children: children)
    case .set:
      let elements = mirror.children.map(\.value)
      let children = inSecretNumberingOrder(elements, depth: depth + 1).map {
        child(label: nil, value: elements[$0], depth: depth)
      }
      let sorted = children.map { ($0.node.rendered, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
      return DumpNode(kind: .set, name: "", typeName: "", children: sorted)
    case .dictionary:
      return dictionaryNode(mirror: mirror, depth: depth)
    case .class:
      return classNode(for: value, mirror: mirror, depth: depth)
    default:
      let children = Array(mirror.children)
      if mirror.displayStyle == .struct, storesBuiltin(value, children: children) {
        return .leaf(String(describing: value))
      }
      return objectNode(
        for: value, children: children, isNominal: mirror.displayStyle == .struct, depth: depth)
    }
  }

  /// Whether a struct keeps its value in a compiler builtin, which its mirror shows only as
  /// `(Opaque Value)`, so that it must print its description: directly (`Float16`,
  /// `ObjectIdentifier`), or as a SIMD vector (`SIMD2<Double>`, whose storage is a builtin
  /// vector). Read through its mirror, any two values of such a type would print the same.
  /// A struct of the user's that holds one keeps printing its fields, the vector among them
  /// as a leaf: its own description could hide them (the second review).
  ///
  /// The answer depends on the type alone, and is worked out once per type: a stored
  /// property holds values of one type, or, declared as an existential (`Any`), never a
  /// builtin's.
  ///
  /// - Complexity: O(*c*) for the first struct of a type with *c* stored properties, then
  ///   O(1).
  private mutating func storesBuiltin(_ value: Any, children: [Mirror.Child]) -> Bool {
    let key = ObjectIdentifier(type(of: value))
    if let known = builtinLeafTypes[key] { return known }
    let isLeaf = value is any SIMD || children.contains { isBuiltin($0.value) }
    builtinLeafTypes[key] = isLeaf
    return isLeaf
  }

  /// Whether `value` is a compiler builtin (`Builtin.FPIEEE16`, `Builtin.RawPointer`).
  private mutating func isBuiltin(_ value: Any) -> Bool {
    typeNames(of: type(of: value)).qualified.hasPrefix("Builtin.")
  }

  /// The positions of `values`, the elements of a set or the keys of a dictionary, in the
  /// order to read them in, so that the secrets in them are numbered the same way from run to
  /// run: sorted by their renderings with secrets unnumbered, where the collection's own order
  /// changes with the hash seed. Values that render alike that way (they differ only in their
  /// secrets) keep the collection's order, as nothing else that can be shown tells them
  /// apart. When secrets are not numbered, the positions in order.
  ///
  /// - Complexity: O(*n* log *n*) comparisons, after reading each value once more; so a set
  ///   in a set's element is read twice as often at each level it lies deeper.
  private func inSecretNumberingOrder(_ values: [Any], depth: Int, compact: Bool = false)
    -> [Int]
  {
    guard redacted != nil, values.count > 1 else { return Array(values.indices) }
    var unnumbered = self
    unnumbered.redacted = nil
    let renderings = values.map { value -> String in
      let node = unnumbered.node(for: value, depth: depth)
      return compact ? node.compact : node.rendered
    }
    return values.indices.sorted { (renderings[$0], $0) < (renderings[$1], $1) }
  }

  /// The number of `secret`'s content among the redacted values read so far, from 1.
  private mutating func number(of secret: any RedactedValue) -> Int {
    if let index = redacted?.firstIndex(where: { $0.holdsTheSame(as: secret) }) {
      return index + 1
    }
    redacted?.append(secret)
    return redacted?.count ?? 0
  }

  /// The id of an `Identifiable` value, printed as the id's own field prints; `nil` for other
  /// values, and for an object identified by its address (a class's default id, an
  /// `ObjectIdentifier`): an address changes from run to run, and an equal object made anew
  /// has another, so such elements are labelled and paired by position.
  static func idText(of value: Any) -> String? {
    guard let identifiable = value as? any Identifiable else { return nil }
    func text(_ value: some Identifiable) -> String? {
      guard !(value.id is ObjectIdentifier) else { return nil }
      // As the id prints as a field of the row: a string quoted and escaped (an invisible
      // character in a label showed as nothing, so two rows' labels could read alike), a
      // counted UUID as a test writes it.
      return leafText(of: value.id) ?? String(reflecting: value.id)
    }
    return text(identifiable)
  }

  /// A child entry; tuple positions (the labels `Mirror` gives unlabelled elements, `.0`)
  /// print without a label. A dictionary's key is a label whatever it prints as: an enum key
  /// prints as `.apple`.
  private mutating func child(label: String?, value: Any, depth: Int, isKey: Bool = false)
    -> DumpNode.Child
  {
    let isPositional = !isKey && label?.first == "."
    return DumpNode.Child(
      label: isPositional ? nil : label, node: node(for: value, depth: depth + 1))
  }

  private mutating func enumNode(for value: Any, mirror: Mirror, depth: Int) -> DumpNode {
    guard let payload = mirror.children.first else {
      // Without a payload the case name is only reachable through the default description.
      let text = Self.hasCustomDescription(value) ? String(describing: value) : ".\(value)"
      return .leaf(text)
    }
    let name = "." + (payload.label ?? "\(value)")
    let payloadMirror = Mirror(reflecting: payload.value)
    let children =
      payloadMirror.displayStyle == .tuple
      ? payloadMirror.children.map { child(label: $0.label, value: $0.value, depth: depth) }
      : [child(label: nil, value: payload.value, depth: depth)]
    if children.count == 1, let only = children.first,
      only.node.kind == .leaf || only.node.children.isEmpty
    {
      // `.failed("timeout")` reads better on one line than as a three-line container; so do
      // `.loaded([])` and `.saved(Draft())`.
      let label = only.label.map { "\($0): " } ?? ""
      return .leaf("\(name)(\(label)\(only.node.singleLine))")
    }
    let typeName = typeNames(of: type(of: value)).qualified
    return DumpNode(kind: .enumCase, name: name, typeName: typeName, children: children)
  }

  private mutating func dictionaryNode(mirror: Mirror, depth: Int) -> DumpNode {
    var rawPairs: [(key: Any, value: Any)] = []
    for element in mirror.children {
      let pair = Array(Mirror(reflecting: element.value).children)
      guard pair.count == 2 else { continue }
      rawPairs.append((pair[0].value, pair[1].value))
    }
    // The keys are read in the order of their renderings without numbers, not in the
    // dictionary's, so that secrets in them are numbered the same way from run to run.
    var pairs: [(key: String, value: Any)] = []
    for index in inSecretNumberingOrder(rawPairs.map(\.key), depth: depth + 1, compact: true) {
      let (key, value) = rawPairs[index]
      pairs.append((node(for: key, depth: depth + 1).compact, value))
    }
    // The values are read in the order of their keys, not in the dictionary's, which changes
    // from run to run: a redacted value is numbered where it is first read.
    pairs.sort { $0.key < $1.key }
    var entries: [(key: String, value: String, child: DumpNode.Child)] = []
    for (key, value) in pairs {
      let child = child(label: key, value: value, depth: depth, isKey: true)
      entries.append((key, child.node.rendered, child))
    }
    // Ties between keys that print alike fall back to the value, so the order never depends
    // on the dictionary's per-process hash seed.
    entries.sort { ($0.key, $0.value) < ($1.key, $1.value) }
    return DumpNode(kind: .dictionary, name: "", typeName: "", children: entries.map(\.child))
  }

  private mutating func classNode(for value: Any, mirror: Mirror, depth: Int) -> DumpNode {
    guard type(of: value) is AnyClass else {
      return objectNode(
        for: value, children: Array(mirror.children), isNominal: true, depth: depth)
    }
    let identifier = ObjectIdentifier(value as AnyObject)
    guard !path.contains(identifier) else {
      return .leaf("\(TypeName.name(of: type(of: value)))(↻)")
    }
    path.insert(identifier)
    defer { path.remove(identifier) }
    // Inherited stored properties come first, in the order the hierarchy declares them. A
    // custom mirror already says everything the class wants shown.
    var mirrors = [mirror]
    while !(value is CustomReflectable), let superclass = mirrors.last?.superclassMirror {
      mirrors.append(superclass)
    }
    var children = mirrors.reversed().flatMap { Array($0.children) }
    // An observable class's registrar is its observers' bookkeeping, not its value: a counter
    // and the key paths observed, which change whenever a view or a test reads the object. Its
    // tracked properties are stored as `_name`: shown by the name a test writes.
    if children.contains(where: { $0.value is ObservationRegistrar }) {
      children = children.compactMap { child in
        guard !(child.value is ObservationRegistrar) else { return nil }
        let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
        return (label: label, value: child.value)
      }
    }
    return objectNode(for: value, children: children, isNominal: true, depth: depth)
  }

  private mutating func objectNode(
    for value: Any,
    children: [Mirror.Child],
    isNominal: Bool,
    depth: Int
  ) -> DumpNode {
    guard !children.isEmpty else {
      // A childless struct or class with no description of its own prints as `Name()`; so
      // does an object that `NSObject` describes, by its address.
      let isEmptyShape =
        isNominal && (!Self.hasCustomDescription(value) || Self.describesItsAddress(value))
      guard isEmptyShape else { return .leaf("\(value)") }
      let names = typeNames(of: type(of: value))
      return DumpNode(kind: .object, name: names.short, typeName: names.qualified)
    }
    let names = typeNames(of: type(of: value))
    return DumpNode(
      kind: .object, name: names.short, typeName: names.qualified,
      children: children.map {
        child(label: $0.label.map(Self.declaredName), value: $0.value, depth: depth)
      })
  }

  /// The name a stored property is declared with, for the label its mirror gives it: a
  /// `lazy var total`'s storage, `$__lazy_storage_$_total`, prints as `total` (`nil` until it
  /// is first read).
  static func declaredName(_ label: String) -> String {
    let lazyPrefix = "$__lazy_storage_$_"
    return label.hasPrefix(lazyPrefix) ? String(label.dropFirst(lazyPrefix.count)) : label
  }

  /// The short and the fully qualified name of `type`, worked out once per type: a state of
  /// many rows would otherwise print the row type's name anew for each.
  private mutating func typeNames(of type: Any.Type) -> (short: String, qualified: String) {
    if let names = typeNames[ObjectIdentifier(type)] { return names }
    let names = (TypeName.name(of: type), String(reflecting: type))
    typeNames[ObjectIdentifier(type)] = names
    return names
  }
}

/// The identified array, whose rows a dump labels by id rather than by position.
private protocol IdentifiedCollection {}

extension IdentifiedArray: IdentifiedCollection {}

// MARK: - Leaves

extension DumpReflector {
  /// A date as a test reads it: its description, and the seconds since 1970; and, when those
  /// seconds lose some of its precision (a `Double` counting from 1970 has fewer bits left
  /// for the fraction than the one `Date` stores, counting from 2001), the seconds since 2001
  /// too, which `==` compares: two dates that differ only in its last bits then print apart.
  static func dateText(_ date: Date) -> String {
    let since1970 = date.timeIntervalSince1970
    guard Date(timeIntervalSince1970: since1970) != date else {
      return "\(date) (\(since1970) s since 1970)"
    }
    return
      "\(date) (\(since1970) s since 1970, \(date.timeIntervalSinceReferenceDate) s since 2001)"
  }

  /// A duration as a test reads it: its description (`1.1 seconds`), and, when that stands
  /// for another duration, its exact components too:
  /// `1.1 seconds (seconds: 1, attoseconds: 100000000000000000)`. The description goes through
  /// a `Double`, so two durations that differ below its precision (`.seconds(1.1)` and
  /// `.milliseconds(1100)`) would otherwise print the same.
  static func durationText(_ duration: Duration) -> String {
    let text = duration.description
    let unit = " seconds"
    // `.seconds(_:)` traps on a count of seconds no duration holds: such a count is not read
    // back, and the components are printed.
    if text.hasSuffix(unit), let seconds = Double(text.dropLast(unit.count)),
      seconds.magnitude < 0x1p62, Duration.seconds(seconds) == duration
    {
      return text
    }
    let (seconds, attoseconds) = duration.components
    return "\(text) (seconds: \(seconds), attoseconds: \(attoseconds))"
  }

  /// The one-line text of a value that prints as a leaf whatever its mirror shows, or `nil`
  /// when the value is read structurally.
  ///
  /// Text is quoted and escaped, so `"a\nb"` stays on one line and an empty string is visible.
  /// Foundation values and `Duration` print their description: their stored properties
  /// (`_time`, `_storage`, `_low` and `_high`) mean nothing in a failure message, and some
  /// (those of `AttributedString`, `TimeZone`, `Calendar` and `CharacterSet`) hold version
  /// numbers or pointers that change from run to run; an `NSNumber` (what `JSONSerialization`
  /// makes of a number) prints its value, not its bits; a key path prints as Swift writes it
  /// (`\Item.name`), without a computed property's address. Attributed text prints its runs,
  /// each quoted with its attributes sorted by name, their values escaped:
  /// `AttributedString("see ", "docs" {NSLink = https://example.com})`.
  ///
  /// - Parameter value: Anything.
  /// - Returns: The leaf text, or `nil` for values read through their mirror.
  static func leafText(of value: Any) -> String? {
    switch value {
    case let text as String: quoted(text)
    case let text as Substring: quoted(text)
    // Its stored properties are a pointer, a length and flags.
    case let text as StaticString: quoted(text.description)
    case let character as Character: quoted(String(character))
    case let scalar as Unicode.Scalar: quoted(String(scalar))
    case let uuid as UUID: uuid.testDescription
    case let date as Date: dateText(date)
    case let url as URL: url.description
    case let decimal as Decimal: decimal.description
    case let data as Data: describeBytes(data)
    case let duration as Duration: durationText(duration)
    case let text as AttributedString: attributedText(text, typeName: "AttributedString")
    case let text as AttributedSubstring:
      attributedText(AttributedString(text), typeName: "AttributedSubstring")
    // Their stored properties hold pointers into ICU or CoreFoundation, new each run.
    case let zone as TimeZone: zone.description
    case let calendar as Calendar: calendar.description
    case let characters as CharacterSet: characters.description
    // Its stored properties are a CoreFoundation header and the bits of its value (a double's
    // as an integer, a boolean's as a pointer). Only a number that is one, tested before any
    // cast: a bridging cast would take a Swift `Int` or `Bool` for one (and, on Apple
    // platforms, make one for each).
    case _ where type(of: value) is NSNumber.Type: (value as? NSNumber)?.description
    // As actions and warnings print it, and tests write it (`.popFrom(id: 0)`).
    case let id as StackElementID: id.description
    case let type as Any.Type: TypeName.name(of: type)
    // Its only stored property is a pointer, the same for every computed path of a type.
    case let keyPath as AnyKeyPath: describeKeyPath(keyPath)
    default: nil
    }
  }

  /// `text` in quotes, escaped as a Swift string literal escapes it: a quote, a backslash,
  /// every control character, and every character that shows as nothing or as a space
  /// without being one (a zero-width space, U+FEFF, a right-to-left override, a line
  /// separator, a soft hyphen, a no-break space), so that two strings that differ print
  /// differently: `"ab\u{200B}"`. Joiners, variation selectors and a flag's tags stay, so an
  /// emoji shows whole (see `LogText`).
  static func quoted(_ text: some StringProtocol) -> String {
    LogText.quoted(text, limit: .max, escapingSpaces: true)
  }

  /// Attributed text as its runs: each run's characters quoted, followed by its attributes,
  /// when it has any, in braces: `AttributedString("see ", "docs" {NSLink = https://a.b})`.
  ///
  /// The attributes are read from their description, which lists them in the order of a hash
  /// table (one that changes from run to run), so they are sorted by name.
  static func attributedText(_ text: AttributedString, typeName: String) -> String {
    let runs = text.runs.map { run in
      let characters = quoted(String(text[run.range].characters))
      let attributes = attributeList(run.attributes.description)
      return attributes.isEmpty ? characters : "\(characters) {\(attributes)}"
    }
    return "\(typeName)(\(runs.joined(separator: ", ")))"
  }

  /// The attributes an `AttributeContainer`'s description lists (`{`, then a line
  /// `\tname = value` each, then `}`), sorted and on one line: `NSLanguage = en, NSLink = …`.
  /// Each value is escaped as a string leaf is, without its quotes: a line break in it is
  /// written `\n`, a backslash `\\`, a zero-width space `\u{200B}`, so that the value `a\nb`
  /// and the value `a`, a line break, `b` print apart, and an invisible character shows.
  static func attributeList(_ description: String) -> String {
    var attributes: [String] = []
    for line in description.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("\t") {
        attributes.append(String(line.dropFirst()))
      } else if let last = attributes.indices.last, line != "}" {
        // A value that spans lines goes on after its first line.
        attributes[last] += "\n" + line
      }
    }
    return attributes.map(escapedAttribute).sorted().joined(separator: ", ")
  }

  /// One attribute, `name = value`, with its value escaped (see ``attributeList(_:)``).
  private static func escapedAttribute(_ attribute: String) -> String {
    guard let separator = attribute.range(of: " = ") else { return unquoted(attribute) }
    return attribute[..<separator.upperBound] + unquoted(attribute[separator.upperBound...])
  }

  /// `text` escaped as ``quoted(_:)`` escapes it, without the quotes around it.
  private static func unquoted(_ text: some StringProtocol) -> String {
    String(quoted(text).dropFirst().dropLast())
  }

  /// The lines of a string that spans lines, each escaped as ``leafText(of:)`` escapes the
  /// whole and without quotes; `nil` for any other value.
  ///
  /// Lines end at each line feed only, so a carriage return before one stays visible (`\r`).
  static func textLines(of value: Any) -> [String]? {
    let text: Substring
    switch value {
    case let string as String: text = Substring(string)
    case let substring as Substring: text = substring
    default: return nil
    }
    guard text.unicodeScalars.contains("\n") else { return nil }
    return text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
      String(quoted(String($0)).dropFirst().dropLast())
    }
  }

  /// Bytes as hexadecimal: all of them up to 64, else the first 32 and a digest of all, so
  /// that two values that differ anywhere print differently.
  static func describeBytes(_ data: Data) -> String {
    func hex(_ bytes: some Sequence<UInt8>) -> String {
      bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    }
    if data.count <= 64 { return "\(data.count) bytes: \(hex(data))" }
    return "\(data.count) bytes: \(hex(data.prefix(32))) … (FNV-1a \(StateDigest.of(data)))"
  }

  /// Whether `value` is an object that describes itself as `NSObject` does, by its type and
  /// address (`<Token: 0x600000c04000>`): an address changes from run to run, and an equal
  /// object made anew has another.
  static func describesItsAddress(_ value: Any) -> Bool {
    // The class test first: a cast would bridge a `String` to an `NSString` on Apple platforms.
    guard type(of: value) is AnyClass, let object = value as? NSObject else { return false }
    let text = object.description
    return text.first == "<" && text.last == ">" && text.contains(": 0x")
  }

  /// Whether `String(describing:)` shows something the type chose, rather than the
  /// standard library's reflection-based fallback.
  static func hasCustomDescription(_ value: Any) -> Bool {
    value is CustomStringConvertible || value is CustomDebugStringConvertible
      || value is TextOutputStreamable
  }
}
