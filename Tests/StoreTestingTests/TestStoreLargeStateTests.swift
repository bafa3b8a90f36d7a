import Dispatch
import Effects
import Foundation
import Store
import StoreTesting
import Testing

// A test store of a feature whose state is a mebibyte inline, as `Store` itself handles
// (`StoreReadStackTests` in the store's tests): a test of such a feature must not overflow
// the stack of the thread the main actor runs on in a debug build.

/// 4 KiB of inline state.
private struct Block: Equatable, Sendable {
  var a = SIMD64<Int64>.zero
  var b = SIMD64<Int64>.zero
  var c = SIMD64<Int64>.zero
  var d = SIMD64<Int64>.zero
  var e = SIMD64<Int64>.zero
  var f = SIMD64<Int64>.zero
  var g = SIMD64<Int64>.zero
  var h = SIMD64<Int64>.zero
}

/// 16 KiB.
private struct Blocks16: Equatable, Sendable {
  var a = Block()
  var b = Block()
  var c = Block()
  var d = Block()
}

/// 64 KiB.
private struct Blocks64: Equatable, Sendable {
  var a = Blocks16()
  var b = Blocks16()
  var c = Blocks16()
  var d = Blocks16()
}

/// 256 KiB.
private struct Blocks256: Equatable, Sendable {
  var a = Blocks64()
  var b = Blocks64()
  var c = Blocks64()
  var d = Blocks64()
}

/// 512 KiB.
private struct Blocks512: Equatable, Sendable {
  var a = Blocks256()
  var b = Blocks256()
}

/// A feature with a mebibyte of state that feeds an action back from an effect.
private struct Heavy: Reducer {
  struct State: Equatable {
    var count = 0
    var payload = Blocks512()
    var morePayload = Blocks512()

    /// Compares the counts alone: the synthesized `==` of a mebibyte of fields copies them
    /// onto the stack in a debug build, which is the feature's own cost, not the test store's.
    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.count == rhs.count
    }
  }

  enum Action: Equatable, Sendable {
    case bumpTapped
    case bumped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .bumpTapped:
      state.count += 1
      return .send(.bumped)
    case .bumped:
      state.count += 10
      return .none
    }
  }
}

/// An address that may be handed to another thread.
private struct HeavyAddress: @unchecked Sendable {
  let address: UnsafeMutablePointer<Heavy.State>
}

/// Makes the state on a thread with a large stack (building a value of a large type with
/// default values copies its parts many times over in a debug build), then tests the
/// feature with a test store on the main actor.
@MainActor
private func testTheHeavyFeature() async {
  let state = HeavyAddress(address: .allocate(capacity: 1))
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    state.address.initialize(to: Heavy.State())
    done.signal()
  }
  thread.stackSize = 256 << 20
  thread.start()
  done.wait()
  let store = makeHeavyStore(from: state.address)
  state.address.deinitialize(count: 1)
  state.address.deallocate()
  await store.send(.bumpTapped) { $0.count = 1 }
  await store.receive(.bumped) { $0.count = 11 }
  await store.finish()
}

/// A test store of the state at `state`, made in a frame of its own.
@MainActor @inline(never)
private func makeHeavyStore(from state: UnsafeMutablePointer<Heavy.State>) -> TestStoreOf<Heavy> {
  TestStore(initialState: state.pointee) { Heavy() }
}

@Suite struct TestStoreLargeStateTests {
  #if EXIT_TESTS
    /// A send and a receive of a feature with a mebibyte of state. The store kept the state
    /// after each action (the one sent, and each one fed back) through a function that, in a
    /// debug build, reserved stack for eight copies of the state whichever it kept: 8 MiB
    /// here, past the end of the main actor's thread's stack.
    @Test func aTestStoreOfAMebibyteOfStateSendsAndReceives() async {
      await #expect(processExitsWith: .success) {
        await testTheHeavyFeature()
      }
    }
  #endif
}
