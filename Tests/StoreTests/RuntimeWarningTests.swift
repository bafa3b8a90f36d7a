import Effects
import Foundation
import Testing

@testable import Store

@Suite struct RuntimeWarningTests {
  @Test func descriptionNamesTheSiteAndTheProblem() {
    let warning = RuntimeWarning(message: "Something broke", fileID: "App/Feature.swift", line: 12)
    #expect(warning.description == "App/Feature.swift:12: runtime warning: Something broke")
    // The library's own warnings have no line: they name the module alone.
    let own = RuntimeWarning(message: "A loop", fileID: "Store", line: 0)
    #expect(own.description == "Store: runtime warning: A loop")
  }

  @Test func messagesNameAnActionsNestedCasesShortAndKeepSecretsRedacted() {
    enum Row: Sendable { case toggled, renamed(String) }
    enum Feature: Sendable {
      case rows(IdentifiedAction<Int, Row>)
      case tapped
      case pair(Int, label: String)
      case signIn(Secret<String>)
      case chosen(Int?)
      case picked(Row??)
    }
    #expect(
      describe(Feature.rows(.element(id: 3, action: .toggled)))
        == "RuntimeWarningTests.Feature.rows(.element(id: 3, action: .toggled))")
    #expect(
      describe(Feature.rows(.element(id: 3, action: .renamed("Milk"))))
        == #"RuntimeWarningTests.Feature.rows(.element(id: 3, action: .renamed("Milk")))"#)
    #expect(describe(Feature.tapped) == "RuntimeWarningTests.Feature.tapped")
    #expect(
      describe(Feature.pair(1, label: "a")) == #"RuntimeWarningTests.Feature.pair(1, label: "a")"#)
    #expect(
      describe(Feature.signIn(Secret("hunter2")))
        == "RuntimeWarningTests.Feature.signIn(Secret(<redacted>))")
    #expect(describe(Feature.chosen(4)) == "RuntimeWarningTests.Feature.chosen(4)")
    #expect(describe(Feature.chosen(nil)) == "RuntimeWarningTests.Feature.chosen(nil)")
    #expect(describe(Feature.picked(.toggled)) == "RuntimeWarningTests.Feature.picked(.toggled)")
    #expect(
      describe(Feature.picked(.some(nil))) == "RuntimeWarningTests.Feature.picked(.some(nil))")
    #expect(describe(Feature.picked(nil)) == "RuntimeWarningTests.Feature.picked(nil)")
  }

  /// Structs and arrays in an action print by their names, as a test writes them (with the
  /// types they are nested in, without their module or the `(unknown context at $1a2b)` of a
  /// private type); a struct that describes itself, or a field that redacts itself, still
  /// prints as it says.
  @Test func messagesNameStructsInAnActionWithoutTheirModule() {
    typealias Item = Shop.Item
    #expect(
      describe(Shop.Feature.add(Item(id: 3, name: "Tea", tag: .hot)))
        == #"Shop.Feature.add(Shop.Item(id: 3, name: "Tea", tag: .hot))"#)
    #expect(
      describe(
        Shop.Feature.loaded([Item(id: 1, name: "a", tag: .cold), Item(id: 2, name: "b", tag: .hot)])
      )
        == #"Shop.Feature.loaded([Shop.Item(id: 1, name: "a", tag: .cold), Shop.Item(id: 2, name: "b", tag: .hot)])"#
    )
    #expect(
      describe(Shop.Feature.signIn(Shop.Login(user: "ann", password: Secret("hunter2"))))
        == #"Shop.Feature.signIn(Shop.Login(user: "ann", password: Secret(<redacted>)))"#)
    #expect(describe(Shop.Feature.pay(Shop.Money(cents: 350))) == "Shop.Feature.pay(3.50 EUR)")
    #expect(
      describe(Shop.Feature.wrapped(Shop.Wrapper(value: nil)))
        == "Shop.Feature.wrapped(Shop.Wrapper<Optional<Shop.Item>>(value: nil))")
    #expect(describe(Shop.Feature.empty([])) == "Shop.Feature.empty([])")
    // A struct sent as the action itself prints once, by its name.
    #expect(describe(Shop.Ping(count: 2, item: nil)) == "Shop.Ping(count: 2, item: nil)")
  }

  /// A dictionary, a set and a tuple in an action are written as Swift writes them, their
  /// values as the rest of the action's are: they were left to `String(reflecting:)`, which
  /// follows a value all the way down (a list 20,000 links deep in a dictionary overflowed
  /// the stack, and stopped the program) and printed a string's invisible characters raw.
  @Test func dictionariesSetsAndTuplesInAnActionAreWrittenWithTheDepthCut() {
    indirect enum Chain: Sendable {
      case link(Chain)
      case end
    }
    struct Span: Sendable { var bounds: (count: Int, String) }
    enum Loader: Sendable {
      case load([String: Chain])
      case tagged(Set<Int>)
      case span(Span)
      case named([String: String])
      case none([Int: Int])
    }
    var chain = Chain.end
    for _ in 0..<20_000 { chain = .link(chain) }
    let text = describe(Loader.load(["k": chain]))
    #expect(text.hasPrefix(#"RuntimeWarningTests.Loader.load(["k": .link(.link("#))
    #expect(text.contains("…") && text.count < 400, "\(text.prefix(400))")
    #expect(describe(Loader.tagged([7])) == "RuntimeWarningTests.Loader.tagged(Set([7]))")
    #expect(
      describe(Loader.span(Span(bounds: (count: 2, "ab\u{200B}"))))
        == #"RuntimeWarningTests.Loader.span(RuntimeWarningTests.Span(bounds: (count: 2, "ab\u{200B}")))"#
    )
    #expect(
      describe(Loader.named(["a\u{A0}b": "c"]))
        == #"RuntimeWarningTests.Loader.named(["a\u{A0}b": "c"])"#)
    #expect(describe(Loader.none([:])) == "RuntimeWarningTests.Loader.none([:])")
    // Unwound a link at a time: a release of the whole chain at once recurses 20,000 deep.
    while case .link(let next) = chain { chain = next }
  }

  /// An `IdentifiedArray`, a `ContiguousArray` and an `ArraySlice` in an action are written as
  /// an array is, their elements without their modules and with the depth cut: they printed
  /// as `String(reflecting:)` prints them, `[StoreTests.Row(id: 1, tag: StoreTests.Tag.hot)]`
  /// for the rows a test writes as `[Row(id: 1, tag: .hot)]`, and followed a deep value all
  /// the way down.
  @Test func otherArraysInAnActionAreWrittenAsAnArrayIs() {
    struct Row: Identifiable, Sendable { var id: Int; var tag: Tag }
    enum Tag: Sendable { case hot, cold }
    indirect enum Chain: Sendable {
      case link(Chain)
      case end
    }
    enum Loader: Sendable {
      case rows(IdentifiedArrayOf<Row>)
      case block(ContiguousArray<Tag>)
      case slice(ArraySlice<Tag>)
      case chains(ContiguousArray<Chain>)
    }
    #expect(
      describe(Loader.rows([Row(id: 1, tag: .hot), Row(id: 2, tag: .cold)]))
        == "RuntimeWarningTests.Loader.rows([RuntimeWarningTests.Row(id: 1, tag: .hot), "
        + "RuntimeWarningTests.Row(id: 2, tag: .cold)])")
    #expect(describe(Loader.rows([])) == "RuntimeWarningTests.Loader.rows([])")
    #expect(
      describe(Loader.block([.hot, .cold]))
        == "RuntimeWarningTests.Loader.block(ContiguousArray([.hot, .cold]))")
    #expect(
      describe(Loader.slice([Tag.hot, .cold, .hot][1...]))
        == "RuntimeWarningTests.Loader.slice(ArraySlice([.cold, .hot]))")
    var chain = Chain.end
    for _ in 0..<20_000 { chain = .link(chain) }
    let text = describe(Loader.chains([chain]))
    #expect(text.hasPrefix("RuntimeWarningTests.Loader.chains(ContiguousArray([.link(.link("))
    #expect(text.contains("…") && text.count < 400, "\(text.prefix(400))")
    // Unwound a link at a time: a release of the whole chain at once recurses 20,000 deep.
    while case .link(let next) = chain { chain = next }
  }

  /// A string in an action printed its invisible characters raw (a zero-width space, a
  /// right-to-left override, a no-break space), so two different actions printed the same:
  /// they are escaped now, as the test store's dumps and a replay's messages escape them,
  /// through the same escaper. Ordinary text prints as it did.
  @Test func invisibleCharactersInAnActionsStringsAreEscaped() {
    enum Namer: Sendable {
      case rename(String)
      case labelled(String?, part: Substring, initial: Character)
      case all([String])
    }
    struct Note: Sendable { var text: String }
    #expect(
      describe(Namer.rename("ab\u{200B}")) == #"RuntimeWarningTests.Namer.rename("ab\u{200B}")"#)
    #expect(describe(Namer.rename("ab\u{200B}")) != describe(Namer.rename("ab")))
    #expect(
      describe(Namer.labelled("a\u{A0}b", part: "\u{202E}cba"[...], initial: "\u{FEFF}"))
        == #"RuntimeWarningTests.Namer.labelled("a\u{A0}b", part: "\u{202E}cba", "#
        + #"initial: "\u{FEFF}")"#)
    #expect(
      describe(Namer.all(["x\u{85}", "y\u{2028}"]))
        == #"RuntimeWarningTests.Namer.all(["x\u{85}", "y\u{2028}"])"#)
    #expect(
      describe(Note(text: "a\u{2060}b")) == #"RuntimeWarningTests.Note(text: "a\u{2060}b")"#)
    // Ordinary text, escapes included, prints as `String(reflecting:)` printed it.
    let ordinary = "it's \"Tea\" \\ \t\n\u{1B}[31m café 👍🏽 🏴󠁧󠁢󠁳󠁣󠁴󠁿"
    #expect(
      describe(Namer.rename(ordinary))
        == "RuntimeWarningTests.Namer.rename(\(String(reflecting: ordinary)))")
    #expect(
      describe(Namer.rename(ordinary))
        == #"RuntimeWarningTests.Namer.rename("it\'s \"Tea\" \\ \t\n\u{1B}[31m café 👍🏽 🏴󠁧󠁢󠁳󠁣󠁴󠁿")"#)
  }

  @Test func countedUUIDsInAnActionPrintAsATestWritesThem() {
    enum Feature: Sendable {
      case opened(UUID)
      case moved(from: UUID, to: UUID?)
    }
    #expect(
      describe(Feature.opened(UUID(counting: 100)))
        == "RuntimeWarningTests.Feature.opened(UUID(counting: 100))")
    let random = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    #expect(
      describe(Feature.moved(from: random, to: UUID(counting: 0)))
        == "RuntimeWarningTests.Feature.moved(from: E621E1F8-C36C-495A-93FC-0C247A3E6E5F, "
        + "to: UUID(counting: 0))")
  }

  /// An action that is a plain value printed as `String.` and its raw text, a no-break space
  /// and all (the StoreTesting hunt).
  @Test func anActionThatIsAPlainValueIsWrittenAsItsTypeWouldTakeIt() {
    #expect(describe("ab\u{A0}") == #"String("ab\u{A0}")"#)
    #expect(describe(5) == "Int(5)")
  }

  @Test func aDeepChainOfStructsPrintsItsTopLevelsOnly() {
    var node = ChainNode(value: 0, next: [])
    for value in 1..<2_000 { node = ChainNode(value: value, next: [node]) }
    let text = describe(node)
    #expect(
      text.hasPrefix("ChainNode(value: 1999, next: [ChainNode(value: 1998, next: [ChainNode("))
    #expect(text.contains("…"))
    #expect(text.count < 700)
  }

  @Test func messagesKeepTheTypeOfAnErrorAndOfAnEnumThatReflectsItself() {
    enum LoadError: Error { case offline }
    enum Token: CustomReflectable {
      case token(String)
      var customMirror: Mirror { Mirror(self, children: ["hidden": "***"]) }
    }
    enum Feature: @unchecked Sendable {
      case failed(any Error)
      case signedIn(Token)
    }
    #expect(describe(Feature.failed(LoadError.offline)).hasSuffix("LoadError.offline)"))
    #expect(
      describe(Feature.signedIn(.token("abc"))).hasPrefix("RuntimeWarningTests.Feature.signedIn("))
    #expect(!describe(Feature.signedIn(.token("abc"))).contains(".hidden"))
  }

  @Test func aDeepChainOfAnIndirectEnumPrintsItsTopLevelsOnly() {
    indirect enum Expression: Sendable {
      case number(Int)
      case negated(Expression)
    }
    var expression = Expression.number(1)
    for _ in 0..<10_000 { expression = .negated(expression) }
    let text = describe(expression)
    #expect(text.hasPrefix("RuntimeWarningTests.Expression.negated(.negated("))
    #expect(text.contains("…"))
    #expect(text.count < 400)
  }

  @Test func aDeepListOfOptionalNodesPrintsItsTopLevelsOnly() {
    indirect enum List: Sendable {
      case node(Int, next: List?)
    }
    var list = List.node(0, next: nil)
    for value in 1..<2_000 { list = .node(value, next: list) }
    let text = describe(list)
    #expect(text.hasPrefix("RuntimeWarningTests.List.node(1999, next: .node(1998, next: .node("))
    #expect(text.contains("…"))
    #expect(text.count < 600)
  }

  /// The default handler printed each site's first warning only: a feature's second thrown
  /// error, or its second action for a missing row, never showed, though the documentation
  /// says they are not dropped silently. Each site now prints its first eight, then one each
  /// time its count doubles, with the count: a loop does not flood the output.
  @Test func theDefaultHandlerPrintsEachSitesFirstWarningsThenCountsTheRest() {
    let lines = Collected<String>()
    let handler = RuntimeWarningHandler.printingPerSite(limit: 3) { lines.append($0) }
    for number in 1...17 {
      handler(RuntimeWarning(message: "failure #\(number)", fileID: "App/A.swift", line: 1))
    }
    handler(RuntimeWarning(message: "elsewhere", fileID: "App/A.swift", line: 2))
    let counted = "warnings from here so far; past the first 3, one is printed each time the"
    #expect(
      lines.values == [
        "App/A.swift:1: runtime warning: failure #1\n",
        "App/A.swift:1: runtime warning: failure #2\n",
        "App/A.swift:1: runtime warning: failure #3\n",
        "App/A.swift:1: runtime warning: failure #4 (4 \(counted) count doubles)\n",
        "App/A.swift:1: runtime warning: failure #8 (8 \(counted) count doubles)\n",
        "App/A.swift:1: runtime warning: failure #16 (16 \(counted) count doubles)\n",
        "App/A.swift:2: runtime warning: elsewhere\n",
      ]
    )
  }

  /// Warnings with neither a line nor a group are counted by their text: each new text was
  /// kept for the life of the process (the growth hunt), so a process raising ever new texts
  /// grew the table by one each. Past the limit of distinct texts, their counts start over.
  @Test func theCountsOfWarningsWithoutASiteAreKeptForTheLastTextsOnly() {
    let lines = Collected<String>()
    let handler = RuntimeWarningHandler.printingPerSite(limit: 1, textLimit: 3) {
      lines.append($0)
    }
    let repeated = RuntimeWarning(message: "again", fileID: "App/A.swift", line: 0)
    handler(repeated)
    handler(repeated)
    handler(RuntimeWarning(message: "one", fileID: "App/A.swift", line: 0))
    handler(RuntimeWarning(message: "two", fileID: "App/A.swift", line: 0))
    // The fourth distinct text: the counts start over, and `again` prints in full again.
    handler(RuntimeWarning(message: "three", fileID: "App/A.swift", line: 0))
    handler(repeated)
    handler(repeated)
    let counted = "warnings from here so far; past the first 1, one is printed each time the"
    #expect(
      lines.values == [
        "App/A.swift: runtime warning: again\n",
        "App/A.swift: runtime warning: again (2 \(counted) count doubles)\n",
        "App/A.swift: runtime warning: one\n",
        "App/A.swift: runtime warning: two\n",
        "App/A.swift: runtime warning: three\n",
        "App/A.swift: runtime warning: again\n",
        "App/A.swift: runtime warning: again (2 \(counted) count doubles)\n",
      ]
    )
  }

  /// The default: eight in full, then the 16th, 32nd and so on.
  @Test func theDefaultLimitIsEightPerSite() {
    let lines = Collected<String>()
    let handler = RuntimeWarningHandler.printingPerSite { lines.append($0) }
    for number in 1...40 {
      handler(RuntimeWarning(message: "#\(number)", fileID: "App/A.swift", line: 1))
    }
    #expect(
      lines.values.map { $0.split(separator: " ")[3] }
        == ["#1\n", "#2\n", "#3\n", "#4\n", "#5\n", "#6\n", "#7\n", "#8\n", "#16", "#32"])
  }

  /// Sends to the store of a removed row whose id a new row took, in a loop, each printed a
  /// warning: one without a line, counted by its text, which names the action (concurrency
  /// adversary trial: 1,000 of 1,000 printed). They count as one kind now.
  @MainActor
  @Test func sendsToAGoneRowsStoreInALoopDoNotFloodTheOutput() {
    let lines = Collected<String>()
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "Milk"))
    let harness = Harness(
      initialState: state,
      warnings: RuntimeWarningHandler.printingPerSite { lines.append($0) },
      reducer: Todos(clock: TestClock()))
    let row = harness.store.scope(state: \.rows, action: .rows)[0]
    harness.send(.removeRow(1))
    harness.send(.addRow(1))
    for number in 1...1_000 { row.send(.renamed("name \(number)")) }
    #expect(lines.values.count == 8 + 6, "eight, then the 16th, 32nd, 64th, 128th, 256th and 512th")
    #expect(lines.values.allSatisfy { $0.contains("was sent to the store of element 1") })
  }

  @Test func theCurrentHandlerCanBeReplacedForAScope() {
    let log = WarningLog()
    RuntimeWarningHandler.$current.withValue(log.handler) {
      RuntimeWarningHandler.current(RuntimeWarning(message: "captured", fileID: "F", line: 1))
    }
    #expect(log.messages == ["captured"])
  }

  @MainActor
  @Test func storesKeepTheHandlerTheyWereCreatedWith() {
    let log = WarningLog()
    let harness = RuntimeWarningHandler.$current.withValue(log.handler) {
      Harness(
        initialState: LogFeature.State(),
        reducer: LogFeature { _ in .run { _ in throw Boom() } }
      )
    }
    // The effect fails after the scope that installed the handler has ended.
    harness.send(.start("late"))
    #expect(log.messages.count == 1)
  }

  @MainActor
  @Test func anActionSentAfterTheEffectFinishedIsDroppedWithAWarning() async {
    let log = WarningLog()
    let escaped = Collected<Send<LogFeature.Action>>()
    let harness = Harness(
      initialState: LogFeature.State(),
      warnings: log.handler,
      reducer: LogFeature { _ in .run { send in escaped.append(send) } }
    )
    harness.send(.start("a"))
    escaped.values.first?(.record("too late"))
    harness.settle()
    #expect(harness.state.log == ["start a"])
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.contains("after it had finished") == true)
  }
}

/// Payloads for `messagesNameStructsInAnActionWithoutTheirModule`.
private enum Shop {
  enum Tag: Sendable { case hot, cold }
  struct Item: Sendable { var id: Int, name: String, tag: Tag }
  struct Login: Sendable { var user: String, password: Secret<String> }
  struct Money: Sendable, CustomStringConvertible {
    var cents: Int
    var description: String { "\(cents / 100).\(cents % 100) EUR" }
  }
  struct Wrapper<Value: Sendable>: Sendable { var value: Value }
  struct Ping: Sendable { var count: Int, item: Item? }
  enum Feature: Sendable {
    case add(Item)
    case loaded([Item])
    case signIn(Login)
    case pay(Money)
    case wrapped(Wrapper<Item?>)
    case empty([Int])
  }
}

/// A link of a long chain of structs.
private struct ChainNode: Sendable { var value: Int, next: [ChainNode] }
