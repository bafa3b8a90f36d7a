/// Short, stable type names for messages and dumps: `Profile.Address` rather than
/// `MyApp.Profile.Address`, and `Array<Item>` rather than `Swift.Array<MyApp.Item>`.
///
/// `String(describing:)` drops the enclosing types along with the module (`Address`), which
/// leaves every feature's nested `State` looking alike. This starts from
/// `String(reflecting:)` instead and removes only what is noise in a test failure: module
/// names, and the `(unknown context at $…)` segments of private and local types, whose
/// addresses would also change from run to run.
package enum TypeName {
  /// The name of `type` without module prefixes or unknown-context segments.
  ///
  /// ```swift
  /// TypeName.name(of: Profile.Address.self)  // "Profile.Address"
  /// TypeName.name(of: [Int: Item].self)      // "Dictionary<Int, Item>"
  /// ```
  ///
  /// - Parameter type: Any type, including generic, tuple, function and metatypes.
  /// - Returns: The name with each qualified path stripped of its leading module.
  /// - Complexity: O(*n*), where *n* is the length of the qualified name.
  package static func name(of type: Any.Type) -> String {
    var text = String(reflecting: type)
    text = removingSegments(of: text, opening: "(unknown context at ", closing: ").")
    text = removingSegments(of: text, opening: "(extension in ", closing: "):")
    return removingModules(of: text)
  }

  /// Removes every `opening … closing` run, such as `(unknown context at $10f0c).`.
  private static func removingSegments(
    of text: String,
    opening: String,
    closing: String
  ) -> String {
    var result = ""
    var rest = Substring(text)
    while let start = rest.firstRange(of: opening) {
      result += rest[..<start.lowerBound]
      let afterOpening = rest[start.upperBound...]
      guard let end = afterOpening.firstRange(of: closing) else {
        // Not the pattern after all; keep the opening text and move past it.
        result += rest[start]
        rest = afterOpening
        continue
      }
      rest = afterOpening[end.upperBound...]
    }
    return result + rest
  }

  /// Drops the first component of every dotted path of two or more components.
  ///
  /// In a reflected name each path starts with its module, so `Swift.Int` becomes `Int` and
  /// `App.Profile.Address` becomes `Profile.Address`, while tuple labels (`a: Swift.Int`) and
  /// single identifiers stay as they are.
  private static func removingModules(of text: String) -> String {
    let characters = Array(text)
    var result = ""
    var index = 0
    while index < characters.count {
      guard isIdentifier(characters[index]) else {
        result.append(characters[index])
        index += 1
        continue
      }
      var end = index
      while end < characters.count, isIdentifier(characters[end]) { end += 1 }
      let startsPath = index == 0 || characters[index - 1] != "."
      let continuesPath =
        end + 1 < characters.count && characters[end] == "."
        && isIdentifier(characters[end + 1])
      if startsPath && continuesPath {
        index = end + 1
      } else {
        result += String(characters[index..<end])
        index = end
      }
    }
    return result
  }

  private static func isIdentifier(_ character: Character) -> Bool {
    character == "_" || character.isLetter || character.isNumber
  }
}
