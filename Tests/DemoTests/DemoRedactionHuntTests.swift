import Foundation
import Testing

@testable import demo

/// The demo never prints a secret: not even one written into a log by hand as a value that
/// is not a string, which the replay refuses.
@MainActor
@Suite final class DemoRedactionHuntTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("demo-redaction-hunt-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// The bundled sample with `old` replaced by `new`, written to a file of the suite's.
  func sample(replacing old: String, with new: String) throws -> String {
    let text = try String(contentsOfFile: DemoTests.samplePath, encoding: .utf8)
    #expect(text.contains(old))
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    try Data(text.replacingOccurrences(of: old, with: new).utf8)
      .write(to: URL(fileURLWithPath: file))
    return file
  }

  /// A password written in as a number was refused with "found the number 98765".
  @Test(arguments: ["replay", "verify"])
  func aPasswordWrittenInAsANumberIsRefusedWithoutBeingPrinted(command: String) async throws {
    let file = try sample(
      replacing: #""passwordChanged":{"_0":"<redacted>"}"#,
      with: #""passwordChanged":{"_0":98765}"#)
    let output = Output(capturing: true)
    #expect(await Demo.run([command, file], output: output) == 2)
    let printed = (output.captured ?? []).joined(separator: "\n")
    #expect(!printed.contains("98765"), "\(printed)")
    // After the timeline of the actions before it, for replay.
    #expect(
      output.captured?.last
        == """
        demo: \(file): Line 10: expected a Secret<String> ("<redacted>", or its value) at \
        action.account._0.passwordChanged._0, found a number, not shown: where a Secret goes, \
        it may be the secret.
        """)
  }

  /// The same in the header's initial state, whose error names the header.
  @Test func aPasswordWrittenInAsANumberInTheHeaderIsRefusedWithoutBeingPrinted() async throws {
    let file = try sample(
      replacing:
        #""form":{"password":"<redacted>","username":""},"isSigningIn":false,"lifecycle":{"hasGainedFocus":false,"hasStarted":false"#,
      with:
        #""form":{"password":1234,"username":""},"isSigningIn":false,"lifecycle":{"hasGainedFocus":false,"hasStarted":false"#
    )
    let output = Output(capturing: true)
    #expect(await Demo.run(["verify", file], output: output) == 2)
    let printed = (output.captured ?? []).joined(separator: "\n")
    #expect(!printed.contains("1234"), "\(printed)")
    #expect(printed.contains("Line 1: not a valid log header"), "\(printed)")
    #expect(printed.contains("initialState.account.form.password"), "\(printed)")
  }

  /// A password written in as plain text is used, and the warning names where, not what.
  @Test func aPasswordWrittenInAsTextIsWarnedOfWithoutBeingPrinted() async throws {
    let file = try sample(
      replacing: #""passwordChanged":{"_0":"<redacted>"}"#,
      with: #""passwordChanged":{"_0":"hunter2"}"#)
    let output = Output(capturing: true)
    #expect(await Demo.run(["replay", file], output: output) == 0)
    let printed = (output.captured ?? []).joined(separator: "\n")
    #expect(!printed.contains("hunter2"), "\(printed)")
    #expect(printed.contains(#"#    9  user    account.passwordChanged("<redacted>")"#))
    #expect(printed.contains("a Secret holds a value instead of the placeholder"))
  }
}
