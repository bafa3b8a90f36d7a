import Effects
import Store

/// Scene phases for `runScreen` that run each step when the driver asks for the next phase:
/// a step may advance a clock or change the state, then give the phase to send, or `nil` to
/// end the sequence (as a view's task ending).
func scripted(
  _ steps: [@MainActor @Sendable () async -> ScreenLifecycleAction.ScenePhase?]
) -> AsyncStream<ScreenLifecycleAction.ScenePhase> {
  let calls = Locked(0)
  return AsyncStream {
    let call = calls.withLock { value in
      value += 1
      return value
    }
    return call <= steps.count ? await steps[call - 1]() : nil
  }
}
