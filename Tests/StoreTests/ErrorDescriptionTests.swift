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

  @Test func errorsThatNameThemselvesPrintTheirOwnTextAndAPlainStructItsFields() {
    struct Broke: Error {}
    // Named as an enum error is, with the types it is nested in (here, the test's).
    #expect(describeError(Broke()) == "ErrorDescriptionTests.Broke()")
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

/// A struct error, whose fields Swift printed with their modules (and a private type's
/// address), and an error held in an action's payload, which `String(reflecting:)` printed
/// with its module (a class instance, a private one's address too), are written as the
/// enum error is (the stop 62 leftovers).
private struct SaveFailed: Error {
  var reason: FailureReason
  var attempts: Int
}

/// An error that wraps another, to any depth.
private indirect enum ChainedError: Error {
  case root
  case wrapping(ChainedError)
}

@Suite private struct ErrorInStructAndPayloadDescriptionTests {
  enum Feature: @unchecked Sendable {
    case failed(any Error)
    case saved(Result<Int, SaveFailed>)
  }

  @Test func aStructErrorsFieldsAreWrittenWithoutModuleOrAddress() {
    #expect(
      describeError(SaveFailed(reason: .timeout, attempts: 2))
        == "SaveFailed(reason: .timeout, attempts: 2)")
  }

  @Test func anErrorInAnActionsPayloadIsNamedAsAWarningNamesIt() {
    #expect(
      describe(Feature.failed(WrappingError.wrapped(.timeout)))
        .hasSuffix(".failed(WrappingError.wrapped(.timeout))"))
    #expect(describe(Feature.failed(NetworkFailure())).hasSuffix(".failed(NetworkFailure)"))
    #expect(
      describe(Feature.failed(SaveFailed(reason: .timeout, attempts: 1)))
        .hasSuffix(".failed(SaveFailed(reason: .timeout, attempts: 1))"))
    #expect(
      describe(Feature.saved(.failure(SaveFailed(reason: .timeout, attempts: 1))))
        .hasSuffix(".saved(.failure(SaveFailed(reason: .timeout, attempts: 1)))"))
  }

  @Test func aLongChainOfErrorsInAPayloadIsCut() {
    var error = ChainedError.root
    for _ in 0..<5_000 { error = .wrapping(error) }
    let text = describe(Feature.failed(error))
    // Each error in it is named with its type, as one in a payload typed `any Error` is.
    // (Booleans, not the text: printed whole, it ran to 345,119 characters.)
    let named = text.contains(".failed(ChainedError.wrapping(ChainedError.wrapping(")
    let cut = text.contains("…")
    #expect(named)
    #expect(cut)
    #expect(text.count < 500)
  }
}

/// An action that is itself an error: its type is named once, as any action's is, not once
/// more for the error it also is (`ErrorAction.retryErrorAction.retry`).
private enum ErrorAction: Error, Sendable {
  case retry
  case failed(Int)
}

@Suite struct ErrorActionDescriptionTests {
  @Test func anActionThatIsAnErrorIsNamedOnce() {
    #expect(describe(ErrorAction.retry) == "ErrorAction.retry")
    #expect(describe(ErrorAction.failed(1)) == "ErrorAction.failed(1)")
  }
}

/// A struct error that wraps another, to any depth.
private struct NestedFailure: Error {
  var inner: (any Error)?
}

/// A long chain of errors is cut at 16 levels without being printed whole first: Swift's own
/// printing of a 10,000-deep chain, made and dropped only to be replaced by the cut text,
/// overflowed the stack of the thread an effect's task runs on.
@Suite struct DeepErrorChainDescriptionTests {
  @Test func aDeepChainIsDescribedOffTheMainThread() async {
    let lengths = await Task.detached { () -> [Int] in
      var nested = NestedFailure(inner: nil)
      for _ in 0..<10_000 { nested = NestedFailure(inner: nested) }
      var chained = ChainedError.root
      for _ in 0..<10_000 { chained = .wrapping(chained) }
      return [describeError(nested).count, describeError(chained).count]
    }.value
    #expect(lengths.allSatisfy { $0 < 500 })
  }
}
