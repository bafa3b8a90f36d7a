import CartFeature
import Effects
import Foundation
import Testing

/// The checkout client's stand-ins. (The simulated live service is exercised through the cart,
/// on a test clock, in `CartCheckoutTests`.)
@Suite struct CartCheckoutClientTests {
  @Test func theSucceedingClientReturnsAReceiptOfWhatWasSubmitted() async throws {
    let receipt = try await CheckoutClient.succeeding(receiptID: UUID(counting: 1))
      .submit([.tea, .milk])
    #expect(receipt.items == [.tea, .milk])
    #expect(receipt.totalQuantity == 3)
  }

  @Test func theFailingClientThrowsItsError() async {
    await #expect(throws: CheckoutError.paymentDeclined) {
      try await CheckoutClient.failing(with: CheckoutError.paymentDeclined).submit([.tea])
    }
  }

  @Test func anyErrorIsClassifiedAsACheckoutError() {
    #expect(CheckoutError(CheckoutError.paymentDeclined) == .paymentDeclined)
    #expect(CheckoutError(ConnectionLost()) == .serviceUnavailable)
  }
}
