#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The canonical JSON of the states a replay went through, kept for the last two actions,
/// so that each state is encoded once however many readers ask for it.
///
/// A timeline that prints each step's ``ReplayStep/stateChanges`` needs the state after
/// every action twice: as one step's `stateAfter` and as the next step's `stateBefore`. A
/// checkpoint needs it once more for its digest. One replay shares one of these among its
/// steps; a step asks for a state by the sequence number of the action that left it, and
/// only for a state it has not been given anew (see the step's `didSet`s). Each replay has
/// its own, so a sequence number names one state.
final class ReplayEncodings: Sendable {
  /// How many states are kept: the newest step's two.
  private static var capacity: Int { 2 }

  private let kept = ModuleLock<[(sequence: Int, json: Data)]>([])

  /// The canonical JSON of the state after action `sequence` (0: the initial state), if
  /// it is kept.
  func json(after sequence: Int) -> Data? {
    kept.withLock { kept in kept.first { $0.sequence == sequence }?.json }
  }

  /// Keeps `json`, the canonical JSON of the state after action `sequence`, in place of the
  /// oldest kept one.
  func keep(_ json: Data, after sequence: Int) {
    kept.withLock { kept in
      guard !kept.contains(where: { $0.sequence == sequence }) else { return }
      if kept.count == Self.capacity { kept.removeFirst() }
      kept.append((sequence, json))
    }
  }

  /// The canonical JSON of `state`, the state after action `sequence`: the kept one, or
  /// else encoded now and kept. `nil` when it cannot be encoded.
  func json<State: Encodable>(of state: State, after sequence: Int?, encoder: JSONEncoder)
    -> Data?
  {
    if let sequence, let json = json(after: sequence) { return json }
    guard let json = canonicalEncoding(of: state, encoder: encoder) else { return nil }
    if let sequence { keep(json, after: sequence) }
    return json
  }
}

/// `value` in the log's canonical JSON (see `CanonicalJSON`), or `nil` when it cannot be
/// encoded.
func canonicalEncoding<Value: Encodable>(of value: Value, encoder: JSONEncoder) -> Data? {
  guard let plain = try? encoder.encode(value) else { return nil }
  return CanonicalJSON.canonical(plain, of: value, encoder: encoder)
}
