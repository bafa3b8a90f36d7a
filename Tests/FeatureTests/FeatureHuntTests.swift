import AccountFeature
import CartFeature
import Effects
import Foundation
import Store
import Testing

/// Saved states of the sample features: what a feature can reach decodes, what it never
/// reaches is refused with a message that says why.
@Suite struct FeatureHuntTests {
  static let ada = AccountProfile(username: "ada", displayName: "Ada")

  /// The message of the `dataCorrupted` error decoding `value` as `T` throws, or `nil` when it
  /// decodes.
  func refusal<T: Codable>(decoding value: T) throws -> String? {
    let data = try JSONEncoder().encode(value)
    do {
      _ = try JSONDecoder().decode(T.self, from: data)
      return nil
    } catch DecodingError.dataCorrupted(let context) {
      return context.debugDescription
    }
  }

  /// A sign-in in flight while a user is signed in, or with no sign-in started, is no state
  /// the account reaches: `signInTapped` refuses while signed in and counts each sign-in, and
  /// a restore is ignored while one is in flight. Restored, the badge would spin for good.
  @Test func anAccountSigningInWhileSignedInOrWithNoSignInStartedDoesNotDecode() throws {
    var signedIn = Account.State()
    signedIn.profile = Self.ada
    signedIn.signInsStarted = 1
    signedIn.isSigningIn = true
    let whileSignedIn = try refusal(decoding: signedIn)
    #expect(
      whileSignedIn?.contains(#"signed in as "ada""#) == true, "\(whileSignedIn ?? "decoded")")

    var neverStarted = Account.State()
    neverStarted.isSigningIn = true
    let withNoSignIn = try refusal(decoding: neverStarted)
    #expect(withNoSignIn?.contains("signInsStarted") == true, "\(withNoSignIn ?? "decoded")")

    var negative = Account.State()
    negative.signInsStarted = -1
    let negativeCount = try refusal(decoding: negative)
    #expect(negativeCount?.contains("-1") == true, "\(negativeCount ?? "decoded")")
  }

  /// What the account does reach decodes as it was saved: a sign-in in flight, a restored
  /// session with no sign-in, a signed-in user with a failed refresh's message.
  @Test func anAccountStateTheFeatureReachesDecodes() throws {
    var signingIn = Account.State()
    signingIn.form.username = "ada"
    signingIn.signInsStarted = 1
    signingIn.isSigningIn = true
    var restored = Account.State()
    restored.profile = Self.ada
    var refreshFailed = restored
    refreshFailed.signInsStarted = 3
    refreshFailed.errorMessage = "offline"
    for state in [signingIn, restored, refreshFailed] {
      #expect(try refusal(decoding: state) == nil)
      #expect(
        try JSONDecoder().decode(Account.State.self, from: JSONEncoder().encode(state)) == state)
    }
  }

  /// An item without a name, or a title that is blank, is no cart the feature reaches:
  /// `addItemTapped` trims and drops a blank name, `itemAdded` refuses one, and the title
  /// editor cannot save a blank title, which the cart ignores.
  @Test func aCartWithABlankItemNameOrTitleDoesNotDecode() throws {
    let blankName = CartItem(id: UUID(counting: 1), name: " \n")
    let item = try refusal(decoding: Cart.State(items: [.tea, blankName]))
    #expect(item?.contains("Item 1") == true, "\(item ?? "decoded")")
    #expect(item?.contains("blank") == true, "\(item ?? "decoded")")
    // Refused at the item's name, as a quantity out of range is at its quantity.
    let data = try JSONEncoder().encode(Cart.State(items: [.tea, blankName]))
    #expect {
      try JSONDecoder().decode(Cart.State.self, from: data)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.codingPath.last?.stringValue == "name"
    }

    let title = try refusal(decoding: Cart.State(title: "  ", items: [.tea]))
    #expect(title?.contains("title") == true, "\(title ?? "decoded")")
  }

  /// Names and titles the cart keeps as they came decode as they were: an added item's name
  /// is kept untrimmed, as `itemAdded` keeps it.
  @Test func aCartWithNamesTheFeatureKeepsDecodes() throws {
    let untrimmed = CartItem(id: UUID(counting: 1), name: " Jam ")
    let cart = Cart.State(title: "Weekend", items: [.tea, untrimmed])
    #expect(try refusal(decoding: cart) == nil)
  }
}
