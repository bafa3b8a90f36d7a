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

  /// The length of a longest common subsequence, by the textbook table.
  func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in a.indices.reversed() {
      for j in b.indices.reversed() {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    return table[0][0]
  }

  @Test(arguments: 0..<40)
  func matchesALongestCommonSubsequenceOfRandomSequences(seed: Int) {
    var state = UInt64(seed * 7919 + 17)
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let old = (0..<next(30)).map { _ in next(5) }
    let new = (0..<next(30)).map { _ in next(5) }
    let steps = SequenceAlignment.steps(from: old, to: new)
    var (i, j, matches) = (0, 0, 0)
    for step in steps {
      switch step {
      case .match(let oldIndex, let newIndex):
        #expect(oldIndex == i && newIndex == j && old[oldIndex] == new[newIndex])
        (i, j, matches) = (i + 1, j + 1, matches + 1)
      case .removal(let oldIndex):
        #expect(oldIndex == i)
        i += 1
      case .insertion(let newIndex):
        #expect(newIndex == j)
        j += 1
      }
    }
    #expect(i == old.count && j == new.count)
    #expect(matches == lcsLength(old, new))
  }

  @Test func aFewChangesInLongSequencesAreFoundAsSuch() {
    // Changes at both ends and in the middle of 100,000 elements: three differences, not a
    // whole sequence removed and inserted.
    let old = Array(0..<100_000)
    var new = old
    new.removeFirst()
    new[50_000] = -1
    new.append(100_000)
    let changes = SequenceAlignment.steps(from: old, to: new).filter {
      if case .match = $0 { false } else { true }
    }
    #expect(changes == [.removal(0), .removal(50_001), .insertion(50_000), .insertion(99_999)])
  }

  @Test func pastTheCellLimitTheMiddleIsReplacedWhole() {
    let steps = SequenceAlignment.steps(from: [0, 1, 2, 9], to: [0, 2, 1, 9], cellLimit: 1)
    #expect(
      steps == [.match(0, 0), .removal(1), .removal(2), .insertion(1), .insertion(2), .match(3, 3)])
  }
}
