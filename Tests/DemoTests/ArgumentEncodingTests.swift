import Foundation
import Testing

@testable import demo

/// An argument whose bytes are not UTF-8 (a file named in Latin-1) reached the commands with
/// those bytes read as U+FFFD: `verify` said that a file that exists did not, and `record`
/// created (or would have overwritten) a file of another name (demo hunt).
@MainActor
@Suite final class ArgumentEncodingTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("demo-argument-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// Runs the demo on `arguments` given as bytes, as a process gets them.
  func run(_ arguments: [[UInt8]], output: Output) async -> Int32 {
    let pointers = arguments.map { bytes in
      let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
      for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
      pointer[bytes.count] = 0
      return pointer
    }
    defer { pointers.forEach { $0.deallocate() } }
    return await Demo.run(cArguments: pointers.map { UnsafePointer($0) }, output: output)
  }

  @Test func anArgumentThatIsNotUTF8IsRefusedAndNoFileIsWritten() async throws {
    let output = Output(capturing: true)
    let path = Array(directory.path.utf8) + Array("/rec".utf8) + [0xFE] + Array(".jsonl".utf8)
    #expect(await run([Array("record".utf8), Array("--out".utf8), path], output: output) == 2)
    let message = try #require(output.captured?.first)
    #expect(
      message.hasPrefix(
        #"demo: argument 3, "\#(directory.path)/rec\#u{FFFD}.jsonl", holds bytes that are not UTF-8 text"#
      ), "\(message)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  /// Control: arguments in UTF-8, outside ASCII too, reach the command as they are.
  @Test func argumentsInUTF8ReachTheCommand() async throws {
    let output = Output(capturing: true)
    let path = directory.appendingPathComponent("récit 😀.jsonl").path
    #expect(
      await run([Array("record".utf8), Array("--out".utf8), Array(path.utf8)], output: output) == 0)
    #expect(FileManager.default.fileExists(atPath: path))
  }
}
