/// A deterministic, multi-line rendering of any value's structure, for test failure messages.
///
/// Values are read through `Mirror`, so every type prints without conforming to anything:
///
/// ```swift
/// StateDump.render(State(profile: Profile(name: "Ada", tags: ["admin"])))
/// // State(
/// //   profile: Profile(
/// //     name: "Ada"
/// //     tags: [
/// //       [0]: "admin"
/// //     ]
/// //   )
/// // )
/// ```
///
/// The rules, from outermost shape to leaf:
///
/// - Structs and classes print `TypeName(`, one `label: value` line per stored property
///   indented by two spaces, then `)`; with no properties, `TypeName()` or their description
///   (but for `NSObject`'s, which shows an address).
///   Type names drop the module but keep enclosing types: `Profile.Address(`. An observable
///   class (`@Observable`) prints its tracked properties by name, without its observation
///   registrar, whose bookkeeping changes whenever the object is observed. A `lazy var`
///   prints by its name, as `nil` until it is first read.
/// - Enum cases print `.caseName`, or `.caseName(` payload `)`, with payload labels when the
///   case declares them; a single plain payload stays on one line, as does a single empty
///   one: `.failed("timeout")`, `.loaded([])`.
/// - Optionals print `nil`, or the wrapped value as if it were not wrapped.
/// - Tuples print `(`, their elements with labels where declared, then `)`.
/// - Collections print `[`, one `[index]: value` line per element, then `]`, or `[]`. Types
///   with a custom mirror print through it, so an identified array reads as a list, its
///   elements labelled by id instead: `[id: 7]: value`.
/// - Sets print their elements sorted by rendering; dictionaries print `key: value` lines
///   sorted by the key's one-line rendering, or `[:]`.
/// - Strings (and static strings) print quoted and escaped as a Swift literal writes them, with every control
///   character and every character that shows as nothing or as a space without being one
///   escaped by its value (`"ab\u{200B}"`, `"a\u{A0}b"`); numbers and booleans print their
///   description; `UUID`, `Date`, `URL`, `Decimal`, `Data`, `Duration`, `TimeZone`,
///   `Calendar`, `CharacterSet`, `NSNumber` and `StackElementID` print their description on
///   one line (a `Duration` whose description rounds it adds its exact components);
///   attributed text prints its runs,
///   `AttributedString("see ", "docs" {NSLink = https://example.com})`, each attribute's
///   value escaped as a string is, without quotes (`a\nb`, `a\u{200B}`). A key path prints as
///   Swift writes it, `\Item.name`, without the address of a computed property.
///   Values stored in a compiler builtin, whose stored properties show nothing, print their
///   description too (`Float16`, `SIMD2<Double>`, `ObjectIdentifier`).
/// - A class instance already open on the path from the root prints as `TypeName(↻)`, and
///   branches deeper than 64 levels print as `…`, so every value renders in finite time. An
///   instance reached by several paths prints in full on each, so objects that share others
///   level after level (a diamond repeated 18 levels down) print once per path: 2^18 copies,
///   21 seconds in a debug build. A class graph like that belongs outside state, or behind
///   a `customMirror` that shows what a test should compare.
package enum StateDump {
  /// A multi-line, deterministic structural rendering of `value`.
  ///
  /// Equal renderings are what ``StateDiff`` treats as "no difference", so two values that
  /// render alike never fail an assertion that compares dumps.
  ///
  /// - Parameter value: Anything: a struct, an enum, a collection, a class graph.
  /// - Returns: The rendering, with lines separated by `\n` and no trailing newline.
  /// - Complexity: O(*n* log *n*), where *n* is the number of values reached.
  package static func render(_ value: Any) -> String {
    var reflector = DumpReflector()
    return reflector.node(for: value).rendered
  }
}
