import Effects
import Observation
import Testing

@testable import Store

/// A send to a store whose child, row or screen is gone, made by an observer told of the
/// change right after it queued an action that brings a newcomer back in its place (the
/// scoping hunt): the root queues both, and the store's send found its state only absent,
/// so the action went to the parent and, reduced after the newcomer came, drove it. Each
/// queued send is looked at again just before it is reduced: it is ignored with a warning,
/// as the same two sends are outside an observer.
@MainActor
@Suite struct QueuedStaleSendTests {
  /// Runs `answer` once, in the `onChange` of an observer of what `read` reads.
  func onFirstChange(
    of read: @escaping @MainActor () -> Void, _ answer: @escaping @MainActor () -> Void
  ) -> () -> Bool {
    var answered = false
    withObservationTracking(read) {
      MainActor.assumeIsolated {
        guard !answered else { return }
        answered = true
        answer()
      }
    }
    return { answered }
  }

  @Test func aRemovedRowsStoreDoesNotDriveTheRowAddedBackBeforeItsSend() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let removed = try! #require(rows[id: 1])
    _ = removed.title
    let answered = onFirstChange(of: { _ = h.store.scope(state: \.rows, action: .probeRows).ids }) {
      h.store.send(.mutate { $0.rows.insert(ProbeRow.State(id: 1, title: "newcomer"), at: 0) })
      removed.send(.rename("sent to the removed row's store"))
    }
    h.send(.mutate { _ = $0.rows.remove(id: 1) })
    #expect(answered())
    #expect(h.state.rows[id: 1]?.title == "newcomer")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  @Test func aDismissedChildsStoreDoesNotDriveTheChildPresentedBeforeItsSend() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    h.send(.mutate { $0.child = ProbeChild.State(value: 0) })
    let dismissed = try! #require(h.store.scope(state: \.child, action: .probeChild))
    _ = dismissed.value
    let answered = onFirstChange(of: { _ = h.store.scope(state: \.child, action: .probeChild) }) {
      h.store.send(.mutate { $0.child = ProbeChild.State(value: 100) })
      dismissed.send(.inc)
    }
    h.send(.mutate { $0.child = nil })
    #expect(answered())
    #expect(h.state.child?.value == 100)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  @Test func aPoppedScreensStoreDoesNotDriveTheScreenOfANewStackWithItsID() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    h.send(.mutate { $0.path.append(ProbeRow.State(id: 1, title: "first")) })
    let id = try! #require(h.state.path.ids.first)
    let popped = try! #require(h.store.scope(state: \.path, action: .probePath)[id: id])
    _ = popped.title
    let answered = onFirstChange(of: { _ = h.store.scope(state: \.path, action: .probePath).ids }) {
      // A new stack numbers its screens from 0 again: its first has the popped one's id.
      h.store.send(.mutate { $0.path = StackState([ProbeRow.State(id: 2, title: "newcomer")]) })
      popped.send(.rename("sent to the popped screen's store"))
    }
    h.send(.mutate { _ = $0.path.popLast() })
    #expect(answered())
    #expect(h.state.path[id: id]?.title == "newcomer")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  /// A dismissal, a new presentation and the send, all queued by one observer: the store's
  /// hook sees the child gone between the first two, as it does outside an observer (the
  /// review: the send drove the new child).
  @Test func aDismissalAPresentationAndTheSendInOneObserverDoNotDriveTheNewChild() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    h.send(.mutate { $0.child = ProbeChild.State(value: 0) })
    let first = try! #require(h.store.scope(state: \.child, action: .probeChild))
    _ = first.value
    let answered = onFirstChange(of: { _ = h.store.state.title }) {
      h.store.send(.mutate { $0.child = nil })
      h.store.send(.mutate { $0.child = ProbeChild.State(value: 100) })
      first.send(.inc)
    }
    h.send(.mutate { $0.title = "changed" })
    #expect(answered())
    #expect(h.state.child?.value == 100)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  /// A store scoped from a derived store (a row's detail) sends through its parent's: both
  /// checks are asked, the detail's first (the review: the row's replaced the detail's).
  @Test func aDismissedDetailOfARowDoesNotDriveTheDetailPresentedBeforeItsSend() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    h.send(.mutate { $0.rows[id: 1]?.detail = ProbeDetail.State(note: "old") })
    let row = try! #require(h.store.scope(state: \.rows, action: .probeRows)[id: 1])
    let dismissed = try! #require(row.scope(state: \.detail, action: .probeDetail))
    _ = dismissed.note
    let answered = onFirstChange(of: { _ = row.scope(state: \.detail, action: .probeDetail) }) {
      h.store.send(.mutate { $0.rows[id: 1]?.detail = ProbeDetail.State(note: "newcomer") })
      dismissed.send(.note("sent to the dismissed detail's store"))
    }
    h.send(.mutate { $0.rows[id: 1]?.detail = nil })
    #expect(answered())
    #expect(h.state.rows[id: 1]?.detail?.note == "newcomer")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  /// The check drops only what was taken over: a live row's store, and a removed row's
  /// store whose row nothing replaced (its action reaches the parent, which reports the
  /// missing row as before), are queued and reduced as ever.
  @Test func queuedSendsOfOtherStoresAreReducedAsBefore() {
    let warnings = WarningLog()
    let h = probeHarness(warnings: warnings)
    let rows = h.store.scope(state: \.rows, action: .probeRows)
    let (live, removed) = (try! #require(rows[id: 2]), try! #require(rows[id: 1]))
    _ = (live.title, removed.title)
    let answered = onFirstChange(of: { _ = h.store.scope(state: \.rows, action: .probeRows).ids }) {
      live.send(.rename("renamed from an observer"))
      removed.send(.rename("too late"))
    }
    h.send(.mutate { _ = $0.rows.remove(id: 1) })
    #expect(answered())
    #expect(h.state.rows.map(\.title) == ["renamed from an observer", "r3"])
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == false)
  }
}

/// The hooks that run between an observer's queued sends when one of them is a derived
/// store's keep the order and the bounds the same sends have elsewhere (the second review):
/// each action with its feedback before the next, what those rounds send checked the same
/// way, and a loop reported after as many rounds as any other.
@MainActor
@Suite struct QueuedStaleSendRoundTests {
  /// Sends `other.send(.inc); send(.a); send(.b)`, from an observer of the title or not, with
  /// an observer of `other` that sends `.c` once: the log the reducer kept.
  func log(fromAnObserver: Bool) -> [String] {
    let h = Harness(initialState: Mix.State(), reducer: Mix())
    let other = try! #require(h.store.scope(state: \.other, action: .mixOther))
    _ = other.value
    var reacted = false
    let watchingOther = Rewatcher(read: { _ = other.value }) {
      if !reacted {
        reacted = true
        h.store.send(.c)
      }
    }
    func sends() {
      other.send(.inc)
      h.store.send(.a)
      h.store.send(.b)
    }
    var sent = false
    let watchingTitle = Rewatcher(read: { _ = h.store.title }) {
      guard fromAnObserver, !sent else { return }
      sent = true
      sends()
    }
    if fromAnObserver { h.store.send(.trigger) } else { sends() }
    withExtendedLifetime((watchingOther, watchingTitle)) {}
    return h.state.log
  }

  @Test func anObserversSendsAreReducedInTheOrderTheyHaveElsewhereWithTheirFeedback() {
    #expect(log(fromAnObserver: false) == ["other", "c", "cFollow", "a", "aFollow", "b"])
    #expect(log(fromAnObserver: true) == log(fromAnObserver: false))
  }

  /// The dismissal, presentation and stale send, made by an observer told in a round that
  /// runs between another observer's sends.
  @Test func aStaleSendFromAnObserverToldBetweenQueuedSendsIsIgnored() {
    let warnings = WarningLog()
    let h = Harness(initialState: Mix.State(), warnings: warnings.handler, reducer: Mix())
    h.send(.mutate { $0.child = MixLeaf.State(value: 0) })
    let first = try! #require(h.store.scope(state: \.child, action: .mixChild))
    let other = try! #require(h.store.scope(state: \.other, action: .mixOther))
    _ = (first.value, other.value)
    var replaced = false
    let watchingFlag = Rewatcher(read: { _ = h.store.flag }) {
      guard !replaced else { return }
      replaced = true
      h.store.send(.mutate { $0.child = nil })
      h.store.send(.mutate { $0.child = MixLeaf.State(value: 100) })
      first.send(.inc)
    }
    var bumped = false
    let watchingTitle = Rewatcher(read: { _ = h.store.title }) {
      guard !bumped else { return }
      bumped = true
      h.store.send(.bumpFlag)
      other.send(.inc)
    }
    h.send(.trigger)
    withExtendedLifetime((watchingFlag, watchingTitle)) {}
    #expect(h.state.child?.value == 100)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
  }

  /// An observer that sends a root action and eight through a scoped store at every change:
  /// told 1,000 times, and reported once, as one that sends root actions alone.
  @Test func aLoopWithDerivedSendsIsReportedAfterAsManyRounds() {
    let warnings = WarningLog()
    let h = Harness(initialState: Mix.State(), warnings: warnings.handler, reducer: Mix())
    let other = try! #require(h.store.scope(state: \.other, action: .mixOther))
    _ = other.value
    var told = 0
    let watcher = Rewatcher(read: { _ = h.store.title }) {
      told += 1
      h.store.send(.trigger)
      for _ in 0..<8 { other.send(.inc) }
    }
    h.send(.trigger)
    withExtendedLifetime(watcher) {}
    #expect(told == 1_000)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("a feedback loop") == true)
    #expect(h.state.title.count == told + 1, "no action lost")
    #expect(h.state.other?.value == told * 8)
  }

  /// What a round between the sends sends is a batch of its own, reduced whole before the
  /// next send, as outside an observer, where it is reduced before the next send is made;
  /// then a round runs again (the second review: a third observer's answer came between the
  /// second one's two actions).
  @Test func whatARoundBetweenTheSendsSendsIsReducedAsItIsElsewhere() {
    func log(fromAnObserver: Bool) -> [String] {
      let h = Harness(initialState: Mix.State(), reducer: Mix())
      let other = try! #require(h.store.scope(state: \.other, action: .mixOther))
      _ = other.value
      var second = false
      let watchingOther = Rewatcher(read: { _ = other.value }) {
        guard !second else { return }
        second = true
        h.store.send(.named("c", flagging: true))
        h.store.send(.named("d"))
      }
      var third = false
      let watchingFlag = Rewatcher(read: { _ = h.store.flag }) {
        guard !third else { return }
        third = true
        h.store.send(.named("e"))
      }
      func sends() {
        other.send(.inc)
        h.store.send(.named("b"))
      }
      var first = false
      let watchingTitle = Rewatcher(read: { _ = h.store.title }) {
        guard fromAnObserver, !first else { return }
        first = true
        sends()
      }
      if fromAnObserver { h.store.send(.trigger) } else { sends() }
      withExtendedLifetime((watchingOther, watchingFlag, watchingTitle)) {}
      return h.state.log
    }
    #expect(log(fromAnObserver: false) == ["other", "c", "d", "e", "b"])
    #expect(log(fromAnObserver: true) == log(fromAnObserver: false))
  }

  /// An observer that answers each of 1,500 sends through a scoped store once is no loop:
  /// the limit is on how deep answers to answers go, as for sends outside an observer (the
  /// second review: counted across the batch, it was reported as one, and the observer kept
  /// a value the state no longer held).
  @Test func anObserverAnsweringEachOfManySendsIsNoLoop() {
    let warnings = WarningLog()
    let h = Harness(initialState: Mix.State(), warnings: warnings.handler, reducer: Mix())
    let other = try! #require(h.store.scope(state: \.other, action: .mixOther))
    _ = other.value
    var answered = 0
    var lastSeen = 0
    let answering = Rewatcher(read: { lastSeen = other.value }) {
      answered += 1
      h.store.send(.b)
    }
    var sent = false
    let sending = Rewatcher(read: { _ = h.store.title }) {
      guard !sent else { return }
      sent = true
      for _ in 0..<1_500 { other.send(.inc) }
    }
    h.send(.trigger)
    withExtendedLifetime((answering, sending)) {}
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(answered == 1_500)
    #expect(lastSeen == 1_500)
    #expect(h.state.log.count == 3_000)
  }

  /// One observer's thousand sends, one of them through a scoped store, are no loop.
  @Test func manySendsFromOneObserverAreNotALoop() {
    let warnings = WarningLog()
    let h = Harness(initialState: Mix.State(), warnings: warnings.handler, reducer: Mix())
    let other = try! #require(h.store.scope(state: \.other, action: .mixOther))
    _ = other.value
    var sent = false
    let watcher = Rewatcher(read: { _ = h.store.title }) {
      guard !sent else { return }
      sent = true
      other.send(.inc)
      for _ in 0..<1_500 { h.store.send(.b) }
    }
    h.send(.trigger)
    withExtendedLifetime(watcher) {}
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(h.state.log.count == 1_501)
  }
}

private struct MixLeaf: Reducer {
  struct State: Equatable, Sendable { var value = 0 }
  enum Action: Sendable { case inc }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.value += 1
    return .none
  }
}

/// Actions whose order shows in a log (`a` and `c` feed back), an optional child, and an
/// optional `other` that starts present.
private struct Mix: Reducer {
  struct State: Equatable {
    var title = ""
    var flag = 0
    var log: [String] = []
    var child: MixLeaf.State?
    var other: MixLeaf.State? = MixLeaf.State()
  }
  enum Action: Sendable {
    case trigger, a, aFollow, b, c, cFollow, bumpFlag
    /// Logs the name; `flagging` also bumps the flag.
    case named(String, flagging: Bool = false)
    case mutate(@Sendable (inout State) -> Void)
    case child(MixLeaf.Action)
    case other(MixLeaf.Action)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .trigger: state.title += "t"
      case .a:
        state.log.append("a")
        return .send(.aFollow)
      case .aFollow: state.log.append("aFollow")
      case .b: state.log.append("b")
      case .c:
        state.log.append("c")
        return .send(.cFollow)
      case .cFollow: state.log.append("cFollow")
      case .bumpFlag: state.flag += 1
      case .named(let name, let flagging):
        state.log.append(name)
        if flagging { state.flag += 1 }
      case .mutate(let change): change(&state)
      case .child: state.log.append("child")
      case .other: state.log.append("other")
      }
      return .none
    }
    .ifLet(\.child, action: .mixChild) { MixLeaf() }
    .ifLet(\.other, action: .mixOther) { MixLeaf() }
  }
}

extension CaseKey<Mix.Action, MixLeaf.Action> {
  fileprivate static var mixChild: Self {
    Self(Mix.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
  fileprivate static var mixOther: Self {
    Self(Mix.Action.other) { if case .other(let a) = $0 { a } else { nil } }
  }
}
