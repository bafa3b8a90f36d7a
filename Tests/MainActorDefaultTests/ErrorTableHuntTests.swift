import Effects
import Foundation
import Store
import StoreTesting
import Testing

// MainActorByDefault.md's error table, row by row: each form it recommends, compiled in this
// target isolated to the main actor, and run. The failing forms cannot be compiled here; each
// comment names the error its form guards against (each checked with Swift 6.3.1, `swiftc
// -default-isolation MainActor`, with the annotation taken out). Rows that Checklist.swift,
// LibraryFeature.swift and GenericFeatureTests.swift already compile (a reducer, its nested
// types, a `nonisolated extension` of it, case keys, a model type, a recording) are not
// repeated.

/// A fixture read by a stub's `@Sendable` closures. Without `nonisolated`: "main actor-isolated
/// let 'milkID' can not be referenced from a nonisolated context" in a synchronous closure,
/// "cannot be accessed from outside of the actor" in an asynchronous one.
nonisolated let milkID = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!

/// A function of the module a reducer calls. Without `nonisolated`: "call to main
/// actor-isolated global function 'format' in a synchronous nonisolated context".
nonisolated func format(_ title: String) -> String {
  title.trimmingCharacters(in: .whitespaces).capitalized
}

/// A client that declares its own initializer and keeps `static` values. Without `nonisolated`:
/// "call to main actor-isolated initializer 'init(load:)' in a synchronous nonisolated context"
/// where a reducer or a nonisolated test makes one, "main actor-isolated static property 'live'
/// can not be referenced from a nonisolated context" where one reads `live`, and "main
/// actor-isolated default value in a nonisolated context" at `Cover`'s `= .live` below.
nonisolated struct CoverClient: Sendable {
  var load: @Sendable (UUID) async throws -> Data

  init(load: @escaping @Sendable (UUID) async throws -> Data) {
    self.load = load
  }

  static let live = CoverClient { _ in Data("live".utf8) }
  static let test = CoverClient { id in id == milkID ? Data("milk".utf8) : Data() }
}

/// A reducer that calls the module's function, makes and keeps the client, and loads through it.
nonisolated struct Cover: Reducer {
  struct State: Equatable {
    var itemID: UUID
    var title = ""
    var size = 0
  }

  enum Action: Sendable, Equatable {
    case titleChanged(String)
    case loadTapped
    case loaded(Int)
  }

  let client: CoverClient

  init(client: CoverClient = .live) {
    self.client = client
  }

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .titleChanged(let title):
      state.title = format(title)
      return .none
    case .loadTapped:
      return .run { [id = state.itemID, client] send in
        send(.loaded(try await client.load(id).count))
      } catch: { _ in
        .loaded(-1)
      }
    case .loaded(let size):
      state.size = size
      return .none
    }
  }
}

/// What a `RuntimeWarningHandler` reports, collected from any thread. The article's form guards
/// its list with a `Mutex`; the package's tests take `Locked` instead (CodeRuleTests), the same
/// shape. Without `nonisolated`, the methods are isolated to the main actor: "call to main
/// actor-isolated instance method 'append' in a synchronous nonisolated context" in the
/// handler. Without `Sendable`: "capture of 'warnings' with non-Sendable type
/// 'WarningCollector' in a '@Sendable' closure".
nonisolated final class WarningCollector: Sendable {
  private let list = Locked<[RuntimeWarning]>([])

  /// A handler that adds each warning to the list.
  var handler: RuntimeWarningHandler {
    RuntimeWarningHandler { self.append($0) }
  }

  func append(_ warning: RuntimeWarning) {
    list.withLock { $0.append(warning) }
  }

  var messages: [String] {
    list.withLock { $0.map(\.message) }
  }
}

/// The stub made from nonisolated code, as a test helper or a preview writes one.
nonisolated func makeStubCoverClient() -> CoverClient {
  CoverClient { id in id == milkID ? Data("oat".utf8) : Data() }
}

@Suite struct ErrorTableHuntTests {
  @Test func aReducerCallsTheModulesFunctionAndLoadsThroughItsClient() async {
    let store = TestStoreOf<Cover>(initialState: Cover.State(itemID: milkID)) {
      Cover(client: .test)
    }
    await store.send(.titleChanged("  oat milk ")) { $0.title = "Oat Milk" }
    await store.send(.loadTapped)
    await store.receive(.loaded(4)) { $0.size = 4 }
    await store.finish()
  }

  @Test func theClientsDefaultAndItsStubAreMadeAwayFromTheMainActor() async throws {
    let live = await Task.detached { Cover().client }.value
    #expect(try await live.load(milkID) == Data("live".utf8))
    let stub = await Task.detached { makeStubCoverClient() }.value
    #expect(try await stub.load(milkID) == Data("oat".utf8))
    #expect(try await stub.load(UUID()) == Data())
  }

  @Test func aCollectorFilledByAWarningHandlerListsAStoresWarnings() {
    let warnings = WarningCollector()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Checklist.State(items: [Item.State(id: 1, title: "Milk")])) {
        Checklist(clock: TestClock())
      }
    }
    let item = store.scope(state: \.items, action: .items)[id: 1]!
    store.send(.removeTapped(id: 1))
    #expect(warnings.messages.isEmpty)
    item.send(.titleChanged("Oat milk"))  // a removed row's store: ignored, with a warning
    #expect(warnings.messages.count == 1)
    #expect(store.items.isEmpty)
  }
}
