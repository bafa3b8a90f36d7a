import Foundation
import Testing

@testable import Store

/// What the schema fingerprint reads of a state: its stored properties, through nested
/// structures and classes, read with `Mirror` (public on every platform). Collections,
/// optionals and enums count by their type's name, toolchain types and types that reflect
/// themselves too, so no value of theirs changes it.
@Suite struct SchemaFingerprintTests {
  private enum Action: Codable { case tap }

  private func fingerprint<State>(_ state: State) -> String {
    SchemaFingerprint.of(state: state, action: Action.self, version: "1")
  }

  private struct Row: Identifiable { var id: Int; var quantity: Int }

  private struct Lists {
    var rows: IdentifiedArrayOf<Row> = []
    var maybe: Row?
    var byName: [String: Row] = [:]
    var path = StackState<Row>()
  }

  @Test func aCollectionOrOptionalCountsByItsTypesNameWhateverItHolds() {
    var full = Lists()
    full.rows = [Row(id: 1, quantity: 2)]
    full.maybe = Row(id: 2, quantity: 1)
    full.byName = ["a": Row(id: 3, quantity: 1)]
    full.path.append(Row(id: 4, quantity: 1))
    #expect(fingerprint(full) == fingerprint(Lists()))
    let shape = SchemaFingerprint.shape(of: Lists())
    #expect(
      shape
        == "{rows:IdentifiedArray<Int, Row>,maybe:Optional<Row>,byName:Dictionary<String, Row>,"
        + "path:StackState<Row>,}")
  }

  private struct Avatar { var bytes: Data; var taken: Date; var name: String }

  @Test func toolchainTypesCountByNameSoTheirValuesDoNotChangeIt() {
    // `Data` reflects its bytes only when there are few: walked, a picture's size changed
    // the fingerprint (bug hunt).
    let small = Avatar(bytes: Data(count: 10), taken: Date(), name: "a")
    let large = Avatar(bytes: Data(count: 100), taken: .distantPast, name: "")
    #expect(fingerprint(small) == fingerprint(large))
    #expect(SchemaFingerprint.shape(of: small) == "{bytes:Data,taken:Date,name:String,}")
  }

  private struct Inner { var count: Int }
  private struct Outer { var inner: Inner; var label: String }
  private struct OuterChanged { var inner: InnerChanged; var label: String }
  private struct InnerChanged { var count: Double }

  @Test func aNestedStructuresPropertiesCount() {
    #expect(
      SchemaFingerprint.shape(of: Outer(inner: Inner(count: 1), label: ""))
        == "{inner:Inner{count:Int,},label:String,}")
    #expect(
      SchemaFingerprint.shape(of: OuterChanged(inner: InnerChanged(count: 1), label: ""))
        != SchemaFingerprint.shape(of: Outer(inner: Inner(count: 1), label: "")))
  }

  private class Base { var base = 0 }
  private final class Derived: Base { var derived = "" }
  private protocol Delegate: AnyObject {}
  private struct Holder {
    var derived = Derived()
    var delegate: (any Delegate)?
    var anything: Any = 1
    var extras: [String: Any] = ["a": 1]
    var pair = (1, "a")
  }

  @Test func aClassCountsItsInheritedPropertiesAndAnExistentialDoesNotStopTheProgram() {
    let shape = SchemaFingerprint.shape(of: Holder())
    #expect(shape.hasPrefix("{derived:Derived{base:Int,derived:String,},"))
    #expect(shape.contains("delegate:Optional<Delegate>,"))
    #expect(shape.contains("pair:(Int, String),"))
  }
}
