import Testing

@testable import StoreTesting

@Suite struct SequenceAlignmentTests {
  typealias Step = SequenceAlignment.Step

  @Test func equalSequencesMatchThroughout() {
    let steps = SequenceAlignment.steps(from: [1, 2, 3], to: [1, 2, 3])
    #expect(steps == [.match(0, 0), .match(1, 1), .match(2, 2)])
  }

  @Test func emptySequences() {
    #expect(SequenceAlignment.steps(from: [Int](), to: []) == [])
    #expect(SequenceAlignment.steps(from: [], to: [7, 8]) == [.insertion(0), .insertion(1)])
    #expect(SequenceAlignment.steps(from: [7, 8], to: []) == [.removal(0), .removal(1)])
  }

  @Test func insertionInTheMiddle() {
    let steps = SequenceAlignment.steps(from: ["a", "b", "c"], to: ["a", "x", "b", "c"])
    #expect(steps == [.match(0, 0), .insertion(1), .match(1, 2), .match(2, 3)])
  }

  @Test func removalsComeBeforeInsertionsInAGap() {
    let steps = SequenceAlignment.steps(from: ["a", "b", "c"], to: ["a", "x", "c"])
    #expect(steps == [.match(0, 0), .removal(1), .insertion(1), .match(2, 2)])
  }

  @Test func findsTheLongestCommonSubsequence() {
    let steps = SequenceAlignment.steps(from: Array("ABCBDAB"), to: Array("BDCABA"))
    let matches = steps.filter { if case .match = $0 { true } else { false } }
    #expect(matches.count == 4)
  }

  @Test(arguments: [
    ([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]),
    ([1, 1, 2, 2], [2, 1, 2, 1]),
    ([9, 8, 7], [1, 9, 2, 7, 3]),
  ])
  func everyIndexAppearsOnceAndInOrder(old: [Int], new: [Int]) {
    let steps = SequenceAlignment.steps(from: old, to: new)
    var oldIndices: [Int] = []
    var newIndices: [Int] = []
    for step in steps {
      switch step {
      case .match(let i, let j):
        #expect(old[i] == new[j])
        oldIndices.append(i)
        newIndices.append(j)
      case .removal(let i): oldIndices.append(i)
      case .insertion(let j): newIndices.append(j)
      }
    }
    #expect(oldIndices == Array(old.indices))
    #expect(newIndices == Array(new.indices))
  }

  @Test func pastTheCellLimitTheMiddleIsReplacedWhole() {
    let steps = SequenceAlignment.steps(from: [0, 1, 2, 9], to: [0, 2, 1, 9], cellLimit: 4)
    #expect(
      steps == [.match(0, 0), .removal(1), .removal(2), .insertion(1), .insertion(2), .match(3, 3)])
  }
}
