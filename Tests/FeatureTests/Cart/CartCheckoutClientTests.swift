import CartFeature
import Effects
import Foundation
import Testing

/// The checkout client's stand-ins, and the simulated service's one order per key. (The
/// simulated service is exercised through the cart, on a test clock, in `CartCheckoutTests`
/// and `CartPendingOrderTests`.)
@Suite struct CartCheckoutClientTests {
  @Test func theSucceedingClientReturnsAReceiptOfWhatWasSubmitted() async throws {
    let receipt = try await CheckoutClient.succeeding(receiptID: UUID(counting: 1))
      .submit([.tea, .milk], UUID(counting: 9))
    #expect(receipt.items == [.tea, .milk])
    #expect(receipt.totalQuantity == 3)
  }

  @Test func theFailingClientThrowsItsError() async {
    await #expect(throws: CheckoutError.paymentDeclined) {
      try await CheckoutClient.failing(with: CheckoutError.paymentDeclined).submit(
        [.tea], UUID(counting: 9))
    }
  }

  @Test func theSimulatedServicePlacesOneOrderPerKey() async throws {
    let service = CheckoutClient.live(
      clock: ImmediateClock(), delay: .seconds(1), makeID: .incrementing())
    let (first, second) = (UUID(counting: 1), UUID(counting: 2))
    let placed = try await service.submit([.tea], first)
    #expect(placed == Receipt(id: UUID(counting: 0), items: [.tea]))
    #expect(try await service.submit([.tea], first) == placed)
    #expect(
      try await service.submit([.milk], second) == Receipt(id: UUID(counting: 1), items: [.milk]))
  }

  /// Cancelled while it waits for the answer, the order was placed all the same, as a real
  /// service's would be: submitting its key again answers with its receipt.
  @Test func aCancelledSubmitStillPlacedTheOrder() async throws {
    let clock = TestClock()
    let service = CheckoutClient.live(clock: clock, delay: .seconds(1), makeID: .incrementing())
    let key = UUID(counting: 1)
    let cancelled = Task { try await service.submit([.tea], key) }
    await clock.waitForSleepers(1)
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    let retry = Task { try await service.submit([.tea], key) }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    #expect(try await retry.value == Receipt(id: UUID(counting: 0), items: [.tea]))
  }

  @Test func anyErrorIsClassifiedAsACheckoutError() {
    #expect(CheckoutError(CheckoutError.paymentDeclined) == .paymentDeclined)
    #expect(CheckoutError(ConnectionLost()) == .serviceUnavailable)
  }
}
