#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Room on the stack for the module's readers of JSON, which recurse once per level of
/// nesting: the check of a line (`JSONCheck`), the read into a ``JSONValue``, the comparison
/// of two values, their text, and the canonical form a state's digest is taken of
/// (`CanonicalJSON`, which puts its sets and dictionaries in order).
///
/// A state may nest up to ``JSONCheck/maximumDepth`` levels (the encoder's own limit). In a
/// debug build, a level of those reads takes up to about 3.5 KB of stack, so a state nested a
/// hundred levels (a tree, a linked list) would overflow the 512 KB stack of a secondary
/// thread on Apple platforms, where Swift concurrency's threads run, and stop the program. A
/// text nested deeper than ``callerNesting`` is read on a thread of its own, with a stack of
/// ``stackSize``, while the caller waits; a shallower one, as nearly every state is, is read
/// where it is asked for.
enum StackRoom {
  /// How deeply a text may nest arrays and objects and still be read on the caller's stack:
  /// about 110 KB of it in a debug build, far less in a release build.
  static let callerNesting = 32

  /// The stack of the thread a deeper text is read on: room for the deepest text the
  /// readers accept, several times over.
  static let stackSize = 8 << 20

  /// The result of `body`, which reads `texts`: run right here when none of them nests
  /// deeper than ``callerNesting``, otherwise on a thread with a stack of ``stackSize``,
  /// the caller waiting for it to end. `body` runs once either way, and nothing else runs
  /// meanwhile in the caller's task, so what it captures is not shared: it must only read
  /// JSON (it runs outside any actor), not call a feature's code.
  ///
  /// - Complexity: O(*n*) for texts of *n* bytes, to find how deeply they nest, besides
  ///   `body`.
  static func run<Value>(reading texts: Data..., body: () -> Value) -> Value {
    // Scanned in place: read through `Data`'s subscript, each byte cost a dynamic exclusivity
    // check, and the scan a quarter of a replay timeline's time.
    let deep = texts.contains { text in
      text.withUnsafeBytes { JSONGrammar.nests(deeperThan: callerNesting, $0) }
    }
    guard deep else {
      return body()
    }
    return withoutActuallyEscaping(body) { body in
      let job = Job(body)
      guard job.runOnThread(stackSize: stackSize) else {
        // No thread could be made (the process is out of them): reading here may still fit.
        return body()
      }
      return job.result!
    }
  }

  /// `body` and its result, handed to the thread that runs it. The caller reads `result`
  /// only after joining the thread, which orders the write before the read.
  private final class Job<Value>: @unchecked Sendable {
    let body: () -> Value
    var result: Value?

    init(_ body: @escaping () -> Value) {
      self.body = body
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes, and waits for it;
    /// `false` when no thread could be made, and `body` did not run.
    func runOnThread(stackSize: Int) -> Bool {
      var attributes = pthread_attr_t()
      guard pthread_attr_init(&attributes) == 0 else { return false }
      defer { pthread_attr_destroy(&attributes) }
      guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return false }
      let run: @Sendable () -> Void = { self.result = self.body() }
      let context = Unmanaged.passRetained(Box(run)).toOpaque()
      #if canImport(Darwin)
        var thread: pthread_t?
      #else
        var thread = pthread_t()
      #endif
      let created = pthread_create(
        &thread, &attributes,
        { context in
          // The context is optional on some platforms and not on others.
          StackRoom.box(at: context).run()
          return nil
        }, context)
      guard created == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        return false
      }
      #if canImport(Darwin)
        pthread_join(thread!, nil)
      #else
        pthread_join(thread, nil)
      #endif
      return true
    }
  }

  /// The box a thread's context points to, taken back from it.
  private static func box(at context: UnsafeMutableRawPointer?) -> Box {
    Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
  }

  /// A closure as an object, which a thread's context pointer can hold.
  private final class Box: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
      self.run = run
    }
  }
}
