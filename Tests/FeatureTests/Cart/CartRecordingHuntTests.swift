import CartFeature
import Effects
import Foundation
import Store
import Testing

/// A cart the app builds by hand that its decoder refuses is refused when a recording
/// starts, not when the log is replayed.
@MainActor
@Suite struct CartRecordingHuntTests {
  /// A blank item name or title, or a quantity outside 1...99, recorded fine, and the log
  /// then failed to replay, its header's state refused by `Cart.State.init(from:)`. The
  /// recorder now reads the header back before it opens the file, and refuses to start,
  /// naming the value's place and the decoder's reason; no file is written.
  @Test(arguments: [
    ("blank name", Cart.State(items: [CartItem(id: UUID(counting: 1), name: " ")])),
    ("blank title", Cart.State(title: " ")),
    ("no quantity", Cart.State(items: [CartItem(id: UUID(counting: 1), name: "Tea", quantity: 0)])),
    (
      "100 of it",
      Cart.State(items: [CartItem(id: UUID(counting: 1), name: "Tea", quantity: 100)])
    ),
  ])
  func aCartItsDecoderRefusesDoesNotStartARecording(what: String, cart: Cart.State) throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("cart-recording-hunt-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    let store = Store(initialState: cart) {
      Cart(checkout: .unimplemented, makeID: .incrementing(), clock: TestClock())
    }
    let place = what.hasSuffix("title") ? "initialState.title" : "initialState.items[0]"
    #expect {
      _ = try store.recordActions(to: file, feature: "Cart", time: { 0 })
    } throws: { error in
      guard case ActionLogError.cannotWrite(let path, let reason) = error else { return false }
      return path == file
        && reason.hasPrefix("the initial state does not decode from the header written for it")
        && reason.contains(place)
    }
    #expect(!FileManager.default.fileExists(atPath: file), "\(what)")
    // The cart the feature makes records, and replays.
    let fine = Store(initialState: Cart.State()) {
      Cart(checkout: .unimplemented, makeID: .incrementing(), clock: TestClock())
    }
    try fine.recordActions(to: file, feature: "Cart", time: { 0 }).finish()
    let replayer = ActionLogReplayer(feature: "Cart") {
      Cart(checkout: .unimplemented, makeID: .incrementing(), clock: TestClock())
    }
    #expect(try replayer.replay(path: file).isComplete)
  }
}
