import Effects
import Foundation
import Observation
import Testing

@testable import Store

// A model-based, seeded, randomized test of how a live store keeps its scoped child stores
// (rows of an identified array, screens of a navigation stack, a presented child) in step
// with its state, their effects with their lifetimes, and their stale stores inert.

// MARK: - The feature under test

struct SMRow: Reducer {
  struct State: Equatable, Identifiable, Sendable, CustomStringConvertible {
    let id: Int
    var title: String
    var taps = 0
    var loads = 0
    var description: String { "\(id):\(title):t\(taps):l\(loads)" }
  }
  enum Action: Sendable, Equatable {
    case tap
    case rename(String)
    case startLoad(Int)
    case stopLoads
    case loaded
    case close
    case closeLater(Int)
    case deleteLater(Int)
    case tapAndDelete
    case tapAndClose
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable { case deleteMe }
  }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      state.taps += 1
      return .none
    case .rename(let title):
      state.title = title
      return .none
    case .startLoad(let seconds):
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(seconds))
        send(.loaded)
      }
      .cancellable(id: "load")
    case .stopLoads:
      return .cancel(id: "load")
    case .loaded:
      state.loads += 1
      return .none
    case .close:
      return .dismiss
    case .closeLater(let seconds):
      return .concatenate(
        .run { [clock] _ in try await clock.sleep(for: .seconds(seconds)) },
        .dismiss
      )
    case .deleteLater(let seconds):
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(seconds))
        send(.delegate(.deleteMe))
      }
    case .tapAndDelete:
      state.taps += 1
      return .send(.delegate(.deleteMe))
    case .tapAndClose:
      state.taps += 1
      return .dismiss
    case .delegate:
      return .none
    }
  }
}

struct SMParent: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<SMRow.State> = []
    var path = StackState<SMRow.State>()
    var savedPaths: [Int: StackState<SMRow.State>] = [:]
    var child: SMRow.State?
  }
  enum Action: Sendable {
    case rows(IdentifiedActionOf<SMRow>)
    case path(StackActionOf<SMRow>)
    case child(PresentationAction<SMRow.Action>)
    case append(SMRow.State)
    case insert(SMRow.State, at: Int)
    case removeID(Int)
    case removeOffsets([Int])
    case move([Int], to: Int)
    case sortByTitle
    case replaceRows([SMRow.State])
    case refreshRows([SMRow.State])
    case clearRows
    case pushRow(SMRow.State)
    case popLast
    case popToRoot
    case setPath([SMRow.State])
    case savePath(slot: Int)
    case restorePath(slot: Int)
    case present(SMRow.State?)
    /// Removes a row, and adds a row with its id back in a second action, fed back at once.
    case removeThenReAdd(SMRow.State)
  }
  let clock: TestClock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .append(let row): state.rows.append(row)
      case .insert(let row, let position): state.rows.insert(row, at: position)
      case .removeID(let id): state.rows.remove(id: id)
      case .removeOffsets(let offsets): state.rows.remove(atOffsets: offsets)
      case .move(let sources, let destination):
        state.rows.move(fromOffsets: sources, toOffset: destination)
      case .sortByTitle: state.rows.sort { ($0.title, $0.id) < ($1.title, $1.id) }
      case .replaceRows(let rows): state.rows = IdentifiedArrayOf(rows) { first, _ in first }
      case .refreshRows(let rows):
        state.rows.removeAll()
        for row in rows { state.rows.append(row) }
      case .clearRows: state.rows.removeAll()
      case .pushRow(let row): state.path.append(row)
      case .popLast: state.path.popLast()
      case .popToRoot: state.path.removeAll()
      case .setPath(let rows): state.path = StackState(rows)
      case .savePath(let slot): state.savedPaths[slot] = state.path
      case .restorePath(let slot): if let saved = state.savedPaths[slot] { state.path = saved }
      case .removeThenReAdd(let row):
        state.rows.remove(id: row.id)
        return .send(.append(row))
      case .present(let row): state.child = row
      case .rows(.element(let id, .delegate(.deleteMe))): state.rows.remove(id: id)
      case .rows, .path, .child: break
      }
      return .none
    }
    .forEach(\.rows, action: .smRows) { SMRow(clock: clock) }
    .navigationStack(\.path, action: .smPath) { SMRow(clock: clock) }
    .presents(\.child, action: .smChild) { SMRow(clock: clock) }
  }
}

extension CaseKey<SMParent.Action, IdentifiedAction<Int, SMRow.Action>> {
  static var smRows: Self {
    Self(SMParent.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<SMParent.Action, StackAction<SMRow.State, SMRow.Action>> {
  static var smPath: Self {
    Self(SMParent.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<SMParent.Action, PresentationAction<SMRow.Action>> {
  static var smChild: Self {
    Self(SMParent.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// Key paths and case keys made once: a literal is instantiated at each use in a debug build.
@MainActor
enum SMPaths {
  static let rows: KeyPath<SMParent.State, IdentifiedArrayOf<SMRow.State>> = \.rows
  static let rowsAction = CaseKey<SMParent.Action, IdentifiedAction<Int, SMRow.Action>>.smRows
  static let path: KeyPath<SMParent.State, StackState<SMRow.State>> = \.path
  static let pathAction = CaseKey<SMParent.Action, StackAction<SMRow.State, SMRow.Action>>.smPath
  static let child: KeyPath<SMParent.State, SMRow.State?> = \.child
  static let childAction = CaseKey<SMParent.Action, PresentationAction<SMRow.Action>>.smChild
  static let sameAction = CaseKey<SMRow.Action, SMRow.Action>({ $0 }, extract: { $0 })
}

// MARK: - The tests

/// The seeds to run: `SM_SEEDS` (comma-separated) when set, otherwise six.
private let seeds: [UInt64] =
  ProcessInfo.processInfo.environment["SM_SEEDS"]?.split(separator: ",").compactMap {
    UInt64($0)
  } ?? [1, 2, 3, 4, 5, 6]

@MainActor
@Suite struct StoreModelTests {
  /// Several seeds, 2,000 steps each: every invariant is checked after every step. A failure
  /// names the seed and the step, with the last operations; the session is deterministic, so
  /// it replays with that seed alone: `SM_SEEDS=42 swift test --filter StoreModelTests/`
  /// (a comma-separated list runs a sweep).
  @Test(arguments: seeds)
  func scopedStoresStayInStepWithAPlainModel(seed: UInt64) async {
    let run = ModelRun(seed: seed)
    await run.run(steps: 2_000)
  }
}

/// One randomized session against a plain model.
@MainActor
final class ModelRun {
  typealias RowStore = Store<SMRow.State, SMRow.Action>

  /// A place a child store is for: a row (by id), a screen (by its push), or the child (by id).
  enum Place: Hashable, CustomStringConvertible {
    case row(Int)
    case screen(birth: Int)
    case child(Int)
    var description: String {
      switch self {
      case .row(let id): "row \(id)"
      case .screen(let birth): "screen(birth \(birth))"
      case .child(let id): "child \(id)"
      }
    }
  }

  enum Payload: CustomStringConvertible {
    case load, close, delete
    var description: String {
      switch self {
      case .load: "load"
      case .close: "close"
      case .delete: "delete"
      }
    }
  }

  struct Sleeper: CustomStringConvertible {
    var deadline: Int
    var seq: Int
    var target: Place
    var payload: Payload
    var description: String { "\(payload)@\(deadline) in \(target)" }
  }

  struct Screen {
    var id: Int
    var row: SMRow.State
    var birth: Int
  }

  /// A store the test holds: strongly (`store`) or only weakly.
  @MainActor
  final class Held {
    let place: Place
    let episode: Int
    var store: RowStore?
    weak var weak: RowStore?
    /// For a screen: its stack id.
    let stackID: Int?
    /// The element's value as the store should read it: followed while the episode lives.
    var lastValue: SMRow.State
    /// Whether the episode ended: `lastValue` no longer follows the model.
    var frozen = false
    /// An observation of the store's state, armed with the value it read then.
    var observed: (flag: Flag, value: SMRow.State)?
    /// A store scoped from the held one, to a part of its state (its title).
    var part: Store<String, SMRow.Action>?
    init(place: Place, episode: Int, store: RowStore, strong: Bool, stackID: Int?) {
      self.place = place
      self.episode = episode
      self.store = strong ? store : nil
      self.weak = store
      self.stackID = stackID
      self.lastValue = store.state
      if strong {
        part = store.scope(state: \.title, action: SMPaths.sameAction)
        _ = part?.state
      }
    }
  }

  let seed: UInt64
  var random: SeededGenerator
  let clock = TestClock()
  let warnings = WarningLog()
  let harness: Harness<SMParent>
  var step = 0
  var history: [String] = []
  var failures: [String] = []

  // The model.
  var rows: [SMRow.State] = []
  var path: [Screen] = []
  var nextPathID = 0
  var saved: [Int: (screens: [Screen], nextID: Int)] = [:]
  var child: SMRow.State?
  var nextBirth = 0
  var nextRowID = 0
  /// Row ids removed lately, for reuse.
  var recentlyRemoved: [Int] = []
  var now = 0
  var nextSeq = 0
  var sleepers: [Sleeper] = []
  var expectedWarnings = 0
  /// The live places and their presence episode (a place that comes back is a new episode).
  var episodes: [Place: Int] = [:]
  var nextEpisode = 0
  /// The value each place had when the model removed it: a stale store reads it only if it
  /// was the value after the `send` before the removal (see the regression tests).
  var valueAtRemoval: [Place: SMRow.State] = [:]
  /// The value a screen or the child had after the last step of its own reducer since the
  /// last dispatch: what its store's copy is taken again from (see `KeptCopies`), so a stale
  /// store of a screen or child removed by that dispatch reads it.
  var valueAfterStep: [Place: SMRow.State] = [:]
  /// For each live place, the store last handed out, to check that scoping again returns it.
  var known: [Place: (episode: Int, box: WeakBox)] = [:]
  var held: [Held] = []
  var rowSnapshots: [Snapshot<Int>] = []
  var pathSnapshots: [Snapshot<StackElementID>] = []
  /// Each screen's stack id, by birth: the model's path no longer has a popped screen.
  var screenIDs: [Int: Int] = [:]

  /// A listing of element stores, and, for each listed element whose episode has ended since,
  /// its store then (the last handed out in that episode), which the listing hands out for it
  /// from then on while something holds it.
  @MainActor
  final class Snapshot<ID: Hashable & Sendable> {
    let step: Int
    let stores: IdentifiedStores<ID, SMRow.State, SMRow.Action>
    /// The listed ids (row ids, or stack ids' raw values) whose episode has not ended yet.
    var pending: Set<Int>
    /// For each listed id whose episode ended: the store it had then, if one was made.
    var ended: [Int: WeakBox?] = [:]
    /// The store the listing gave for each position read so far: it gives the same again.
    var gave: [Int: WeakBox] = [:]
    init(step: Int, stores: IdentifiedStores<ID, SMRow.State, SMRow.Action>, ids: [Int]) {
      self.step = step
      self.stores = stores
      self.pending = Set(ids)
    }
  }
  /// The stack's real birth tokens, by model birth, to cross-check the model's screens.
  var realBirths: [Int: UInt64] = [:]

  /// How many rows the session keeps at least, mostly: small lists, or lists long enough
  /// that a refresh overflows the arrays' short history (16 changes) and forces full scans.
  let targetRows: Int

  init(seed: UInt64) {
    self.seed = seed
    self.targetRows = seed % 2 == 0 ? 6 : 24
    self.random = SeededGenerator(state: seed)
    harness = Harness(
      initialState: SMParent.State(), warnings: warnings.handler, reducer: SMParent(clock: clock))
  }

  // MARK: Running

  func run(steps: Int) async {
    for index in 0..<steps {
      step = index
      await randomStep()
      updateEpisodes()
      verify()
      if !failures.isEmpty {
        let message = """
          StoreModelTests seed \(seed) failed at step \(step):
          \(failures.joined(separator: "\n"))
          last operations:
          \(history.suffix(30).joined(separator: "\n"))
          model rows: \(rows)
          model path: \(path.map { "#\($0.id)(b\($0.birth)) \($0.row)" })
          model child: \(String(describing: child))
          sleepers: \(sleepers)
          rare events so far: \(events.sorted { $0.key < $1.key })
          """
        Issue.record(Comment(rawValue: message))
        return
      }
    }
    // End of session: drop every store and time out every effect; nothing may be left.
    held.removeAll()
    rowSnapshots.removeAll()
    pathSnapshots.removeAll()
    harness.send(.clearRows)
    harness.send(.popToRoot)
    harness.send(.present(nil))
    #expect(clock.sleeperCount == 0, "seed \(seed): sleepers left at the end")
    #expect(harness.core.runtime.runningCount == 0, "seed \(seed): effects left at the end")
  }

  var events: [String: Int] = [:]
  func event(_ name: String) { events[name, default: 0] += 1 }

  func fail(_ message: String) {
    failures.append(message)
  }

  func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
  }

  func log(_ entry: String) {
    history.append("[\(step)] \(entry)")
  }

  // MARK: Random helpers

  func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
  func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
  func pick<T>(_ values: [T]) -> T? {
    values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)]
  }
  func title() -> String { pick(["a", "b", "c", "d", "e"])! }

  /// A row id not present now: fresh, or one removed recently (reused ids are the point).
  func absentRowID() -> Int {
    let present = Set(rows.map(\.id))
    recentlyRemoved.removeAll { present.contains($0) }
    if let id = pick(recentlyRemoved), chance(40) { return id }
    defer { nextRowID += 1 }
    return nextRowID
  }

  func newRow() -> SMRow.State {
    SMRow.State(id: absentRowID(), title: title())
  }

  // MARK: Steps

  func randomStep() async {
    var choice = int(0...99)
    // Keep a list worth the name: grow while it is short.
    if rows.count < targetRows, chance(30) { choice = 0 }
    switch choice {
    case 0..<5:
      let row = newRow()
      log("append \(row)")
      send(.append(row)) { $0.rows.append(row) }
    case 5..<8:
      let row = newRow()
      let position = int(0...rows.count)
      log("insert \(row) at \(position)")
      send(.insert(row, at: position)) { $0.rows.insert(row, at: position) }
    case 8..<11:
      // Mostly present ids, sometimes absent ones (no warning: it is the parent's own call).
      let id = chance(80) ? (pick(rows.map(\.id)) ?? absentRowID()) : absentRowID()
      log("removeID \(id)")
      send(.removeID(id)) { model in model.rows.removeAll { $0.id == id } }
    case 11..<13:
      guard !rows.isEmpty else { return }
      let offsets = (0..<int(1...3)).map { _ in int(0...(rows.count - 1)) }
      log("removeOffsets \(offsets)")
      send(.removeOffsets(offsets)) { model in
        let set = Set(offsets)
        model.rows = model.rows.enumerated().filter { !set.contains($0.offset) }.map(\.element)
      }
    case 13..<15:
      guard !rows.isEmpty else { return }
      let sources = (0..<int(1...3)).map { _ in int(0...(rows.count - 1)) }
      let destination = int(0...rows.count)
      log("move \(sources) to \(destination)")
      send(.move(sources, to: destination)) { model in
        let moving = Set(sources)
        let moved = moving.sorted().map { model.rows[$0] }
        var result: [SMRow.State] = []
        for position in 0...model.rows.count {
          if position == destination { result += moved }
          if position < model.rows.count, !moving.contains(position) {
            result.append(model.rows[position])
          }
        }
        model.rows = result
      }
    case 15..<16:
      log("sortByTitle")
      send(.sortByTitle) { $0.rows.sort { ($0.title, $0.id) < ($1.title, $1.id) } }
    case 16..<18:
      let list = rowList()
      let inPlace = chance(50)
      log("\(inPlace ? "refreshRows" : "replaceRows") \(list)")
      send(inPlace ? .refreshRows(list) : .replaceRows(list)) { $0.rows = list }
    case 18..<19:
      if chance(40) {
        log("clearRows")
        send(.clearRows) { $0.rows.removeAll() }
      } else if let id = pick(rows.map(\.id)) {
        let row = SMRow.State(id: id, title: title())
        log("removeThenReAdd \(row)")
        harness.send(.removeThenReAdd(row))
        applyReduce { model in model.rows.removeAll { $0.id == id } }
        applyReduce { model in model.rows.append(row) }
      }
    case 19..<34:
      rowAction()
    case 34..<38:
      let row = SMRow.State(id: int(0...50), title: title())
      if chance(70) {
        log("pushRow \(row)")
        send(.pushRow(row)) { $0.push(row, id: $0.nextPathID) }
      } else {
        let id = nextPathID + int(-2...2)
        log("path.push id \(id) \(row)")
        if id >= nextPathID && id >= 0 {
          send(.path(.push(id: StackElementID(rawValue: id), state: row))) {
            $0.push(row, id: id)
          }
        } else {
          send(.path(.push(id: StackElementID(rawValue: id), state: row)), warnings: 1) { _ in }
        }
      }
    case 38..<40:
      log("popLast")
      send(.popLast) { model in
        if !model.path.isEmpty { model.removeScreens(from: model.path.count - 1) }
      }
    case 40..<43:
      if let position = path.indices.randomElement(using: &random), chance(80) {
        let id = path[position].id
        log("path.popFrom #\(id)")
        send(.path(.popFrom(id: StackElementID(rawValue: id)))) {
          $0.removeScreens(from: position)
        }
      } else {
        let id = nextPathID + int(0...3)
        log("path.popFrom missing #\(id)")
        send(.path(.popFrom(id: StackElementID(rawValue: id))), warnings: 1) { _ in }
      }
    case 43..<44:
      log("popToRoot")
      send(.popToRoot) { $0.removeScreens(from: 0) }
    case 44..<46:
      let list = (0..<int(0...3)).map { _ in SMRow.State(id: int(0...50), title: title()) }
      log("setPath \(list)")
      send(.setPath(list)) { model in
        model.removeScreens(from: 0)
        model.nextPathID = 0
        for row in list { model.push(row, id: model.nextPathID) }
      }
    case 46..<48:
      let slot = int(0...1)
      log("savePath \(slot)")
      send(.savePath(slot: slot)) { $0.saved[slot] = ($0.path, $0.nextPathID) }
    case 48..<50:
      let slot = int(0...1)
      log("restorePath \(slot)")
      send(.restorePath(slot: slot)) { model in
        guard let saved = model.saved[slot] else { return }
        // A screen whose id the restored copy gives another push is gone: its effects end
        // with the action (`navigationStack` tells the pushes apart by their tokens).
        let savedBirths = Dictionary(saved.screens.map { ($0.id, $0.birth) }) { a, _ in a }
        for screen in model.path
        where savedBirths[screen.id].map({ $0 != screen.birth }) ?? false {
          model.event("restore gives an id another push")
          let place = Place.screen(birth: screen.birth)
          model.sleepers.removeAll { $0.target == place }
        }
        let births = Set(saved.screens.map(\.birth))
        for screen in model.path where !births.contains(screen.birth) {
          model.valueAtRemoval[.screen(birth: screen.birth)] = screen.row
        }
        model.path = saved.screens
        model.nextPathID = saved.nextID
      }
    case 50..<62:
      screenAction()
    case 62..<66:
      let row: SMRow.State?
      if chance(15) {
        row = nil
      } else if let current = child, chance(30) {
        row = SMRow.State(id: current.id, title: title())  // the same child, new value
      } else {
        row = SMRow.State(id: int(0...8), title: title())
      }
      log("present \(String(describing: row))")
      send(.present(row)) { $0.setChild(row) }
    case 66..<68:
      log("child.dismiss")
      send(.child(.dismiss)) { $0.setChild(nil) }
    case 68..<78:
      childAction()
    case 78..<86:
      let seconds = int(0...3)
      log("advance \(seconds)s")
      await advance(seconds)
    default:
      storeOperation()
    }
  }

  /// A list for replacing the rows: some kept (maybe changed), some reused ids, some new.
  func rowList() -> [SMRow.State] {
    var list: [SMRow.State] = []
    var ids: Set<Int> = []
    for row in rows where chance(60) {
      var row = row
      if chance(30) { row.title = title() }
      list.append(row)
      ids.insert(row.id)
    }
    for _ in 0..<int(0...3) {
      let row = newRow()
      if ids.insert(row.id).inserted { list.append(row) }
    }
    list.shuffle(using: &random)
    return list
  }

  // MARK: Model mutations

  func push(_ row: SMRow.State, id: Int) {
    path.append(Screen(id: id, row: row, birth: nextBirth))
    screenIDs[nextBirth] = id
    nextBirth += 1
    nextPathID = id + 1
  }

  func removeScreens(from position: Int) {
    for screen in path[position...] {
      valueAtRemoval[.screen(birth: screen.birth)] = screen.row
    }
    path.removeSubrange(position...)
  }

  func setChild(_ row: SMRow.State?) {
    if let current = child, row?.id != current.id {
      valueAtRemoval[.child(current.id)] = current
    }
    child = row
  }

  /// The places the model holds now.
  var livePlaces: Set<Place> {
    var places = Set(rows.map { Place.row($0.id) })
    for screen in path { places.insert(.screen(birth: screen.birth)) }
    if let child { places.insert(.child(child.id)) }
    return places
  }

  func value(of place: Place) -> SMRow.State? {
    switch place {
    case .row(let id): rows.first { $0.id == id }
    case .screen(let birth): path.first { $0.birth == birth }?.row
    case .child(let id): child?.id == id ? child : nil
    }
  }

  /// Applies one reducer run to the model: `change`, then the end of the lifetimes of every
  /// place it removed (their sleepers are cancelled).
  func applyReduce(_ change: (ModelRun) -> Void) {
    let rowsBefore = rows
    change(self)
    let present = Set(rows.map(\.id))
    for row in rowsBefore where !present.contains(row.id) {
      valueAtRemoval[.row(row.id)] = row
      recentlyRemoved.append(row.id)
    }
    if recentlyRemoved.count > 16 { recentlyRemoved.removeFirst(recentlyRemoved.count - 16) }
    let live = livePlaces
    sleepers.removeAll { !live.contains($0.target) }
  }

  /// Sends a root action, applying `change` to the model; `warnings` is how many runtime
  /// warnings the action must report.
  func send(
    _ action: SMParent.Action, warnings count: Int = 0, _ change: (ModelRun) -> Void
  ) {
    harness.send(action)
    expectedWarnings += count
    applyReduce(change)
  }

  /// The model's reaction to an element action for `place`, which must be live.
  func elementAction(_ action: SMRow.Action, at place: Place) {
    func mutate(_ body: (inout SMRow.State) -> Void) {
      switch place {
      case .row(let id):
        if let index = rows.firstIndex(where: { $0.id == id }) { body(&rows[index]) }
      case .screen(let birth):
        if let index = path.firstIndex(where: { $0.birth == birth }) { body(&path[index].row) }
      case .child:
        if child != nil { body(&child!) }
      }
    }
    func sleep(_ seconds: Int, _ payload: Payload) {
      sleepers.append(
        Sleeper(deadline: now + seconds, seq: nextSeq, target: place, payload: payload))
      nextSeq += 1
    }
    // A screen's or the child's store's copy is taken again after each step of its reducer:
    // the value after the step, before a dismissal the step asks for.
    var stepValue: SMRow.State?
    defer {
      if case .row = place {
      } else if let value = stepValue ?? value(of: place) {
        valueAfterStep[place] = value
      }
    }
    switch action {
    case .tap: mutate { $0.taps += 1 }
    case .rename(let title): mutate { $0.title = title }
    case .startLoad(let seconds): sleep(seconds, .load)
    case .stopLoads: sleepers.removeAll { $0.target == place && $0.payload == .load }
    case .loaded: mutate { $0.loads += 1 }
    case .close: dismiss(place)
    case .closeLater(let seconds): sleep(seconds, .close)
    case .deleteLater(let seconds): sleep(seconds, .delete)
    case .tapAndDelete:
      mutate { $0.taps += 1 }
      deleteMe(place)
    case .tapAndClose:
      mutate { $0.taps += 1 }
      if case .row = place {} else { stepValue = value(of: place) }
      dismiss(place)
    case .delegate(.deleteMe): deleteMe(place)
    }
  }

  /// What `.dismiss` from `place` does.
  func dismiss(_ place: Place) {
    switch place {
    case .row:
      expectedWarnings += 1  // nobody presents a row
    case .screen(let birth):
      applyReduce { model in
        if let position = model.path.firstIndex(where: { $0.birth == birth }) {
          model.removeScreens(from: position)
        }
      }
    case .child:
      applyReduce { $0.setChild(nil) }
    }
  }

  /// What a row's `.delegate(.deleteMe)` does: the parent removes rows only.
  func deleteMe(_ place: Place) {
    guard case .row(let id) = place else { return }
    applyReduce { model in model.rows.removeAll { $0.id == id } }
  }

  func randomElementAction() -> SMRow.Action {
    switch int(0...99) {
    case 0..<25: .tap
    case 25..<40: .rename(title())
    case 40..<62: .startLoad(int(1...3))
    case 62..<67: .stopLoads
    case 67..<72: .close
    case 72..<80: .closeLater(int(1...3))
    case 80..<88: .deleteLater(int(1...3))
    case 88..<94: .tapAndDelete
    default: .tapAndClose
    }
  }

  func rowAction() {
    if let id = pick(rows.map(\.id)), chance(85) {
      let action = randomElementAction()
      if chance(50) {
        log("row \(id) store.send \(action)")
        let store = rowStore(id)
        check(store != nil, "no store for present row \(id)")
        store?.send(action)
        harness.settle()
      } else {
        log("row \(id) send \(action)")
        harness.send(.rows(.element(id: id, action: action)))
      }
      applyElementAction(action, at: .row(id))
    } else {
      let id = chance(50) ? absentRowID() : 10_000 + int(0...5)
      log("row \(id) (missing) send tap")
      harness.send(.rows(.element(id: id, action: .tap)))
      expectedWarnings += 1
    }
  }

  func screenAction() {
    if let screen = pick(path), chance(85) {
      let action = randomElementAction()
      if chance(50) {
        log("screen #\(screen.id) store.send \(action)")
        let store = screenStore(screen.id)
        check(store != nil, "no store for present screen #\(screen.id)")
        store?.send(action)
        harness.settle()
      } else {
        log("screen #\(screen.id) send \(action)")
        harness.send(.path(.element(id: StackElementID(rawValue: screen.id), action: action)))
      }
      applyElementAction(action, at: .screen(birth: screen.birth))
    } else {
      let id = nextPathID + int(0...3)
      log("screen #\(id) (missing) send tap")
      harness.send(.path(.element(id: StackElementID(rawValue: id), action: .tap)))
      expectedWarnings += 1
    }
  }

  func childAction() {
    if let child, chance(85) {
      let action = randomElementAction()
      if chance(50) {
        log("child \(child.id) store.send \(action)")
        let store = childStore()
        check(store != nil, "no store for the presented child")
        store?.send(action)
        harness.settle()
      } else {
        log("child \(child.id) send \(action)")
        harness.send(.child(.presented(action)))
      }
      applyElementAction(action, at: .child(child.id))
    } else if child == nil {
      log("child (absent) send tap")
      harness.send(.child(.presented(.tap)))
      expectedWarnings += 1
    }
  }

  func applyElementAction(_ action: SMRow.Action, at place: Place) {
    applyReduce { $0.elementAction(action, at: place) }
  }

  /// Advances the clock, waking the model's sleepers in deadline order (ties: sleep order).
  func advance(_ seconds: Int) async {
    let target = now + seconds
    await clock.advance(by: .seconds(seconds))
    while let next = sleepers.filter({ $0.deadline <= target })
      .min(by: { ($0.deadline, $0.seq) < ($1.deadline, $1.seq) })
    {
      sleepers.removeAll { $0.seq == next.seq }
      now = next.deadline
      switch next.payload {
      case .load: applyElementAction(.loaded, at: next.target)
      case .delete: applyElementAction(.delegate(.deleteMe), at: next.target)
      case .close: dismiss(next.target)
      }
      // Each wake is a dispatch of its own: stores follow state dispatch by dispatch.
      updateEpisodes()
    }
    now = target
  }

  // MARK: Stores

  func rowStore(_ id: Int) -> RowStore? {
    recordRow(harness.store.scope(state: SMPaths.rows, action: SMPaths.rowsAction)[id: id], id)
  }

  func screenStore(_ id: Int) -> RowStore? {
    recordScreen(
      harness.store.scope(state: SMPaths.path, action: SMPaths.pathAction)[
        id: StackElementID(rawValue: id)], id)
  }

  /// The last store handed out for each row id and stack id: a removed element's held store
  /// is what a collection listed before the removal hands out for it.
  /// With the episode of the element it was handed out for.
  var lastRowStore: [Int: (box: WeakBox, episode: Int?)] = [:]
  var lastScreenStore: [Int: (box: WeakBox, episode: Int?)] = [:]

  func recordRow(_ store: RowStore?, _ id: Int) -> RowStore? {
    if let store { lastRowStore[id] = (WeakBox(store), episodes[.row(id)]) }
    return store
  }

  func recordScreen(_ store: RowStore?, _ id: Int) -> RowStore? {
    if let store {
      let birth = path.first { $0.id == id }?.birth
      lastScreenStore[id] = (WeakBox(store), birth.flatMap { episodes[.screen(birth: $0)] })
    }
    return store
  }

  /// Notes, in the listings made while it lived, the store an element's episode ended with.
  func endEpisode(_ episode: Int, of place: Place) {
    switch place {
    case .row(let id):
      let last = lastRowStore[id].flatMap { $0.episode == episode ? $0.box : nil }
      for snapshot in rowSnapshots where snapshot.pending.remove(id) != nil {
        snapshot.ended[id] = last
      }
    case .screen(let birth):
      guard let id = screenIDs[birth] else { return }
      let last = lastScreenStore[id].flatMap { $0.episode == episode ? $0.box : nil }
      for snapshot in pathSnapshots where snapshot.pending.remove(id) != nil {
        snapshot.ended[id] = last
      }
    case .child:
      break
    }
  }

  func arm(_ entry: Held) {
    guard let store = entry.store else { return }
    let flag = Flag()
    let value = withObservationTracking {
      store.state
    } onChange: {
      flag.set()
    }
    entry.observed = (flag, value)
  }

  /// Observations of the parent: the rows' ids, the stack's ids, the child's presence.
  var listObserved: (flag: Flag, ids: [Int])?
  var stackObserved: (flag: Flag, ids: [Int])?
  var childObserved: (flag: Flag, id: Int?)?

  func armParentObservations() {
    if listObserved == nil || listObserved!.flag.isSet {
      let flag = Flag()
      let ids = withObservationTracking {
        harness.store.scope(state: SMPaths.rows, action: SMPaths.rowsAction).ids
      } onChange: {
        flag.set()
      }
      listObserved = (flag, ids)
    }
    if stackObserved == nil || stackObserved!.flag.isSet {
      let flag = Flag()
      let ids = withObservationTracking {
        harness.store.scope(state: SMPaths.path, action: SMPaths.pathAction).ids.map(\.rawValue)
      } onChange: {
        flag.set()
      }
      stackObserved = (flag, ids)
    }
    if childObserved == nil || childObserved!.flag.isSet {
      let flag = Flag()
      let id = withObservationTracking {
        harness.store.scope(state: SMPaths.child, action: SMPaths.childAction)?.state.id
      } onChange: {
        flag.set()
      }
      childObserved = (flag, id)
    }
  }

  func childStore() -> RowStore? {
    harness.store.scope(state: SMPaths.child, action: SMPaths.childAction)
  }

  func store(for place: Place) -> RowStore? {
    switch place {
    case .row(let id): rowStore(id)
    case .screen(let birth):
      path.first { $0.birth == birth }.flatMap { screenStore($0.id) }
    case .child: childStore()
    }
  }

  func stackID(of place: Place) -> Int? {
    guard case .screen(let birth) = place else { return nil }
    return path.first { $0.birth == birth }?.id
  }

  func storeOperation() {
    switch int(0...9) {
    case 0, 1, 2:
      // Hold the store of a live place, strongly or only weakly.
      let places =
        rows.map { Place.row($0.id) } + path.map { Place.screen(birth: $0.birth) }
        + (child.map { [Place.child($0.id)] } ?? [])
      guard let place = pick(places),
        let store = store(for: place), let episode = episodes[place]
      else { return }
      let strong = chance(60)
      log("hold \(strong ? "strongly" : "weakly") the store of \(place)")
      let entry = Held(
        place: place, episode: episode, store: store, strong: strong,
        stackID: stackID(of: place))
      held.append(entry)
      arm(entry)
    case 3:
      guard !held.isEmpty else { return }
      let index = int(0...(held.count - 1))
      log("let go of the held store of \(held[index].place)")
      held.remove(at: index)
    case 4, 5:
      // A send through a held store: a live one drives its element, a stale one warns.
      guard let entry = pick(held.filter { $0.store != nil }), let store = entry.store else {
        return
      }
      if episodes[entry.place] == entry.episode {
        let action: SMRow.Action = pick([.tap, .startLoad(int(1...3)), .tapAndDelete, .tapAndClose]
        )!
        let throughPart = chance(30)
        log("held \(throughPart ? "part " : "")store of \(entry.place) (live) send \(action)")
        if throughPart { entry.part?.send(action) } else { store.send(action) }
        harness.settle()
        applyElementAction(action, at: entry.place)
      } else {
        let action: SMRow.Action = pick([.tap, .startLoad(1), .tapAndClose, .tapAndDelete])!
        let throughPart = chance(30)
        log(
          "held \(throughPart ? "part " : "")store of \(entry.place) (stale, episode \(entry.episode)) send \(action)"
        )
        if throughPart { entry.part?.send(action) } else { store.send(action) }
        harness.settle()
        expectedWarnings += 1
      }
    case 6:
      log("snapshot the rows' stores")
      let stores = harness.store.scope(state: SMPaths.rows, action: SMPaths.rowsAction)
      rowSnapshots.append(Snapshot(step: step, stores: stores, ids: stores.ids))
      if rowSnapshots.count > 4 { rowSnapshots.removeFirst() }
    case 7:
      log("snapshot the stack's stores")
      let stores = harness.store.scope(state: SMPaths.path, action: SMPaths.pathAction)
      pathSnapshots.append(Snapshot(step: step, stores: stores, ids: stores.ids.map(\.rawValue)))
      if pathSnapshots.count > 4 { pathSnapshots.removeFirst() }
    default:
      // Read a held store under observation, then nothing: the read must not disturb.
      guard let entry = pick(held.filter { $0.store != nil }) else { return }
      log("read the held store of \(entry.place)")
      _ = entry.store?.state
    }
  }

  // MARK: Checking

  func updateEpisodes() {
    let live = livePlaces
    for place in live where episodes[place] == nil {
      episodes[place] = nextEpisode
      nextEpisode += 1
    }
    for (place, episode) in episodes where !live.contains(place) {
      endEpisode(episode, of: place)
      episodes[place] = nil
      known[place] = nil
    }
    for entry in held where episodes[entry.place] == entry.episode {
      if let value = value(of: entry.place) { entry.lastValue = value }
    }
    // A stale store reads its element as the last dispatch before the removal left it, or, for
    // a screen or the child, as the last step of its own reducer left it (see
    // `aChildThatChangesAndClosesItselfInOneSendIsReadAsItsStoreLastSawIt`).
    for entry in held where episodes[entry.place] != entry.episode && !entry.frozen {
      if let stepped = valueAfterStep[entry.place] {
        if stepped != entry.lastValue { event("changed by its step and removed, store held") }
        entry.lastValue = stepped
      } else if let removed = valueAtRemoval[entry.place], removed != entry.lastValue {
        event("changed and removed in one dispatch, store held")
      }
      entry.frozen = true
    }
    valueAfterStep = [:]
  }

  /// Checks that `store`, handed out now for the live `place`, is the one handed out before
  /// in this episode, and reads the element.
  func checkHandedOut(_ store: RowStore?, for place: Place, _ what: String) {
    guard let episode = episodes[place], let expected = value(of: place) else {
      check(store == nil, "\(what): a store for \(place), which the model does not hold")
      return
    }
    guard let store else {
      fail("\(what): no store for live \(place)")
      return
    }
    if let previous = known[place], previous.episode == episode, let object = previous.box.object {
      check(object === store, "\(what): scoping again gave another store for \(place)")
    }
    known[place] = (episode, WeakBox(store))
    check(
      store.state == expected,
      "\(what): the store of \(place) reads \(store.state), the model has \(expected)")
  }

  func verify() {
    let state = harness.state
    // The root state equals the model.
    check(state.rows.elements == rows, "rows \(state.rows.elements) != model \(rows)")
    check(
      state.path.ids.map(\.rawValue) == path.map(\.id),
      "path ids \(state.path.ids) != model \(path.map(\.id))")
    check(Array(state.path) == path.map(\.row), "path screens \(Array(state.path)) differ")
    check(state.path.nextElementID.rawValue == nextPathID, "next path id")
    check(state.child == child, "child \(String(describing: state.child)) != model")
    check(
      state.savedPaths.mapValues { $0.ids.map(\.rawValue) }
        == saved.mapValues { $0.screens.map(\.id) },
      "saved paths")
    // The model's screens are the real pushes: one birth token per model birth.
    for screen in path {
      guard let birth = state.path.entries[id: StackElementID(rawValue: screen.id)]?.birth
      else { continue }
      if let known = realBirths[screen.birth] {
        check(known == birth, "screen #\(screen.id) has another birth token than modelled")
      } else {
        check(!realBirths.values.contains(birth), "screen #\(screen.id): birth token reused")
        realBirths[screen.birth] = birth
      }
    }

    // Element stores: every live place (or a random part of them) reads its element, and
    // scoping again returns the same store while the place lives.
    let checkAll = chance(20)
    let rowStores = harness.store.scope(state: SMPaths.rows, action: SMPaths.rowsAction)
    check(rowStores.ids == rows.map(\.id), "IdentifiedStores ids \(rowStores.ids)")
    for (position, row) in rows.enumerated() where checkAll || chance(10) {
      let store = recordRow(rowStores[id: row.id], row.id)
      checkHandedOut(store, for: .row(row.id), "rows[id: \(row.id)]")
      if chance(30) {
        check(rowStores[position] === store, "rows[\(position)] !== rows[id: \(row.id)]")
      }
    }
    let rowIDs = Set(rows.map(\.id))
    let stackIDs = Set(path.map(\.id))
    for id in recentlyRemoved + [nextRowID, 10_000] where !rowIDs.contains(id) {
      check(rowStores[id: id] == nil, "a store for absent row \(id)")
    }
    let screenStores = harness.store.scope(state: SMPaths.path, action: SMPaths.pathAction)
    check(screenStores.ids.map(\.rawValue) == path.map(\.id), "stack IdentifiedStores ids")
    for screen in path where checkAll || chance(20) {
      checkHandedOut(
        recordScreen(screenStores[id: StackElementID(rawValue: screen.id)], screen.id),
        for: .screen(birth: screen.birth), "path[id: #\(screen.id)]")
    }
    check(
      screenStores[id: StackElementID(rawValue: nextPathID)] == nil, "a store for an unpushed id")
    if checkAll || chance(30) {
      let store = childStore()
      if let child {
        checkHandedOut(store, for: .child(child.id), "child")
      } else {
        check(store == nil, "a child store while nothing is presented")
      }
    }

    // Held stores: live ones follow their element; stale ones keep the value their element
    // had when it left and are not the store handed out now; weak ones are freed once
    // nothing holds them.
    // A listing holds the stores it handed out while it lives (for a list animating a
    // removal): the snapshots kept are listings too.
    let strongObjects = Set(
      held.compactMap { $0.store.map(ObjectIdentifier.init) }
        + rowSnapshots.flatMap { $0.stores.handedOut.stores.values.map(ObjectIdentifier.init) }
        + pathSnapshots.flatMap { $0.stores.handedOut.stores.values.map(ObjectIdentifier.init) })
    for entry in held {
      let isLive = episodes[entry.place] == entry.episode
      if isLive {
        check(entry.weak != nil, "the store of live \(entry.place) was freed")
        if let (flag, seen) = entry.observed, let value = value(of: entry.place) {
          if value != seen {
            check(flag.isSet, "no notification: \(entry.place) went from \(seen) to \(value)")
          } else {
            check(!flag.isSet, "a notification, but \(entry.place) is still \(seen)")
          }
          if flag.isSet { arm(entry) }
        }
        if let part = entry.part, let value = value(of: entry.place), chance(30) {
          check(part.state == value.title, "part store of live \(entry.place) reads \(part.state)")
        }
        if let store = entry.store, chance(30) {
          if let value = value(of: entry.place) {
            check(
              store.state == value,
              "held store of live \(entry.place) reads \(store.state), model \(value)")
          }
          if chance(20) {
            check(self.store(for: entry.place) === store, "held store of \(entry.place) replaced")
          }
        }
      } else if let store = entry.store, chance(30) {
        if let part = entry.part {
          check(
            part.state == entry.lastValue.title,
            "stale part store of \(entry.place) reads \(part.state), expected \(entry.lastValue.title)"
          )
        }
        check(
          store.state == entry.lastValue,
          """
          stale store of \(entry.place) (episode \(entry.episode)) reads \(store.state), \
          expected its last value \(entry.lastValue)
          """)
        if episodes[entry.place] != nil {
          check(
            self.store(for: entry.place) !== store,
            "the stale store of \(entry.place) is handed out for its new episode")
        }
      } else if let object = entry.weak {
        check(
          strongObjects.contains(ObjectIdentifier(object)),
          "the store of removed \(entry.place) (episode \(entry.episode)) is still alive")
      }
    }
    held.removeAll { $0.store == nil && $0.weak == nil }

    // Snapshots: by id, the store of the element there now, or nil.
    for snapshot in rowSnapshots where chance(15) {
      for id in snapshot.stores.ids {
        let store = recordRow(snapshot.stores[id: id], id)
        if rowIDs.contains(id) {
          check(store === rowStores[id: id], "snapshot of step \(snapshot.step): row \(id)")
        } else {
          check(store == nil, "snapshot of step \(snapshot.step): a store for removed row \(id)")
        }
      }
    }
    for snapshot in pathSnapshots where chance(15) {
      for id in snapshot.stores.ids {
        let store = recordScreen(snapshot.stores[id: id], id.rawValue)
        if stackIDs.contains(id.rawValue) {
          check(store === screenStores[id: id], "snapshot of step \(snapshot.step): \(id)")
        } else {
          check(store == nil, "snapshot of step \(snapshot.step): a store for popped \(id)")
        }
      }
    }

    // By position: the elements as listed, even once others took their ids.
    for snapshot in rowSnapshots where chance(10) {
      for (position, id) in snapshot.stores.ids.enumerated() where chance(50) {
        let label = "snapshot of step \(snapshot.step)[\(position)]"
        if let gave = snapshot.gave[position] {
          check(
            gave.object != nil && snapshot.stores[position] === gave.object,
            "\(label): not the store it gave before for row \(id)")
          continue
        }
        var given: AnyObject?
        if snapshot.pending.contains(id) {
          given = snapshot.stores[position]
          check(given === recordRow(rowStores[id: id], id), "snapshot[\(position)]: row \(id)")
        } else if let object = snapshot.ended[id]??.object {
          // Removed since, and maybe added back as another row: the listed row's store.
          given = snapshot.stores[position]
          check(given === object, "\(label): not the held store of removed row \(id)")
        } else if rowIDs.contains(id) || lastRowStore[id]?.box.object != nil {
          // The listed row's own store is gone: the store of the row with its id now, or
          // another still held for its id, and no trap.
          given = snapshot.stores[position]
        }
        if let given { snapshot.gave[position] = WeakBox(given) }
      }
    }
    for snapshot in pathSnapshots where chance(10) {
      for (position, id) in snapshot.stores.ids.enumerated() where chance(50) {
        let label = "snapshot of step \(snapshot.step)[\(position)]"
        if let gave = snapshot.gave[position] {
          check(
            gave.object != nil && snapshot.stores[position] === gave.object,
            "\(label): not the store it gave before for \(id)")
          continue
        }
        var given: AnyObject?
        if snapshot.pending.contains(id.rawValue) {
          given = snapshot.stores[position]
          check(
            given === recordScreen(screenStores[id: id], id.rawValue),
            "snapshot[\(position)]: \(id)")
        } else if let object = snapshot.ended[id.rawValue]??.object {
          // Popped since, and maybe its id given to another screen: the listed screen's store.
          given = snapshot.stores[position]
          check(given === object, "\(label): not the held store of popped \(id)")
        } else if stackIDs.contains(id.rawValue) || lastScreenStore[id.rawValue]?.box.object != nil
        {
          given = snapshot.stores[position]
        }
        if let given { snapshot.gave[position] = WeakBox(given) }
      }
    }

    // Observers of the parent hear of every change of ids or presence.
    if let (flag, ids) = listObserved, ids != rows.map(\.id) {
      check(flag.isSet, "no notification: row ids went from \(ids) to \(rows.map(\.id))")
    }
    if let (flag, ids) = stackObserved, ids != path.map(\.id) {
      check(flag.isSet, "no notification: stack ids went from \(ids) to \(path.map(\.id))")
    }
    if let (flag, id) = childObserved, id != child?.id {
      check(flag.isSet, "no notification: child went from \(String(describing: id))")
    }
    armParentObservations()

    // Effects: exactly the modelled sleepers run.
    check(
      clock.sleeperCount == sleepers.count,
      "clock has \(clock.sleeperCount) sleepers, model \(sleepers.count): \(sleepers)")
    // A `.concatenate(.run, .dismiss)` runs as two records: the sequence and its task.
    func records(_ sleepers: [Sleeper]) -> Int {
      sleepers.count + sleepers.filter { $0.payload == .close }.count
    }
    let running = harness.core.runtime.runningCount
    check(
      running == records(sleepers), "runtime runs \(running) effects, model \(records(sleepers))")

    // Warnings: exactly the expected ones.
    let count = warnings.all.count
    if count != expectedWarnings {
      let messages = warnings.messages
      fail(
        """
        \(messages.count) warnings, expected \(expectedWarnings); last: \
        \(messages.suffix(3).joined(separator: " | "))
        """)
      expectedWarnings = messages.count
    }
  }
}

// MARK: - Regressions found by the model

/// Minimal reproductions of what the randomized sessions found, each a documented behaviour.
@MainActor
@Suite struct StoreModelRegressionTests {
  func makeHarness(
    rows: [Int] = [], warnings: WarningLog = WarningLog(), clock: TestClock = TestClock()
  ) -> Harness<SMParent> {
    var state = SMParent.State()
    for id in rows { state.rows.append(SMRow.State(id: id, title: "row \(id)")) }
    return Harness(initialState: state, warnings: warnings.handler, reducer: SMParent(clock: clock))
  }

  /// A store kept past its child's removal reads the state as the store last saw it: as it
  /// stood after the last `send` before the one that removed it (what a view last drew), for
  /// a row, which changes and has itself removed (a delegate the parent answers) in one
  /// `send`. A presented child or a stack's screen of the root's state is also seen at each
  /// step of its reducer (see `KeptCopies`): its store reads the tap it made before closing.
  @Test func aChildThatChangesAndClosesItselfInOneSendIsReadAsItsStoreLastSawIt() {
    let harness = makeHarness(rows: [1])
    harness.send(.present(SMRow.State(id: 7, title: "sheet")))
    harness.send(.pushRow(SMRow.State(id: 8, title: "screen")))
    let child = harness.store.scope(state: \.child, action: .smChild)!
    let screen = harness.store.scope(state: \.path, action: .smPath)[id: 0]!
    let row = harness.store.scope(state: \.rows, action: .smRows)[id: 1]!
    #expect(child.state.taps == 0 && screen.state.taps == 0 && row.state.taps == 0)

    child.send(.tapAndClose)  // taps += 1, then `.dismiss` (the `.child(.dismiss)` action)
    screen.send(.tapAndClose)  // taps += 1, then `.dismiss` (the `.path(.popFrom(id: 0))` action)
    row.send(.tapAndDelete)  // taps += 1, then `.delegate(.deleteMe)`; the parent removes it
    harness.settle()
    #expect(harness.state.child == nil && harness.state.path.isEmpty && harness.state.rows.isEmpty)
    #expect(child.state.taps == 1)
    #expect(screen.state.taps == 1)
    #expect(row.state.taps == 0)
  }

  /// A collection listed before a removal hands out the store made for the listed element
  /// while something holds it, even after the id came back and went again with a store of
  /// its own (`ElementStoreCache` kept one retired store per id, the newcomer's, and stopped
  /// the program once that was freed).
  @Test func aListedRowsHeldStoreOutlivesItsIDComingBackAndGoingAgain() {
    var state = SMParent.State()
    state.rows.append(SMRow.State(id: 1, title: "first"))
    let harness = Harness(initialState: state, reducer: SMParent(clock: TestClock()))
    let listed = harness.store.scope(state: \.rows, action: .smRows)
    let held = listed[0]  // a row view holds it, playing the removal animation
    harness.send(.removeID(1))
    harness.send(.append(SMRow.State(id: 1, title: "second")))  // an undo, say
    var second = harness.store.scope(state: \.rows, action: .smRows)[id: 1]
    #expect(second?.state.title == "second")
    harness.send(.removeID(1))
    #expect(listed[0] === held, "the listed element's store, not the newcomer's")
    #expect(held.state.title == "first")
    second = nil  // the newcomer's store goes; the held one is still handed out
    harness.send(.append(SMRow.State(id: 2, title: "other")))  // the ids change: a prune
    #expect(listed[0] === held)
  }

  /// A row removed by one action and added back (same id) by an action fed back in the same
  /// `send` is a new row for effects (the reducers end lifetimes action by action) but the
  /// same row for stores (checked once the `send` is over, when a view can see them): its
  /// store drives the row that came back, without a warning.
  @Test func aRowRemovedAndAddedBackByAFedBackActionKeepsItsStoreButNotItsEffects() {
    let clock = TestClock()
    let warnings = WarningLog()
    let harness = makeHarness(rows: [1], warnings: warnings, clock: clock)
    let old = harness.store.scope(state: \.rows, action: .smRows)[id: 1]!
    old.send(.startLoad(1))
    harness.settle()
    harness.send(.removeThenReAdd(SMRow.State(id: 1, title: "newcomer")))
    #expect(clock.sleeperCount == 0, "the removed row's load ended: it is another row now")
    #expect(harness.store.scope(state: \.rows, action: .smRows)[id: 1] === old)
    old.send(.rename("renamed"))
    harness.settle()
    #expect(harness.state.rows[id: 1]?.title == "renamed")
    #expect(warnings.messages.isEmpty)
  }

  /// A stack set to a copy that gives a screen's id to another push (saved before the push
  /// that runs the effect, after one that was undone): `navigationStack` sees the stack's ids
  /// change without a history it can follow, and ends the effects of the screen whose id now
  /// belongs to another push, in that action, whatever other arrays do.
  @Test func aScreenReplacedByARestoredCopyHasItsEffectEndedByThatAction() async {
    let clock = TestClock()
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings, clock: clock)
    harness.send(.pushRow(SMRow.State(id: 0, title: "bottom")))  // #0
    harness.send(.savePath(slot: 0))  // [#0], next id 1
    harness.send(.pushRow(SMRow.State(id: 1, title: "first")))  // #1, one push
    harness.send(.savePath(slot: 1))  // [#0, #1 first]
    harness.send(.restorePath(slot: 0))  // [#0]
    harness.send(.pushRow(SMRow.State(id: 2, title: "second")))  // #1, another push
    harness.send(.path(.element(id: 1, action: .startLoad(1))))
    harness.send(.restorePath(slot: 1))  // [#0, #1 first]: the second push is gone
    #expect(clock.sleeperCount == 0, "the second push's load ended with the restore")
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path[id: 1]?.loads == 0, "what it sent was dropped")
    #expect(harness.core.runtime.runningCount == 0)
    #expect(warnings.messages.isEmpty)
  }
}
