import Effects
import Foundation
import Store

/// A feature whose state and actions hold the values JSON has trouble with: decimals that
/// may be NaN, integers past 2^53, nested optionals, sets. `offset` changes what `setBig`
/// stores, so that a replay through `Ledger(offset: 1)` diverges from a recording through
/// `Ledger()`, and `scale` overflow ten times sooner.
struct Ledger: Reducer {
  var offset = 0

  struct State: Equatable, Codable {
    var amount: Decimal = 0
    var big = 0
    var u64: UInt64 = 0
    var ratio = 1.0
    var maybe: Int?? = nil
    var tags: Set<String> = []
    var name = ""
  }

  enum Action: Equatable, Codable, Sendable {
    case setAmount(Decimal)
    case poison
    case setBig(Int)
    case setU64(UInt64)
    case scale(Double)
    case setMaybe(Int??)
    case tag(String)
    case rename(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setAmount(let amount): state.amount = amount
    case .poison: state.amount = .nan
    case .setBig(let value): state.big = value + offset
    case .setU64(let value): state.u64 = value
    case .scale(let factor): state.ratio *= offset == 0 ? factor : factor * 10
    case .setMaybe(let value): state.maybe = value
    case .tag(let tag): state.tags.insert(tag)
    case .rename(let name): state.name = name
    }
    return .none
  }
}
