import Foundation
import Testing

@testable import Store

/// The schema fingerprint reads the state's type, not its value: what collections and
/// optionals hold counts even when they are empty, and no value changes it.
@Suite struct SchemaFingerprintTests {
  private enum Action: Codable { case tap }

  private func fingerprint<State>(_ state: State.Type) -> String {
    SchemaFingerprint.of(state: state, action: Action.self, version: "1")
  }

  // Two versions of a row, as a feature's row changes between a recording and its replay.
  // The names the fingerprint sees are the same ("Row" in a state named "State"); only the
  // row's properties differ.
  private enum Before {
    struct Row: Identifiable { var id: Int; var quantity: Int }
    struct InArray { var rows: [Row] }
    struct InOptional { var row: Row? }
    struct InIdentifiedArray { var rows: IdentifiedArrayOf<Row> }
    struct InDictionary { var rows: [String: Row] }
    struct InStack { var path: StackState<Row> }
  }

  private enum After {
    struct Row: Identifiable { var id: Int; var quantity: Double }
    struct InArray { var rows: [Row] }
    struct InOptional { var row: Row? }
    struct InIdentifiedArray { var rows: IdentifiedArrayOf<Row> }
    struct InDictionary { var rows: [String: Row] }
    struct InStack { var path: StackState<Row> }
  }

  /// `fingerprint` with the two enums' names taken out, so that only the shapes differ.
  private func shapeOnly<State>(_ state: State.Type) -> String {
    // The top-level name is part of the fingerprint; compare states of one name by
    // fingerprinting a wrapper generic over them instead.
    fingerprint(Wrapper<State>.self)
  }

  private struct Wrapper<Content> { var content: Content }

  @Test func aChangeToARowInsideACollectionOrOptionalChangesTheFingerprint() {
    #expect(shapeOnly(Before.InArray.self) != shapeOnly(After.InArray.self))
    #expect(shapeOnly(Before.InOptional.self) != shapeOnly(After.InOptional.self))
    #expect(shapeOnly(Before.InIdentifiedArray.self) != shapeOnly(After.InIdentifiedArray.self))
    #expect(shapeOnly(Before.InDictionary.self) != shapeOnly(After.InDictionary.self))
    #expect(shapeOnly(Before.InStack.self) != shapeOnly(After.InStack.self))
  }

  @Test func theShapeNamesTheRowsPropertiesEvenWhenTheCollectionIsEmpty() {
    let shape = SchemaFingerprint.shape(of: Before.InIdentifiedArray.self)
    #expect(shape.contains("rows:IdentifiedArray<Int, Row>[Row{id:Int,quantity:Int,},]"))
    // The array's own bookkeeping (its id index, its history) is not the feature's shape.
    #expect(!shape.contains("buckets"))
    #expect(SchemaFingerprint.shape(of: Before.InStack.self).contains("[Row{"))
  }

  private struct Avatar { var bytes: Data; var taken: Date; var name: String }

  @Test func toolchainTypesAreDescribedByNameAlone() {
    // `Data` reflects its bytes only when there are few: a value-based fingerprint changed
    // with the picture's size.
    let shape = SchemaFingerprint.shape(of: Avatar.self)
    #expect(shape == "{bytes:Data,taken:Date,name:String,}")
  }

  private final class Node {
    var value = 0
    var children: [Node] = []
  }

  private class Base { var base = 0 }
  private final class Derived: Base { var derived = "" }

  private struct Tree {
    var root: Node?
    var derived: Derived
  }

  @Test func aTypeThatHoldsItselfEndsAndAClassCountsItsSuperclasssProperties() {
    let shape = SchemaFingerprint.shape(of: Tree.self)
    #expect(shape.contains("root:Optional<Node>[Node{value:Int,children:Array<Node>[Node^,],},]"))
    #expect(shape.contains("derived:Derived{base:Int,derived:String,}"))
  }
}
