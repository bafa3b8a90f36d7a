import Effects
import Foundation
import Testing

@testable import Store

/// The replay's shortcut for plain action lines (`PlainActionLine`) must not change what a
/// replay does: every line here, most of them odd on purpose, is replayed twice, as is and
/// with the shortcut turned off (`PlainActionLine.isDisabled`), and everything the replay
/// reports is compared: the error, each step (its time to the bit), the warnings and the
/// final state. From an adversary trial; its four findings, the tests from
/// `anActionNested512DeepIsRefusedBothWays` on, differed before they were fixed, but for the
/// coding path an action is decoded at, which is documented instead.
@MainActor
@Suite final class ReplayShortcutDifferentialTests {
  let directory = TemporaryDirectory("replay-shortcut-differential")

  // MARK: Features

  /// Any JSON value, decoded recursively.
  indirect enum AnyJSON: Codable, Equatable, Sendable, CustomDebugStringConvertible {
    /// With an object's keys sorted: a dictionary's own order differs from instance to
    /// instance.
    var debugDescription: String {
      switch self {
      case .null: "null"
      case .bool(let value): "\(value)"
      case .number(let value): "\(value)"
      case .string(let value): value.debugDescription
      case .array(let value): "[" + value.map(\.debugDescription).joined(separator: ",") + "]"
      case .object(let value):
        "{"
          + value.keys.sorted().map { "\($0.debugDescription):\(value[$0]!.debugDescription)" }
          .joined(separator: ",") + "}"
      }
    }

    case null, bool(Bool), number(Double), string(String), array([AnyJSON]),
      object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
      if var array = try? decoder.unkeyedContainer() {
        var values: [AnyJSON] = []
        while !array.isAtEnd { values.append(try array.decode(AnyJSON.self)) }
        self = .array(values)
        return
      }
      if let object = try? decoder.container(keyedBy: AnyKey.self) {
        var values: [String: AnyJSON] = [:]
        for key in object.allKeys {
          values[key.stringValue] = try object.decode(AnyJSON.self, forKey: key)
        }
        self = .object(values)
        return
      }
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let value = try? single.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? single.decode(Double.self) {
        self = .number(value)
      } else {
        self = .string(try single.decode(String.self))
      }
    }

    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      switch self {
      case .null: try single.encodeNil()
      case .bool(let value): try single.encode(value)
      case .number(let value): try single.encode(value)
      case .string(let value): try single.encode(value)
      case .array(let value): try single.encode(value)
      case .object(let value): try single.encode(value)
      }
    }
  }

  /// An action that reads one field and skips the rest of its object.
  struct Skip: Codable, Equatable, Sendable {
    var a: Int
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { (self.stringValue, self.intValue) = ("\(intValue)", intValue) }
  }

  /// A reducer that keeps a description of every action it is sent.
  struct Echo<A: Codable & Sendable>: Reducer {
    struct State: Equatable, Codable {
      var count = 0
      var last = ""
    }
    typealias Action = A

    func reduce(into state: inout State, action: A) -> Effect<A> {
      state.count += 1
      state.last = String(reflecting: action)
      return .none
    }
  }

  /// An action that records the coding path it was decoded at.
  struct PathAction: Codable, Equatable, Sendable {
    var path: String
    init(from decoder: any Decoder) throws {
      path = decoder.codingPath.map(\.stringValue).joined(separator: ".")
      _ = try decoder.singleValueContainer()
    }
    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(path)
    }
  }

  /// An action holding a secret, decoded (a key-aware wrapper would do this) only below a
  /// key: at the top level of a document it refuses itself.
  struct KeyedSecretAction: Codable, Equatable, Sendable {
    var pin: Secret<String>
    enum CodingKeys: String, CodingKey { case pin }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      pin = try container.decode(Secret<String>.self, forKey: .pin)
      guard !decoder.codingPath.isEmpty else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "must be below a key"))
      }
    }
  }

  enum LockAction: Codable, Equatable, Sendable {
    case pinChanged(Secret<String>)
    case login(Secret<String>, Int)
    case reset
  }

  // MARK: Harness

  struct Outcome: Equatable, CustomStringConvertible {
    var error: String?
    var steps: [String] = []
    var warnings: [String] = []
    var unlisted = 0
    var finalState = ""
    var actionCount = 0
    var isComplete = false
    var description: String {
      "error: \(error ?? "none")\nsteps: \(steps)\nwarnings: \(warnings)\nunlisted: \(unlisted)\nfinal: \(finalState) count \(actionCount) complete \(isComplete)"
    }
  }

  /// The header line of an empty recording of `feature`.
  func header<R: Reducer>(_ feature: String, _ make: @escaping () -> R, state: R.State) throws
    -> [UInt8]
  where R.State: Codable & Equatable, R.Action: Codable & Sendable {
    let store = Store(initialState: state) { make() }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: feature, checkpointInterval: 1000, time: { 0 })
    try recorder.finish()
    let data = try Data(contentsOf: URL(fileURLWithPath: file))
    let newline = data.firstIndex(of: 0x0A)!
    return Array(data[..<newline])
  }

  func outcome<R: Reducer>(_ file: String, _ feature: String, _ make: @escaping () -> R)
    -> Outcome
  where R.State: Codable, R.Action: Codable {
    var result = Outcome()
    do {
      let report = try ActionLogReplayer(feature: feature) { make() }.replay(path: file) {
        step in
        result.steps.append(
          "seq \(step.sequence) line \(step.line) origin \(step.origin) time \(step.time) bits \(String(step.time.bitPattern, radix: 16)) action \(String(reflecting: step.action))"
        )
      }
      result.warnings = report.warnings
      result.unlisted = report.unlistedWarningCount
      result.finalState = String(reflecting: report.finalState)
      result.actionCount = report.actionCount
      result.isComplete = report.isComplete
    } catch {
      result.error = "\(error)"
    }
    return result
  }

  struct Comparison {
    var line: [UInt8]
    var isPlain: Bool
    var with: Outcome
    var without: Outcome
    var differs: Bool { with != without }
    var text: String {
      String(decoding: line.prefix(300), as: UTF8.self).debugDescription
        + (line.count > 300 ? "… (\(line.count) bytes)" : "")
    }
  }

  /// Replays header + `lines` with and without the shortcut.
  func compare<R: Reducer>(
    _ feature: String, _ make: @escaping () -> R, state: R.State, lines: [[UInt8]],
    trailer: [UInt8] = [0x0A]
  ) throws -> Comparison
  where R.State: Codable & Equatable, R.Action: Codable & Sendable {
    var bytes = try header(feature, make, state: state) + [0x0A]
    for line in lines { bytes += line + [0x0A] }
    if !trailer.isEmpty || !lines.isEmpty { bytes.removeLast(); bytes += trailer }
    let file = directory.path("\(UUID().uuidString).jsonl")
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    let with = outcome(file, feature, make)
    let without = PlainActionLine.$isDisabled.withValue(true) { outcome(file, feature, make) }
    // A control: the same replay again gives the same outcome.
    let again = outcome(file, feature, make)
    #expect(again == with, "the replay is not deterministic")
    let last = lines.last ?? []
    let isPlain = Data(last).withUnsafeBytes { PlainActionLine.fields(of: $0) } != nil
    return Comparison(line: last, isPlain: isPlain, with: with, without: without)
  }

  func run<R: Reducer>(
    _ name: String, _ feature: String, _ make: @escaping () -> R, state: R.State,
    lines: [[UInt8]], expectDifference: Bool = false
  ) throws -> [Comparison]
  where R.State: Codable & Equatable, R.Action: Codable & Sendable {
    var found: [Comparison] = []
    for line in lines {
      let comparison = try compare(feature, make, state: state, lines: [line])
      if comparison.differs {
        found.append(comparison)
      } else {
      }
    }
    return found
  }

  func line(_ text: String) -> [UInt8] { Array(text.utf8) }

  func actionLine(_ action: String, time: String = "1.5", seq: String = "1") -> [UInt8] {
    line(#"{"kind":"action","seq":\#(seq),"time":\#(time),"origin":"user","action":\#(action)}"#)
  }

  // MARK: Tests

  @Test func timeSpellings() throws {
    let times = [
      "-0", "-0.0", "0", "0.0", "1", "1.0", "1.5", "-1.5", "9007199254740993",
      "9007199254740995", "18446744073709551615", "18446744073709551617",
      "123456789012345678901234567890", "100000000000000000000000000000000000000000000000000",
      "1" + String(repeating: "0", count: 308), "1" + String(repeating: "0", count: 309),
      "17976931348623157" + String(repeating: "0", count: 292),
      "17976931348623158" + String(repeating: "0", count: 292),
      "17976931348623159" + String(repeating: "0", count: 292),
      "0.000000000000001", "123456789012345.6", "1.7976931348623157e308", "1e-400",
      "4.9e-324", "2.4703282292062328e-324", "1E2", "1e+2", "0.1e1", "-0e0", "1e400",
      "0.30000000000000004", "0.1", "1e-7", "5e-324",
    ]
    let found = try run(
      "time", "Echo", { Echo<Int>() }, state: .init(),
      lines: times.map { actionLine("7", time: $0) })
    #expect(found.map(\.text) == [])
  }

  @Test func seqSpellings() throws {
    let seqs = [
      "1", "-0", "0", "01", "1.0", "1e0", "10e-1", "1.000000000000000001", "+1", " 1 ",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808",
      "-9223372036854775809", "0.99999999999999999999",
    ]
    let found = try run(
      "seq", "Echo", { Echo<Int>() }, state: .init(),
      lines: seqs.map { actionLine("7", seq: $0) })
    #expect(found.map(\.text) == [])
  }

  @Test func envelopeVariants() throws {
    let lines: [[UInt8]] = [
      line(#"{"kind":"action","seq":1,"origin":"user","action":7}"#),
      line(" \t{ \"kind\" :\"action\" , \"seq\":1,\"origin\":\"user\",\"action\":7 } \t\r"),
      line(#"{"k\u0069nd":"action","seq":1,"origin":"user","action":7}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7,}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7}x"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7}}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7} {}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7,"kind":"action"}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7,"k\u0069nd":"action"}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7,"extra":null}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","time":null,"action":7}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7 8}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7"}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7/**/}"#),
      line("{\"kind\":\"action\",\"seq\":1,\"origin\":\"user\",\"action\":7\u{0C}}"),
      line("{\"kind\":\"action\",\"seq\":1,\"origin\":\"user\",\"action\":7\u{0B}}"),
      line("{\"kind\":\"action\",\"seq\":1,\"origin\":\"user\",\"action\":7\u{A0}}"),
      line("{\"kind\":\"action\",\"seq\":1,\"origin\":\"user\",\"action\":7}\r"),
      line("{\"kind\":\"action\",\"seq\":1,\"origin\":\"user\",\"action\":7}\r\r"),
      line("{\"kind\":\"action\",\"seq\":1,\"origin\":\"user\",\"action\":7}\u{0}"),
      [0xEF, 0xBB, 0xBF] + line(#"{"kind":"action","seq":1,"origin":"user","action":7}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":07}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":-}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":+7}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7.}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7.0}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":-0}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":Infinity}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":"7"}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":[7]}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":null}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":1e2}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":100000000000000000000}"#),
      line(#"{"kind":"action","seq":2,"origin":"user","action":7}"#),
      line(#"{"kind":"action","seq":1,"origin":"robot","action":7}"#),
      line(#"{"kind":"action","seq":1,"origin":"effect","action":7}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7,"digest":"x"}"#),
      line(#"{"kind":"action" "seq":1,"origin":"user","action":7}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":7"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action"7}"#),
      line(#"{"kind":"action","seq":1,"origin":"user","action":}"#),
      line(#"{"kind":"action","seq":1,"origin":"user"action":7}"#),
    ]
    let found = try run("envelope", "Echo", { Echo<Int>() }, state: .init(), lines: lines)
    #expect(found.map(\.text) == [])
  }

  @Test func bareValueActions() throws {
    let strings = [
      #""a""#, #""a\\""#, #""\"""#, #""\u0000""#, #""\ud800""#, #""\udc00\ud800""#,
      #""\ud83d\ude00""#, #""a\/b""#, #""é""#, "\"tab\there\"", #""\x""#, #""a"#, #""""#,
      #""e\u0301""#,
    ]
    var found = try run(
      "string", "EchoString", { Echo<String>() }, state: .init(),
      lines: strings.map { actionLine($0) })
    let doubles = [
      "-0", "0", "1.5", "1e2", "-0.0", "123456789012345678901234567890", "1.0", "1e-400",
    ]
    found += try run(
      "double", "EchoDouble", { Echo<Double>() }, state: .init(),
      lines: doubles.map { actionLine($0) })
    let decimals = ["0.1", "-0", "123456789012345678901234567890", "1.5", "1e2"]
    found += try run(
      "decimal", "EchoDecimal", { Echo<Decimal>() }, state: .init(),
      lines: decimals.map { actionLine($0) })
    let optionals = ["null", "7", #""7""#, "[null]", "{}"]
    found += try run(
      "optional", "EchoOptional", { Echo<Int?>() }, state: .init(),
      lines: optionals.map { actionLine($0) })
    let bools = ["true", "false", "tru", "true1", "null", "1"]
    found += try run(
      "bool", "EchoBool", { Echo<Bool>() }, state: .init(), lines: bools.map { actionLine($0) })
    let dictionaries = [
      #"{"a":1}"#, #"{"a":1,"a":2}"#, #"{"\u0061":1,"a":2}"#, #"{"é":1,"e\u0301":2}"#, #"{"a":1,}"#,
      #"{"a":1]"#, #"{"a" 1}"#, #"{}"#, #"{"a":[1]}"#,
    ]
    found += try run(
      "dictionary", "EchoDictionary", { Echo<[String: Int]>() }, state: .init(),
      lines: dictionaries.map { actionLine($0) })
    let arrays = ["[]", "[1,2]", "[1,]", "[1 2]", "[1}", "[[1]]", "[1]]"]
    found += try run(
      "array", "EchoArray", { Echo<[Int]>() }, state: .init(), lines: arrays.map { actionLine($0) })
    #expect(found.map(\.text) == [])
  }

  @Test func anyJSONActions() throws {
    let values = [
      #"{"a":"}],\"b","c":[1,{"d":"]"}]}"#, #"["\\",{"x":"\\\""}]"#, #"{"kind":"checkpoint"}"#,
      #"{"seq":2,"origin":"effect","action":9}"#, #"[1,2,3"#, #"{"a":1}}"#, #"[]]"#,
    ]
    let found = try run(
      "anyJSON", "EchoJSON", { Echo<AnyJSON>() }, state: .init(),
      lines: values.map { actionLine($0) })
    #expect(found.map(\.text) == [])
  }

  /// The fragment is one level shallower than the whole line.
  @Test func deeplyNestedActions() throws {
    var lines: [[UInt8]] = []
    for depth in [100, 509, 510, 511, 512, 513, 514] {
      lines.append(
        actionLine(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)))
      lines.append(
        actionLine(
          String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)))
    }
    let found = try run("depth", "EchoJSON", { Echo<AnyJSON>() }, state: .init(), lines: lines)
    #expect(found.map(\.text) == [])
  }

  @Test func secretsInPlainText() throws {
    var found = try run(
      "secret", "EchoLock", { Echo<LockAction>() }, state: .init(),
      lines: [
        actionLine(#"{"pinChanged":{"_0":"1234"}}"#),
        actionLine(#"{"pinChanged":{"_0":"<redacted>"}}"#),
        actionLine(#"{"login":{"_0":"1234","_1":2}}"#),
        actionLine(#"{"login":{"_0":"1234","_1":"x"}}"#),
        actionLine(#"{"login":{"_0":"1234"}}"#),
        actionLine(#"{"pinChanged":{"_0":"1234"},"reset":{}}"#),
        actionLine(#"{"pinChanged":{"_0":"\u003credacted>"}}"#),
      ])
    // A secret noted while the fragment is decoded, before it fails there (it decodes only
    // below a key), but not drained: the whole decode succeeds.
    found += try run(
      "keyedSecret", "EchoKeyedSecret", { Echo<KeyedSecretAction>() }, state: .init(),
      lines: [actionLine(#"{"pin":"1234"}"#), actionLine(#"{"pin":"<redacted>"}"#)])
    #expect(found.map(\.text) == [])
  }

  /// A secret noted by a fragment decode that then fails stays noted: in a two-line log it
  /// shows in line 2's warning (the same line's whole decode drains it), not later.
  @Test func staleSecretCarriedToALaterLine() throws {
    let comparison = try compare(
      "EchoKeyedSecret", { Echo<KeyedSecretAction>() }, state: .init(),
      lines: [actionLine(#"{"pin":"1234"}"#), actionLine(#"{"pin":"<redacted>"}"#, seq: "2")])
    #expect(!comparison.differs)
  }

  /// The repeated-key scan gives up quietly at a key it cannot read, before it reaches the
  /// `time` after the action: `holdsRoundableNumber` is not set for its exponent.
  @Test func scannerGivesUpBeforeTime() throws {
    let keys = [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\x""#, #""\u12""#, #""\u00e9""#]
    var lines: [[UInt8]] = []
    for key in keys {
      for time in [
        "1e-400", "1.5", "1e2", "0.1e1", "-1e-400", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1.00000000000000011102230246251565404236316680908203125",
        "2.2250738585072011e-308", "0.99999999999999999999", "1e308", "1.7976931348623158e308",
      ] {
        lines.append(
          line(
            #"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":{\#(key):1,"b":2}},"time":\#(time)}"#
          ))
      }
    }
    let found = try run("scannerBail", "EchoSkip", { Echo<Skip>() }, state: .init(), lines: lines)
    #expect(found.map(\.text) == [])
  }

  /// After the scan gives up: repeated keys and trailing commas it no longer sees.
  @Test func afterTheScanGivesUp() throws {
    let bail = #"{"\ud800":1,"b":2}"#
    let actions = [
      #"{"x":\#(bail),"a":1,"a":2}"#, #"{"x":\#(bail),"a":1,}"#, #"{"x":\#(bail),"a":1,"y":[1,]}"#,
      #"{"x":\#(bail),"a":0.99999999999999999999}"#, #"{"x":\#(bail),"a":1e0}"#,
      #"{"x":\#(bail),"a":1.0}"#, #"{"x":\#(bail),"a":-0}"#,
    ]
    var lines = actions.map { line(#"{"kind":"action","seq":1,"origin":"user","action":\#($0)}"#) }
    lines += [
      line(#"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":\#(bail)},"time":1.5,}"#),
      line(
        #"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":\#(bail)},"time":1.5,"time":2}"#
      ),
      line(
        #"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":\#(bail)},"t\u0069me":1e-400}"#
      ),
      line(#"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":\#(bail)},"seq":1e0}"#),
      line(
        #"{"kind":"action","origin":"user","action":{"a":1,"x":\#(bail)},"seq":0.99999999999999999999}"#
      ),
      line(
        #"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":\#(bail)},"note":1e-400}"#),
    ]
    let found = try run("afterBail", "EchoSkip", { Echo<Skip>() }, state: .init(), lines: lines)
    #expect(found.map(\.text) == [])
  }

  /// Types `JSONDecoder` treats specially, at the top level and below a key.
  @Test func speciallyDecodedTypes() throws {
    var found = try run(
      "date", "EchoDate", { Echo<Date>() }, state: .init(),
      lines: ["0", "-0", "1.5", "\"x\"", "1e2"].map { actionLine($0) })
    found += try run(
      "url", "EchoURL", { Echo<URL>() }, state: .init(),
      lines: [#""https://x.y/z""#, #""""#, #""a b""#, #""http://[""#].map { actionLine($0) })
    found += try run(
      "data", "EchoData", { Echo<Data>() }, state: .init(),
      lines: [#""AAAA""#, #""AAA""#, #""""#, "[1,2]"].map { actionLine($0) })
    found += try run(
      "float", "EchoFloat", { Echo<Float>() }, state: .init(),
      lines: ["3.4028236e38", "340282356779733661637539395458142568448", "1.5", "-0"].map {
        actionLine($0)
      })
    found += try run(
      "int8", "EchoInt8", { Echo<Int8>() }, state: .init(),
      lines: ["127", "128", "-128", "-0", "1.0", "1.5"].map { actionLine($0) })
    found += try run(
      "uint", "EchoUInt", { Echo<UInt>() }, state: .init(),
      lines: ["-0", "-1", "18446744073709551615", "18446744073709551616"].map { actionLine($0) })
    found += try run(
      "secretTop", "EchoSecret", { Echo<Secret<String>>() }, state: .init(),
      lines: [#""1234""#, #""<redacted>""#, "null", "1"].map { actionLine($0) })
    found += try run(
      "optionalSecret", "EchoOptionalSecret", { Echo<Secret<String>?>() }, state: .init(),
      lines: [#""1234""#, #""<redacted>""#, "null"].map { actionLine($0) })
    found += try run(
      "intKeys", "EchoIntKeys", { Echo<[Int: String]>() }, state: .init(),
      lines: [#"{"1":"a"}"#, #"{"01":"a"}"#, #"{"x":"a"}"#, #"["1","a"]"#].map { actionLine($0) })
    #expect(found.map(\.text) == [])
  }

  @Test func longLines() throws {
    let long = "\"" + String(repeating: "a", count: 8 * 1024 * 1024 - 80) + "\""
    let found = try run(
      "long", "EchoString", { Echo<String>() }, state: .init(),
      lines: [actionLine(long), actionLine("\"" + String(repeating: "\\\\", count: 1000) + "\"")])
    #expect(found.map(\.text) == [])
  }

  @Test func truncatedLastLine() throws {
    // A last line without its newline, whole JSON: decoded as any other line.
    let comparison = try compare(
      "Echo", { Echo<Int>() }, state: .init(), lines: [actionLine("7")], trailer: [])
    #expect(!comparison.differs)
  }

  // MARK: The trial's findings

  static let prefix = #"{"kind":"action","seq":1,"time":1.5,"origin":"user","action":"#

  /// An action nested 512 deep: the whole line is 513 deep, one more than `JSONDecoder`
  /// reads. The shortcut handed it the action alone, 512 deep, and accepted the line; it now
  /// leaves an action nested 256 deep or more to the whole decode.
  @Test func anActionNested512DeepIsRefusedBothWays() throws {
    for depth in [511, 512, 513] {
      let line = line(
        Self.prefix + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
          + "}")
      let comparison = try compare("EchoJSON", { Echo<AnyJSON>() }, state: .init(), lines: [line])
      #expect(comparison.with == comparison.without, "depth \(depth)")
    }
  }

  /// The repeated-key scan gave up at a key it could not read (here a lone surrogate, in an
  /// object the action's type never reads, so `JSONDecoder` never reads it either), so
  /// `holdsRoundableNumber` stayed false for the `time` after it: the shortcut read `1e-400` as
  /// 0, which `JSONDecoder` refuses; it now leaves a zero with a digit that is not to the
  /// whole decode. And the message named the surrogate, which the decoder reads past, rather
  /// than the time; it names the time now.
  @Test func aTimeTooSmallForADoubleIsRefusedBothWays() throws {
    let text =
      #"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":{"\ud800":1,"b":2}},"time":1e-400}"#
    let comparison = try compare(
      "EchoSkip", { Echo<Skip>() }, state: .init(), lines: [line(text)])
    #expect(comparison.with == comparison.without)
    #expect(
      comparison.with.error
        == "Line 2: invalid JSON: the number 1e-400 at time is too small for any number type (it is not zero, and the closest Double is)."
    )
    // Without the unreadable key, the scan flags the exponent and both refuse the line.
    let control = try compare(
      "EchoSkip", { Echo<Skip>() }, state: .init(),
      lines: [
        line(
          #"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":{"c":1,"b":2}},"time":1e-400}"#
        )
      ])
    #expect(control.with == control.without)
  }

  /// The one difference the shortcut makes, documented on the replayer's shortcut: an
  /// action is decoded from its own bytes, so its decoder's `codingPath` starts there (`[]`),
  /// not at the line (`["action"]`). Only a type that keeps the path (this one) can tell;
  /// everything else about the replay is the same.
  @Test func anActionThatKeepsItsCodingPathSeesItStartAtTheAction() throws {
    let comparison = try compare(
      "EchoPath", { Echo<PathAction>() }, state: .init(), lines: [actionLine("7")])
    #expect(comparison.with.steps.count == 1)
    #expect(comparison.with.steps.first?.hasSuffix(#"PathAction(path: "")"#) == true)
    #expect(comparison.without.steps.first?.hasSuffix(#"PathAction(path: "action")"#) == true)
    var alike = comparison.with
    alike.steps = comparison.without.steps
    alike.finalState = comparison.without.finalState
    #expect(alike == comparison.without)
  }

  /// A secret noted while the shortcut decoded an action that then failed to decode was named
  /// again by the whole decode's warning; the shortcut now forgets what it noted when it
  /// gives the line up.
  @Test func aSecretInAnActionThatFailsAloneIsNamedOnce() throws {
    let comparison = try compare(
      "EchoKeyedSecret", { Echo<KeyedSecretAction>() }, state: .init(),
      lines: [actionLine(#"{"pin":"1234"}"#)])
    #expect(comparison.with == comparison.without)
  }

  /// Not a difference of the shortcut, but a gap of the repeated-key scan, closed: after a
  /// key the scan could not read (not Unicode text), a number that `JSONDecoder` rounds into
  /// an integer field was not refused, with or without the shortcut.
  @Test func aRoundedIntegerAfterAKeyThatIsNotTextIsRefusedBothWays() throws {
    let bad = try compare(
      "EchoSkip", { Echo<Skip>() }, state: .init(),
      lines: [
        line(
          #"{"kind":"action","seq":1,"origin":"user","action":{"x":{"\ud800":1,"b":2},"a":0.99999999999999999999}}"#
        )
      ])
    let good = try compare(
      "EchoSkip", { Echo<Skip>() }, state: .init(),
      lines: [
        line(
          #"{"kind":"action","seq":1,"origin":"user","action":{"x":{"c":1,"b":2},"a":0.99999999999999999999}}"#
        )
      ])
    #expect(bad.with == bad.without)
    #expect(good.with == good.without)
    #expect(
      bad.with.error
        == "Line 2: the number 0.99999999999999999999 at action.a does not fit the integer type expected there (it is not a whole number, though the closest Double, 1, is)."
    )
    #expect(bad.with.error == good.with.error)
  }

  /// `JSONDecoder` reads a string only where a type asks for it: an escape JSON does not have,
  /// in an object the action's type ignores, passed both ways. Both refuse it now.
  @Test func anInvalidEscapeInAnIgnoredObjectIsRefusedBothWays() throws {
    let comparison = try compare(
      "EchoSkip", { Echo<Skip>() }, state: .init(),
      lines: [
        line(#"{"kind":"action","seq":1,"origin":"user","action":{"a":1,"x":{"b":"\x"}}}"#)
      ])
    #expect(comparison.with == comparison.without)
    #expect(
      comparison.with.error
        == "Line 2: invalid JSON: an invalid escape in a string at action.x.b, at column 68.")
  }

  /// A surrogate without its pair that a type asks for is still named as the line's problem.
  @Test func aSurrogateATypeReadsIsNamedAsTheProblem() throws {
    let comparison = try compare(
      "EchoJSON", { Echo<AnyJSON>() }, state: .init(),
      lines: [line(#"{"kind":"action","seq":1,"origin":"user","action":{"x":"\ud800"}}"#)])
    #expect(comparison.with == comparison.without)
    #expect(
      comparison.with.error
        == "Line 2: invalid JSON: a lone UTF-16 surrogate in a string at action.x, at column 57.")
  }
}
