/// A description of the work a reducer asks the store to do after it changes state.
///
/// Effects are values: a reducer returns one, and the store's runtime starts it. Nothing runs
/// until the store starts it, and everything the store starts belongs to a lifetime the store
/// owns, so it is cancelled when that lifetime ends.
///
/// ```swift
/// case .refreshTapped:
///   state.isLoading = true
///   return .run { send in
///     let profile = try await client.profile()
///     send(.profileResponse(profile))
///   } catch: { error in
///     .profileFailed(error.localizedDescription)
///   }
/// ```
///
/// Build effects with ``none``, ``send(_:)`` and `run(priority:fileID:line:operation:catch:)`
/// (whose `catch:` returns an action, or takes a ``Send`` too), then combine them with
/// ``merge(_:)-(...)``, ``concatenate(_:)-(...)``, ``map(_:)``,
/// ``cancellable(id:cancelInFlight:)`` and the timing operators.
public struct Effect<Action: Sendable>: Sendable {
  @usableFromInline package let operation: Operation

  @inlinable
  package init(operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing.
  ///
  /// Returning `.none` from a reducer costs nothing: the store does not touch its runtime.
  @inlinable
  public static var none: Self { Self(operation: .none) }

  /// An effect that feeds `action` back into the store at once.
  ///
  /// The store processes the action synchronously, after the reducer that returned it and
  /// before the store's `send(_:)` returns, in the order the actions were produced. Dispatch is
  /// iterative, so a long chain of `.send` effects uses constant stack.
  ///
  /// - Parameter action: The action to feed back.
  /// - Returns: An effect that sends `action`.
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(action))
  }

  /// An effect that runs an asynchronous operation, which can send any number of actions.
  ///
  /// The operation runs in a task that belongs to the lifetime of whatever started it (the
  /// store, an identified element, or the task awaiting the store's `send(_:)`), and is cancelled when
  /// that lifetime ends. Actions sent after cancellation never reach a reducer. An effect
  /// cancelled before its task first runs does not start `operation` at all: under a test
  /// store that is always so for one whose row the same step removed; in a running app its
  /// task may have started first, and then sees the cancellation at its first check. Work
  /// that must happen whatever becomes of its row belongs to the parent's own effects.
  ///
  /// An error thrown by `operation` is never dropped silently: when `catch` is given, the error
  /// becomes the action it returns; otherwise the store reports a runtime warning naming the
  /// action that started the effect. Once the effect was cancelled, no action of it reaches a
  /// reducer, so `catch` is not called: a `CancellationError` (or Foundation's
  /// `URLError.cancelled`) then ends it quietly, and any other error is reported as a runtime
  /// warning that says it was thrown after the cancellation. An action `catch` returned that
  /// has not reached a reducer when the effect is cancelled (its row removed meanwhile) is
  /// dropped with the rest, and a runtime warning names the error and the action, unless the
  /// error means cancellation. (An effect that throws StoreTesting's `UnimplementedError`
  /// with no `catch`, or once cancelled, ends with no warning: the `unimplemented` dependency
  /// that threw it failed the test already, naming itself. So does one, under a test store,
  /// that throws the error of a failed `try #require(...)` or `XCTUnwrap`, which failed the
  /// test at its own line. If the effect is cancelled before an action `catch` made of such
  /// an error reaches a reducer, the action is dropped with no warning either.)
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - fileID: The file where the effect was created, used in warnings.
  ///   - line: The line where the effect was created, used in warnings.
  ///   - operation: The work to do. Call the ``Send`` it is handed to feed actions back.
  ///   - catch: Turns a thrown error into an action.
  /// - Returns: An effect that runs `operation`.
  public static func run(
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch: (@Sendable (_ error: any Error) -> Action)? = nil
  ) -> Self {
    Self(
      operation: .run(
        Run(
          priority: priority,
          site: SourceSite(fileID: fileID, line: line),
          body: operation,
          catchAction: `catch`
        )
      )
    )
  }
}

extension Effect {
  /// An effect that runs an asynchronous operation, and hands an error it throws to `catch`,
  /// which can send any number of actions and do more asynchronous work (log the error, say).
  ///
  /// ```swift
  /// .run { send in
  ///   send(.loaded(try await client.load()))
  /// } catch: { error, send in
  ///   await logger.log(error)
  ///   send(.failed(error.localizedDescription))
  /// }
  /// ```
  ///
  /// An error thrown once the effect was cancelled is not handed to `catch`, as with the other
  /// `catch`: a `CancellationError` (or Foundation's `URLError.cancelled`) ends the effect
  /// quietly, and any other is reported as a runtime warning. Actions `catch` sends after the
  /// effect was cancelled never reach a reducer, as the operation's own do not; nor do those
  /// it sent that had not reached one when the effect was cancelled (its row removed, its
  /// store released). Unlike the operation's, such actions are reported, unless the error
  /// means cancellation, as for the action the other `catch` returns. A runtime warning names
  /// the error and the first action dropped. If the handler sent more (a retry loop that does
  /// not check for cancellation), one more warning when the effect ends gives their count and
  /// the last of them. Under a test store, these warnings fail the test, also when they come
  /// after its `finish()` returned, and when the test cancelled the effect itself
  /// (`skipInFlightEffects()`): check `Task.isCancelled` before sending from a handler that
  /// waits. None of these warnings comes for an error whose thrower failed the test for it
  /// already: an `unimplemented` dependency, or, under a test store, a failed
  /// `try #require(...)` or `XCTUnwrap`.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - fileID: The file where the effect was created, used in warnings.
  ///   - line: The line where the effect was created, used in warnings.
  ///   - operation: The work to do. Call the ``Send`` it is handed to feed actions back.
  ///   - handler: Handles an error `operation` threw, with the same ``Send``.
  /// - Returns: An effect that runs `operation`.
  public static func run(
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: @escaping @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void
  ) -> Self {
    .run(priority: priority, fileID: fileID, line: line) { send in
      do {
        try await operation(send)
      } catch {
        // Thrown on: the runtime does not ask a cancelled effect's `catch` for an action, and
        // reports what it threw unless that means cancellation, as for the other `catch`.
        if Task.isCancelled { throw error }
        // What the handler sends answers `error`: dropped, it is a warning naming the error.
        await handler(error, send.caught(error))
      }
    }
  }
}

extension Effect {
  /// The cases an effect is built from; the runtime interprets them.
  @usableFromInline
  package indirect enum Operation: Sendable {
    case none
    case send(Action)
    case run(Run)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(id: EffectID, cancelInFlight: Bool, Effect)
    case cancel(id: EffectID)
    /// Inside the lifetime of `identity`; `token` tells which occupant of the identity's place
    /// the effect belongs to, when the place can change hands (see `LifetimePlace`).
    case scoped(identity: EffectID, token: UInt64?, Effect)
    /// Ends the lifetime of `identity`; with `exceptOccupant`, only for the effects scoped to
    /// it under another token (earlier occupants of a place that changed hands).
    case endLifetime(identity: EffectID, exceptOccupant: UInt64?)
    case throttle(Throttle, Effect)
    /// Keeps the lifetimes of the identities one level below the current namespace for which
    /// `isAlive` holds, and ends the others. Identities it does not recognize it keeps.
    case retainLifetimes(isAlive: @Sendable (EffectID) -> Bool)
    /// Asks the nearest presenting parent to dismiss the child that returned it.
    case dismiss
    /// Sends the action, which reaches a reducer only while the child that returned the effect
    /// is still in its place, as far as occupants are told apart (by id, for an
    /// `Identifiable` child; by push, for a stack's screen); once it is gone or replaced, the
    /// action is dropped quietly. What a ``dismiss`` that the presenting parent resolved
    /// becomes, and the library's own follow-up actions (see ``Effect/sendWhileThere(_:)``).
    case sendWhileThere(Action)
    /// Reports a runtime warning through the store's handler; `kind` says whether the store's
    /// action is named after it and whether it tells the reducers around not to run.
    case warning(message: String, site: SourceSite, kind: WarningKind)
    /// Runs the effect outside the task of the action that started it (see
    /// ``Effect/outlivingSendersTask()``).
    case outlivingSendersTask(Effect)
  }

  /// An asynchronous operation, with what the runtime needs to run and report it.
  @usableFromInline
  package struct Run: Sendable {
    package var priority: TaskPriority?
    package var site: SourceSite
    package var body: @Sendable (Send<Action>) async throws -> Void
    package var catchAction: (@Sendable (any Error) -> Action)?
  }

  /// The parameters of a throttled effect.
  @usableFromInline
  package struct Throttle: Sendable {
    package var id: EffectID
    package var interval: Duration
    package var clock: any Clock<Duration>
    package var latest: Bool
    /// Where the throttle was made, named in the warning for an error its clock throws.
    package var site: SourceSite
  }

  /// Whether this effect does nothing, so the store can skip its runtime.
  @inlinable
  package var isNone: Bool {
    if case .none = operation { return true }
    return false
  }
}

/// What a runtime warning an effect reports says besides its message, and what it tells the
/// reducers around the one that raised it.
@usableFromInline
package enum WarningKind: Sendable, Equatable {
  /// The message alone.
  case plain
  /// The message, then the action the store reduced, when the message does not name it: a
  /// child's reducer cannot say which screen or element of its ancestors it runs for (the
  /// second of two screens of one type, say), and the store's action can.
  case namingStoreAction
  /// The warning that an action was addressed to a child that is gone, named as
  /// `namingStoreAction` names it, which tells the reducers around the one that found it not
  /// to run for that action (see `Effect.isForMissingChild`).
  case missingChild
  /// The same mark for an action addressed to a child that was there and is gone where that
  /// is ordinary (a pop of a screen already popped, as a back button's, racing the screen's
  /// own dismissal): the reducers around do not run for it, and nothing is reported.
  case staleChild
  /// The same mark for an action that would add a child the parent refuses (a push whose id
  /// the stack gave out already): the reducers around do not run for it, and the message,
  /// which names what was refused, is reported alone. It ends no lifetime: a child that
  /// holds that id is not the one refused, and keeps its effects.
  case refusedChild
}
