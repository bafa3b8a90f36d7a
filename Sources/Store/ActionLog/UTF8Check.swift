/// Where a line stops being UTF-8.
///
/// A log is UTF-8 text. `JSONDecoder` refuses invalid UTF-8 in a string it decodes (a key, a
/// value the types read), but not in the value of a field no type reads, and the replay's
/// own scans would repair it into U+FFFD, so that two different damaged keys read as one:
/// every line is checked whole, before anything else reads it.
enum UTF8Check {
  /// The offset of the first byte of `bytes` that does not start a well-formed UTF-8
  /// sequence (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF, no sequence
  /// cut short), or `nil` when all of `bytes` is UTF-8.
  ///
  /// - Complexity: O(*n*) for *n* bytes, read eight at a time while they are ASCII.
  static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var index = 0
    while index < count {
      while index + 8 <= count,
        base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
      }
      guard index < count else { break }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // The sequence's length, and the range of its second byte (narrower after E0, ED, F0
      // and F4, which rules out overlong forms, surrogates and scalars past U+10FFFF).
      let length: Int
      var second: ClosedRange<UInt8> = 0x80...0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, second) = (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, second) = (3, 0x80...0x9F)
      case 0xF0: (length, second) = (4, 0x90...0xBF)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, second) = (4, 0x80...0x8F)
      default: return index
      }
      guard index + length <= count, second.contains(bytes[index + 1]) else { return index }
      for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
        return index
      }
      index += length
    }
    return nil
  }
}
