import Effects
import Store
import StoreTesting
import Testing

// The claims of Store.docc/ScreenLifecycle.md's "Test the lifecycle": the table of how each
// driver action changes `ScreenLifecycleState`, its background snippet as written, and a live
// store's `send(...).finish()` waiting for a focus hook's work. `GuideLC.Profile` is the
// article's feature, copied from "Add the lifecycle to a feature".

enum GuideLC {
  struct Profile: Reducer {
    struct State: Equatable {
      var lifecycle = ScreenLifecycleState()
      var name: String?
      var status = ""
    }

    enum Action: Sendable, Equatable {
      case lifecycle(ScreenLifecycleAction)
      case loaded(String)
      case statusChanged(String)
    }

    let load: @Sendable () async throws -> String
    let statuses: @Sendable () -> AsyncStream<String>

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .lifecycle(.startup), .lifecycle(.regainedFocus):
          return .run { send in send(.loaded(try await load())) }
        case .lifecycle(.subscribe):
          return .run { send in
            for await status in statuses() { send(.statusChanged(status)) }
          }
        case .lifecycle:
          return .none
        case .loaded(let name):
          state.name = name
          return .none
        case .statusChanged(let status):
          state.status = status
          return .none
        }
      }
      .screenLifecycle(\.lifecycle, action: .lifecycle)
    }
  }

  /// A screen whose `lostFocus` hook saves a draft through an actor: work a live store's
  /// `finish()` must wait for.
  struct Draft: Reducer {
    struct State: Equatable {
      var lifecycle = ScreenLifecycleState()
      var savedCount = 0
    }

    enum Action: Sendable, Equatable {
      case lifecycle(ScreenLifecycleAction)
      case saved
    }

    let disk: Disk

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .lifecycle(.lostFocus):
          return .run { [disk] send in
            await disk.write()
            send(.saved)
          }
        case .lifecycle:
          return .none
        case .saved:
          state.savedCount += 1
          return .none
        }
      }
      .screenLifecycle(\.lifecycle, action: .lifecycle)
    }
  }

  actor Disk {
    private(set) var writes = 0
    func write() async {
      // A few suspensions, as real I/O would have.
      for _ in 0..<10 { await Task.yield() }
      writes += 1
    }
  }
}

/// A draft screen whose startup gives it its server id, which the article says not to do.
struct IDChangingDraft: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var lifecycle = ScreenLifecycleState()
    var startupCount = 0
  }
  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case idAssigned(Int)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .lifecycle(.startup):
        state.startupCount += 1
        return .send(.idAssigned(state.id + 100))
      case .lifecycle:
        return .none
      case .idAssigned(let id):
        state.id = id
        return .none
      }
    }
    .screenLifecycle(\.lifecycle, action: .lifecycle)
  }
}

struct IDChangingDraftHost: Reducer {
  struct State: Equatable, Sendable { var draft: IDChangingDraft.State? }
  enum Action: Sendable, Equatable { case draft(PresentationAction<IDChangingDraft.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().presents(\.draft, action: .draft) { IDChangingDraft() }
  }
}

extension CaseKey<IDChangingDraft.Action, ScreenLifecycleAction> {
  fileprivate static var lifecycle: Self {
    Self(IDChangingDraft.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<IDChangingDraftHost.Action, PresentationAction<IDChangingDraft.Action>> {
  fileprivate static var draft: Self {
    Self(IDChangingDraftHost.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<GuideLC.Profile.Action, ScreenLifecycleAction> {
  fileprivate static var lifecycle: Self {
    Self(GuideLC.Profile.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<GuideLC.Draft.Action, ScreenLifecycleAction> {
  fileprivate static var lifecycle: Self {
    Self(GuideLC.Draft.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct LifecycleGuideTests {
  let statuses = AsyncStream.makeStream(of: String.self)

  func makeStore() -> TestStore<GuideLC.Profile.State, GuideLC.Profile.Action> {
    let stream = statuses.stream
    return TestStore(initialState: GuideLC.Profile.State()) {
      GuideLC.Profile(load: { "Ada" }, statuses: { stream })
    }
  }

  /// Runs the article's first snippet: started, loaded, focused, subscribed.
  func start(_ store: TestStore<GuideLC.Profile.State, GuideLC.Profile.Action>) async {
    await store.send(.lifecycle(.taskStarted)) {
      $0.lifecycle.isTaskRunning = true
      $0.lifecycle.hasStarted = true
      $0.lifecycle.isFocused = true
      $0.lifecycle.hasGainedFocus = true
      $0.lifecycle.runningHook = .startup
      $0.lifecycle.pendingHooks = [.firstFocus, .subscribe]
    }
    await store.receive(.lifecycle(.startup))
    await store.receive(.loaded("Ada")) { $0.name = "Ada" }
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = .firstFocus
      $0.lifecycle.pendingHooks = [.subscribe]
    }
    // The table's `hookFinished` row: the queued `subscribe` is sent and leaves the queue.
    await store.receive(.lifecycle(.firstFocus))
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = nil
      $0.lifecycle.pendingHooks = []
    }
    await store.receive(.lifecycle(.subscribe))
  }

  @Test func theBackgroundSnippetAndTheTaskEndedRowHoldAsWritten() async {
    let store = makeStore()
    await start(store)
    await store.send(.lifecycle(.scenePhaseChanged(.background))) {
      $0.lifecycle.scenePhase = .background
      $0.lifecycle.isFocused = false
      $0.lifecycle.runningHook = .lostFocus
    }
    await store.receive(.lifecycle(.lostFocus))
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = nil
    }
    // Back to the front: the regained focus sets `isFocused`, not `hasGainedFocus` again.
    await store.send(.lifecycle(.scenePhaseChanged(.active))) {
      $0.lifecycle.scenePhase = .active
      $0.lifecycle.isFocused = true
      $0.lifecycle.runningHook = .regainedFocus
    }
    await store.receive(.lifecycle(.regainedFocus))
    await store.receive(.loaded("Ada"))
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = nil
    }
    await store.send(.lifecycle(.taskEnded)) {
      $0.lifecycle.isTaskRunning = false
      $0.lifecycle.isFocused = false
    }
    await store.receive(.lifecycle(.teardown))
  }

  @Test func aTaskEndedWhileStartupRunsSetsHasStartedBackSoTheNextStartRunsIt() async {
    let store = TestStore(initialState: GuideLC.Profile.State()) {
      GuideLC.Profile(
        load: { [never = statuses.stream] in
          // A load that never finishes before the task ends: the stream yields nothing, and
          // its loop ends when the hook's work is cancelled.
          for await _ in never {}
          throw CancellationError()
        },
        statuses: { AsyncStream { $0.finish() } })
    }
    await store.send(.lifecycle(.taskStarted)) {
      $0.lifecycle.isTaskRunning = true
      $0.lifecycle.hasStarted = true
      $0.lifecycle.isFocused = true
      $0.lifecycle.hasGainedFocus = true
      $0.lifecycle.runningHook = .startup
      $0.lifecycle.pendingHooks = [.firstFocus, .subscribe]
    }
    await store.receive(.lifecycle(.startup))
    await store.send(.lifecycle(.taskEnded)) {
      $0.lifecycle.isTaskRunning = false
      $0.lifecycle.isFocused = false
      $0.lifecycle.pendingHooks = []
      $0.lifecycle.runningHook = nil
      $0.lifecycle.hasStarted = false
      $0.lifecycle.hasGainedFocus = false
    }
    await store.receive(.lifecycle(.teardown))
  }

  // TestingFeatures.md, "Test only the outcome": turning exhaustivity back on after a
  // non-exhaustive setup.
  @Test func exhaustivityTurnedBackOnChecksWhatTheSetupFedBackUnlessSkipped() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.lifecycle(.taskStarted))
    store.exhaustivity = .on
    await withKnownIssue {
      await store.send(.statusChanged("busy")) { $0.status = "busy" }
    } matching: {
      "\($0)".contains("Must assert received actions before sending")
        && "\($0)".contains(".lifecycle(.startup)")
    }

    let skipping = makeStore()
    skipping.exhaustivity = .off
    await skipping.send(.lifecycle(.taskStarted))
    skipping.exhaustivity = .on
    skipping.skipReceivedActions()
    await skipping.send(.statusChanged("busy")) { $0.status = "busy" }
    // Still exhaustive: a step that changes what its closure does not say fails.
    await withKnownIssue {
      await skipping.send(.statusChanged("away"))
    } matching: {
      "\($0)".contains("but no assertion closure was given")
        && "\($0)".contains("+   status: \"away\"")
    }
    await skipping.send(.lifecycle(.taskEnded)) {
      $0.lifecycle.isTaskRunning = false
      $0.lifecycle.isFocused = false
    }
    await skipping.receive(.lifecycle(.teardown))
    await store.skipInFlightEffects()
  }

  // ScreenLifecycle.md: a screen that changes its own id is a new child, whose running hook's
  // work ended: the state still says the hook runs, and the next start runs it again.
  @Test func aScreenThatChangesItsOwnIDIsANewScreenToItsLifecycle() async {
    let store = TestStore(initialState: IDChangingDraftHost.State(draft: .init(id: 1))) {
      IDChangingDraftHost()
    }
    store.exhaustivity = .off
    await store.send(.draft(.presented(.lifecycle(.taskStarted))))
    await store.finish()
    #expect(store.state.draft?.id == 101)
    #expect(store.state.draft?.lifecycle.runningHook == .startup)
    #expect(store.state.draft?.lifecycle.pendingHooks == [.firstFocus, .subscribe])
    await store.send(.draft(.presented(.lifecycle(.taskEnded))))
    await store.send(.draft(.presented(.lifecycle(.taskStarted))))
    await store.finish()
    #expect(store.state.draft?.startupCount == 2)
  }

  @Test func aLiveStoresPhaseSendFinishesWithItsFocusHooksWork() async {
    let disk = GuideLC.Disk()
    let store = Store(initialState: GuideLC.Draft.State()) { GuideLC.Draft(disk: disk) }
    let screen = store.send(.lifecycle(.taskStarted))
    await store.send(.lifecycle(.scenePhaseChanged(.background))).finish()
    #expect(await disk.writes == 1)
    #expect(store.savedCount == 1)
    #expect(store.lifecycle.runningHook == nil)
    #expect(store.lifecycle.isFocused == false)
    screen.cancel()
  }
}
