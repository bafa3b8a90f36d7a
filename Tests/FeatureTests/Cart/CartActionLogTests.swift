import CartFeature
import Effects
import Foundation
import Observation
import Store
import Testing

/// A recorded cart session replays to the same state, with no generator or service of its
/// own: every id and every answer is in the log.
@MainActor
@Suite struct CartActionLogTests {
  @Test func aSessionRecordedWithRandomIDsReplaysWithoutThem() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("cart-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }

    let store = Store(initialState: Cart.State.teaAndMilk) {
      Cart(checkout: .succeeding(receiptID: UUID()), makeID: .live, clock: ContinuousClock())
    }
    let recorder = try store.recordActions(to: path, feature: "Cart", checkpointInterval: 4)
    store.send(.addItemTapped(name: "Bread"))
    let bread = try #require(store.items.last?.id)
    store.send(.items(.element(id: bread, action: .quantityStepped(by: 1))))
    store.send(.rowTapped(bread))
    store.send(.items(.element(id: bread, action: .noteChanged("sliced"))))
    store.send(.editTitleTapped)
    store.send(.titleEditor(.presented(.draftChanged("Weekend"))))
    store.send(.titleEditor(.presented(.saveTapped)))
    store.send(.items(.element(id: CartItem.milk.id, action: .removeTapped)))
    // The request is the cart's own (`outlivingSendersTask()`): the handle `send` returns
    // does not wait for it. The answer is what clears `isCheckingOut`.
    store.send(.checkoutTapped)
    await withCheckedContinuation { answered in
      withObservationTracking {
        _ = store.isCheckingOut
      } onChange: {
        answered.resume()
      }
    }
    try recorder.finish()

    // Replay mints different ids and has no service: neither is consulted.
    let replayer = ActionLogReplayer(feature: "Cart") {
      Cart(checkout: .unimplemented, makeID: .incrementing(), clock: TestClock())
    }
    let report = try replayer.replay(path: path)
    #expect(report.isComplete)
    #expect(report.warnings.isEmpty)
    #expect(report.checkpointsVerified >= 3)
    #expect(report.finalState == store.state)
    #expect(report.finalState.items.isEmpty)
    #expect(report.finalState.title == "Weekend")
  }

  /// An added item outside the cart's range, which the cart ignores live, is in the log as
  /// it came and is ignored by the replay too. It decoded as a cart item, which refused such a
  /// quantity, so the replay stopped at that line: "Quantity 0 is outside 1...99."
  @Test func anAddedItemOutsideTheRangeReplaysAsIgnored() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("cart-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = Store(initialState: Cart.State.teaAndMilk) {
      Cart(checkout: .unimplemented, makeID: .incrementing(), clock: TestClock())
    }
    let recorder = try store.recordActions(to: path, feature: "Cart", checkpointInterval: 1)
    for quantity in [0, 100, -1] {
      store.send(
        .itemAdded(CartItem(id: UUID(counting: 50 + quantity), name: "Jam", quantity: quantity)))
    }
    store.send(.itemAdded(CartItem(id: UUID(counting: 60), name: "Jam", quantity: 2)))
    try recorder.finish()
    #expect(store.items.map(\.name) == ["Tea", "Milk", "Jam"])

    let replayer = ActionLogReplayer(feature: "Cart") {
      Cart(checkout: .unimplemented, makeID: .incrementing(), clock: TestClock())
    }
    let report = try replayer.replay(path: path)
    #expect(report.isComplete)
    #expect(report.warnings.isEmpty)
    #expect(report.actionCount == 4)
    #expect(report.finalState == store.state)
  }

  /// A receipt whose lines are outside the cart's range (no units, more than an item holds),
  /// which the cart handles live, is in the log as it came, and replays to the same state. A
  /// receipt's lines decoded as cart items, refusing such a quantity, so the log stopped at
  /// that line: "Quantity 0 is outside 1...99."
  @Test func aReceiptWithLinesOutsideTheRangeReplays() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("cart-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let receipt = Receipt(
      id: UUID(counting: 9),
      items: [
        CartItem(id: CartItem.tea.id, name: "Tea", quantity: 0),
        CartItem(id: CartItem.milk.id, name: "Milk", quantity: 150),
      ])

    let store = Store(initialState: Cart.State.teaAndMilk) {
      Cart(
        checkout: CheckoutClient { _, _ in receipt }, makeID: .incrementing(), clock: TestClock())
    }
    let recorder = try store.recordActions(to: path, feature: "Cart", checkpointInterval: 1)
    store.send(.checkoutTapped)
    await withCheckedContinuation { answered in
      withObservationTracking {
        _ = store.isCheckingOut
      } onChange: {
        answered.resume()
      }
    }
    try recorder.finish()
    #expect(store.items.elements == [.tea])
    #expect(store.alert == .checkoutSucceeded(receipt))

    let replayer = ActionLogReplayer(feature: "Cart") {
      Cart(checkout: .unimplemented, makeID: .incrementing(), clock: TestClock())
    }
    let report = try replayer.replay(path: path)
    #expect(report.isComplete)
    #expect(report.warnings.isEmpty)
    #expect(report.finalState == store.state)
  }
}
