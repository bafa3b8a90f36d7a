import Store
import StoreTesting
import Testing

/// A row held by reference, identified by its identity: `Identifiable`'s default `id` for a
/// class is its `ObjectIdentifier`, its address.
private final class RowObject: Identifiable, Equatable {
  let title: String

  init(_ title: String) {
    self.title = title
  }

  static func == (lhs: RowObject, rhs: RowObject) -> Bool {
    lhs.title == rhs.title
  }
}

/// Elements identified by their address are neither paired nor labelled by id: an address
/// differs from one run to the next, and two equal objects made apart have different ones, so
/// a row replaced by an equal-looking one showed every row removed and inserted again, and an
/// identified array's rows were labelled `[id: ObjectIdentifier(0x…)]`.
@Suite struct ObjectIdentityIDTests {
  @Test func anArrayOfObjectsPairsByPosition() {
    let first = RowObject("a")
    let last = RowObject("c")
    let expected = [first, RowObject("b"), last]
    let actual = [first, RowObject("B"), last]
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          [
            … (1 unchanged)
            [1]: RowObject(
        -     title: "b"
        +     title: "B"
            )
            … (1 unchanged)
          ]
        """)
  }

  @Test func anIdentifiedArrayOfObjectsIsLabelledByPosition() {
    let rows = IdentifiedArrayOf<RowObject>([RowObject("a"), RowObject("b")])
    let rendered = StateDump.render(rows)
    #expect(!rendered.contains("ObjectIdentifier"), "\(rendered)")
    #expect(rendered.contains("[1]: "), "\(rendered)")
    var changed = rows
    _ = changed.remove(id: rows[1].id)
    changed.append(RowObject("c"))
    let difference = StateDiff.diff(expected: rows, actual: changed) ?? ""
    #expect(!difference.contains("0x"), "\(difference)")
    #expect(difference.contains("-     title: \"b\"\n+     title: \"c\""), "\(difference)")
  }
}
