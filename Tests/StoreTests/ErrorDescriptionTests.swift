import Effects
import Testing

@testable import Store

/// An error a client throws as an enum's case.
private enum LoadError: Error {
  case offline
  case status(Int)
}

/// A clock whose every sleep throws `LoadError.offline`.
private struct OfflineClock: Clock {
  let base = ImmediateClock()
  var now: ImmediateClock.Instant { base.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ImmediateClock.Instant, tolerance: Duration?) async throws {
    throw LoadError.offline
  }
}

/// The warning for an error an effect, or a clock it waits on, threw names the error with its
/// type: an enum's case printed bare (`threw an error ...: offline.`), naming nothing (the
/// effects hunt).
@MainActor
@Suite struct ErrorDescriptionTests {
  let warnings = WarningLog()

  @Test func anEnumErrorAnEffectThrowsIsNamedWithItsType() {
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler,
      reducer: LogFeature { name in
        .run { _ in throw name == "offline" ? LoadError.offline : LoadError.status(404) }
      })
    harness.send(.start("offline"))
    harness.send(.start("status"))
    let messages = warnings.messages
    #expect(messages.count == 2)
    #expect(messages.first?.contains("no catch action handles: LoadError.offline.") == true)
    #expect(messages.last?.contains("no catch action handles: LoadError.status(404).") == true)
  }

  @Test func anEnumErrorThrownAfterTheCancellationIsNamedWithItsType() {
    let gate = Gate()
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler,
      reducer: LogFeature { name in
        .run { _ in
          await gate.wait()
          throw LoadError.offline
        }
        .cancellable(id: name)
      })
    harness.send(.start("load"))
    harness.send(.stop("load"))
    gate.open()
    harness.settle()
    #expect(
      warnings.messages.first?.contains(
        "threw an error after it was cancelled: LoadError.offline.") == true)
  }

  @Test func anEnumErrorAClockThrowsIsNamedWithItsType() {
    let clock = OfflineClock()
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler,
      reducer: LogFeature { name in
        Effect.send(.record(name)).debounce(id: "d", for: .seconds(1), clock: clock)
      })
    harness.send(.start("a"))
    #expect(
      warnings.messages.first?.hasPrefix(
        "A debounce's clock threw an error from its sleep: LoadError.offline.") == true)
  }

  @Test func errorsThatNameThemselvesPrintAsBefore() {
    struct Broke: Error {}
    #expect(describeError(Broke()) == "Broke()")
    #expect(describeError(Boom()) == "boom")
    #expect(describeError(LoadError.status(1)) == "LoadError.status(1)")
  }
}

/// An error that is a class instance and does not describe itself: Swift prints its type with
/// the module, and for a private class with an `(unknown context at $…)` address that changes
/// from run to run (the review of the enum naming).
private final class NetworkFailure: Error {}

@Suite struct ClassErrorDescriptionTests {
  @Test func aClassErrorIsNamedByItsTypeWithoutModuleOrAddress() {
    #expect(describeError(NetworkFailure()) == "NetworkFailure")
  }
}

/// Why a load failed, held by the error below.
private enum FailureReason: Equatable { case timeout }

/// An enum error whose cases hold values.
private enum WrappingError: Error {
  case wrapped(FailureReason)
  case message(String)
}

/// What an enum error's case holds is written as an action's payload is: Swift printed a
/// nested value with its module, and for a private type with an `(unknown context at $…)`
/// address that changes from run to run (the review of the enum naming).
@Suite struct ErrorPayloadDescriptionTests {
  @Test func valuesInsideAnErrorAreWrittenWithoutModuleOrAddress() {
    #expect(describeError(WrappingError.wrapped(.timeout)) == "WrappingError.wrapped(.timeout)")
    #expect(
      describeError(WrappingError.message("a\u{200B}")) == #"WrappingError.message("a\u{200B}")"#)
  }
}
