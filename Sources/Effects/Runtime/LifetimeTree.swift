/// A lifetime identity that names a place in the state: an element of a collection, an
/// optional child, an enum case, a scope's slice.
///
/// Reducers end an identity's lifetime when they see its state go. An ancestor can remove
/// it where they cannot see (above a `Scope`, say), so after an action that may have done so
/// the root also walks the namespaces of running effects down its state: an identity that is a
/// place finds its state in the state found for the level above it, and when it is gone its
/// lifetime ends. An identity that is not a place (a feature's own `scoped(to:)`) stands for
/// the same state as the level above it.
package protocol LifetimePlace: Sendable {
  /// Whether the place can be gone while the state of the level above is there. A scope's
  /// slice cannot; effects inside places only of that kind never need a walk.
  var canBeGone: Bool { get }

  /// Whether the walk may read the place's key path whenever it likes: only through stored
  /// properties. A computed property or a force unwrap (`\.detail!.rows`) could trap or build
  /// a new value when read while the reducer that owns it does not run, so the walk stops
  /// there (asked once per node by the walk, and once per effect when it starts).
  var isReadable: Bool { get }

  /// For an element of a ``StampedContainer``: the key path, from the state of the level
  /// above, to the container. Sibling elements read it once, and while its stamp is the one
  /// the last walk saw, none of them is looked up again. `nil` for other places, each looked
  /// up by ``locate(inLevel:wantsState:)``.
  var stampedContainer: AnyKeyPath? { get }

  /// For a place that cannot be gone (a scope's slice): the key path from the state of the
  /// level above to the place's state, when it goes through stored properties only; `nil`
  /// otherwise. The store follows the stamped containers it reaches from its root through
  /// such places alone, in place, after every action (see
  /// ``LifetimeTree/storedContainers()``).
  var storedPath: AnyKeyPath? { get }

  /// Finds the place in the state of the level above.
  ///
  /// - Parameters:
  ///   - state: The state of the level above.
  ///   - wantsState: Whether the walk goes on below the place and needs its state.
  /// - Returns: The place's state (when wanted), or whether it is gone.
  func locate(inLevel state: Any, wantsState: Bool) -> PlaceLookup

  /// Finds the place in the value at ``stampedContainer``.
  ///
  /// - Parameters:
  ///   - container: The value at ``stampedContainer``.
  ///   - wantsState: Whether the walk goes on below the place and needs its state.
  /// - Returns: The place's state (when wanted), or whether it is gone.
  func locate(inContainer container: Any, wantsState: Bool) -> PlaceLookup

  /// The identities of the sibling places removed from `container` since it had structure
  /// stamp `stamp`, or `nil` when the container cannot tell.
  func removedSiblings(in container: Any, since stamp: UInt64) -> [EffectID]?

  /// The identities of the sibling places whose state may have changed in `container` since
  /// it had content stamp `stamp`, or `nil` when the container cannot tell.
  func changedSiblings(in container: Any, since stamp: UInt64) -> [EffectID]?

  /// For the runtime warning about an action a child returned as `.send` that was dropped
  /// because another occupant has taken this place since (see
  /// ``EffectRuntime/isStillPlaced(_:in:sending:)``): the place (`the child at
  /// \State.detail`), what has taken it (`another child, with id 2`), and where the reducer
  /// that runs the place was declared, when the identity knows it. Asked only then, off the
  /// hot path.
  ///
  /// - Parameter state: The state of the level above, where the place is now taken over.
  func takeover(inLevel state: Any) -> PlaceTakeover
}

/// A place another occupant has taken, as a runtime warning names it (see
/// ``LifetimePlace/takeover(inLevel:)``).
package struct PlaceTakeover {
  /// The place: `the child at \State.detail`.
  package var place: String
  /// What holds the place now, and how it came to: `another child, with id 2: the child was
  /// replaced, or changed its id`.
  package var newcomer: String
  /// Where the reducer that runs the place was declared, if known.
  package var site: SourceSite?

  /// Creates a takeover as a warning names it.
  package init(place: String, newcomer: String, site: SourceSite? = nil) {
    self.place = place
    self.newcomer = newcomer
    self.site = site
  }
}

extension LifetimePlace {
  package var stampedContainer: AnyKeyPath? { nil }

  package var storedPath: AnyKeyPath? { nil }

  package var isReadable: Bool { true }

  package func locate(inLevel state: Any, wantsState: Bool) -> PlaceLookup {
    guard let key = stampedContainer, let container = state[keyPath: key] else { return .unknown }
    return locate(inContainer: container, wantsState: wantsState)
  }

  package func locate(inContainer container: Any, wantsState: Bool) -> PlaceLookup {
    locate(inLevel: container, wantsState: wantsState)
  }

  package func removedSiblings(in container: Any, since stamp: UInt64) -> [EffectID]? {
    nil
  }

  package func changedSiblings(in container: Any, since stamp: UInt64) -> [EffectID]? {
    nil
  }

  package func takeover(inLevel state: Any) -> PlaceTakeover {
    PlaceTakeover(place: "\(self)", newcomer: "another occupant")
  }
}

/// What a ``LifetimePlace`` found.
package enum PlaceLookup {
  /// The place is there, and this is its state (`nil` when it was not asked for). `token`
  /// names the place's occupant, where the place can change hands: the effects scoped for
  /// another occupant end (a stack screen whose id another screen took, in a stack that
  /// replaced it or pushed after an undo: the token is unique to each push; an `Identifiable`
  /// child replaced by one with another id: the token is the id's hash).
  case present(Any?, token: UInt64? = nil)
  /// The place is gone: its lifetime ends.
  case gone
  /// The state is not of the type the place expects (a child run by hand, without the
  /// reducer that names its place): nothing is known, and the lifetime goes on.
  case unknown
}

extension PlaceLookup {
  /// The place is there, with `state` as its state when `wantsState`. An optional state
  /// that is `nil` stays a value (a child whose own state is optional), not a missing one.
  package static func present<State>(_ state: State, wantsState: Bool, token: UInt64? = nil)
    -> Self
  {
    .present(wantsState ? .some(state as Any) : nil, token: token)
  }
}

/// A container that changes a stamp whenever its set of ids changes. While the stamp is the
/// one a walk saw, every place that walk found in it is still there, and only places added
/// since need looking up.
package protocol StampedContainer {
  /// Changes whenever an id is added or removed; a new container gets a new stamp.
  var structureStamp: UInt64 { get }
  /// Changes whenever an element may have changed; a new container gets a new stamp.
  var contentStamp: UInt64 { get }

  /// Where ``structureStamp`` is stored in a value of this type, in bytes from its start.
  static var structureStampOffset: Int { get }
}

/// The running effects, arranged by the lifetime identities they are scoped to.
///
/// Each node is one namespace; a record sits in the node of its whole namespace and counts in
/// every node above it. Ending a lifetime collects the records below its node; the walk in
/// ``collectGone(from:)`` finds the nodes whose place is gone.
///
/// The walk goes down through places only. An identity that is not a ``LifetimePlace`` (a
/// feature's own `scoped(to:)` around a child it runs by hand) says nothing about where the
/// state below it is, so the walk stops there: a wrong guess would end a child that is still
/// there.
struct LifetimeTree {
  final class Node {
    let id: EffectID?
    let place: (any LifetimePlace)?
    var children: [EffectID: Node] = [:]
    /// Records whose namespace ends here.
    var records: Set<Int> = []
    /// Records here and below.
    var count = 0
    /// Records whose namespace names a place that can be gone strictly below this node, and
    /// that the walk can reach: the walk goes down this node only when there are some.
    var removableBelow = 0
    /// A walk found the place gone and cancelled what runs here; records still finishing
    /// keep the node until they do.
    var isEnded = false
    /// How many records here and below were scoped with each token for this node's place
    /// (the occupant they started for): a walk that finds another occupant there ends the
    /// records of the others, whichever were registered last.
    var tokenCounts: [UInt64: Int] = [:]
    /// The node's depth: the root is at 0, the first identity of a path at 1.
    let depth: Int
    /// Children that are elements of stamped containers, by container.
    var groups: [AnyKeyPath: Group] = [:]
    /// Children that name other places, each looked up on its own.
    var singles: [ObjectIdentifier: Node] = [:]

    /// Whether the walk may read the place (see ``LifetimePlace/isReadable``).
    let isReadable: Bool

    init(id: EffectID?, depth: Int) {
      self.id = id
      self.depth = depth
      let place = id?.base as? any LifetimePlace
      self.place = place
      self.isReadable = place?.isReadable ?? false
    }

    /// Whether the containers and places below this node may be among what
    /// ``LifetimeTree/storedContainers()`` finds: the root's, and a place's that cannot be
    /// gone (a scope's slice). Those below an element, an optional child or a case are not,
    /// and an effect that starts or ends there does not make the store find them again.
    var leadsToStoredContainers: Bool {
      guard let place else { return id == nil }
      return !place.canBeGone
    }

    /// Whether a walk that reaches this node's parent looks it up.
    var needsVisit: Bool {
      guard !isEnded, isReadable, let place else { return false }
      return place.canBeGone || removableBelow > 0
    }
  }

  /// The children of a node found in one container.
  final class Group {
    let container: AnyKeyPath
    /// Whether the walk may read the container (its members' places are readable).
    let isReadable: Bool
    var members: [ObjectIdentifier: Node] = [:]
    /// Members with removable places below them: the walk goes down them whatever the stamp.
    var branches: [ObjectIdentifier: Node] = [:]
    /// Members added, or presented again, since the last walk.
    var unchecked: [ObjectIdentifier: Node] = [:]
    /// The container's stamp when the last walk found every member it did not end.
    var stamp: UInt64?
    /// The container's content stamp when the last walk looked below every branch: while
    /// the container can tell which elements changed since, only their branches are looked
    /// below again (an optional child inside an element goes only with a change to it).
    var contentStamp: UInt64?

    init(container: AnyKeyPath, isReadable: Bool) {
      self.container = container
      self.isReadable = isReadable
    }
  }

  /// How a path's places can be gone, as far as a walk can reach them.
  struct Removability: Sendable {
    /// The index in the path of the deepest place that can be gone and that the walk reaches
    /// (no identity that is not a place comes before it).
    var deepest: Int?
    /// Some such place can be gone without a stamp changing (an optional child, a case):
    /// only a walk after every action finds it.
    var unstamped = false

    init(_ path: [EffectID]) {
      for (index, id) in path.enumerated() {
        guard let place = id.base as? any LifetimePlace, place.isReadable else { break }
        guard place.canBeGone else { continue }
        deepest = index
        if place.stampedContainer == nil { unstamped = true }
      }
    }

    /// Some place on the path can be gone.
    var any: Bool { deepest != nil }

    /// Whether the record counts as removable below the node at `depth` (the root is at 0,
    /// the path's first identity at 1).
    func isBelow(depth: Int) -> Bool {
      guard let deepest else { return false }
      return depth <= deepest
    }
  }

  let root = Node(id: nil, depth: 0)
  /// How many places the last walk looked up: what its cost is proportional to.
  private let walkCount = WalkCount()
  /// Counts the changes to the tree's containers and named places (a member added to a
  /// container that has one already changes nothing): what ``storedContainers()`` finds
  /// holds while it does not move.
  private let shapeCount = WalkCount()

  /// A number that moves whenever what ``storedContainers()`` finds may have changed.
  var shape: Int { shapeCount.places }

  /// The stamped containers with running effects among their elements that the root reaches
  /// through stored properties alone (places that cannot be gone, each with a
  /// ``LifetimePlace/storedPath``), as key paths from the root's state, with the structure
  /// stamp the last walk saw in each.
  ///
  /// An ancestor can set such a container back to an older copy of itself: no stamp is taken
  /// then, so the counter of stamps does not say that a walk is due. The store reads these
  /// containers' stamps where its state keeps them after every action, and walks when one
  /// moved.
  ///
  /// - Complexity: O(*p*) for the containers and named places on the way; elements are not
  ///   visited.
  func storedContainers() -> [(path: AnyKeyPath, seen: UInt64?)] {
    var found: [(path: AnyKeyPath, seen: UInt64?)] = []
    func visit(_ node: Node, below prefix: AnyKeyPath?) {
      for group in node.groups.values where group.isReadable {
        if let path = prefix.map({ $0.appending(path: group.container) }) ?? group.container {
          found.append((path, group.stamp))
        }
      }
      for child in node.singles.values where child.removableBelow > 0 {
        guard let place = child.place, !place.canBeGone, let step = place.storedPath,
          let path = prefix.map({ $0.appending(path: step) }) ?? step
        else { continue }
        visit(child, below: path)
      }
    }
    visit(root, below: nil)
    return found
  }

  final class WalkCount {
    var places = 0
  }

  /// How many nodes the tree holds, its root included (for tests).
  ///
  /// - Complexity: O(*n*) for the *n* nodes.
  var nodeCount: Int {
    func count(_ node: Node) -> Int {
      node.children.values.reduce(1) { $0 + count($1) }
    }
    return count(root)
  }

  /// How many records the tree keeps the occupant tokens of (for tests).
  var scopedRecordCount: Int { tokenTable.byRecord.count }

  /// How many places the last ``collectGone(from:)`` looked up.
  var placesLookedUpByLastWalk: Int { walkCount.places }
  /// The tokens each record was scoped with, for the records scoped with any.
  private let tokenTable = TokenTable()

  final class TokenTable {
    var byRecord: [Int: [UInt64?]] = [:]
  }

  /// Adds `record` at `path`. `tokens` name, for each identity of the path, the occupant of
  /// its place the record belongs to (`nil` where unknown or where places do not change
  /// hands).
  ///
  /// - Complexity: O(*d*) for a path of *d* identities.
  func insert(
    _ record: Int, at path: [EffectID], tokens: [UInt64?], _ removability: Removability
  ) {
    if tokens.contains(where: { $0 != nil }) { tokenTable.byRecord[record] = tokens }
    var node = root
    node.count += 1
    if removability.isBelow(depth: 0) { node.removableBelow += 1 }
    for (index, id) in path.enumerated() {
      let child: Node
      if let existing = node.children[id] {
        child = existing
        if child.isEnded {
          // Presented again: its place is looked up again at the next walk.
          child.isEnded = false
          node.markUnchecked(child)
        }
      } else {
        child = Node(id: id, depth: index + 1)
        if node.adopt(child), node.leadsToStoredContainers { shapeCount.places += 1 }
      }
      if index < tokens.count, let token = tokens[index] {
        child.tokenCounts[token, default: 0] += 1
      }
      child.count += 1
      if removability.isBelow(depth: index + 1) {
        child.removableBelow += 1
        if child.removableBelow == 1 { node.noteBranch(child, isBranch: true) }
      }
      node = child
    }
    node.records.insert(record)
  }

  /// Removes `record` from `path`, and the nodes left empty.
  ///
  /// - Returns: Whether the record was there.
  /// - Complexity: O(*d*) for a path of *d* identities.
  func remove(_ record: Int, at path: [EffectID], _ removability: Removability) -> Bool {
    var nodes = [root]
    nodes.reserveCapacity(path.count + 1)
    for id in path {
      guard let child = nodes[nodes.count - 1].children[id] else { return false }
      nodes.append(child)
    }
    guard nodes[nodes.count - 1].records.remove(record) != nil else { return false }
    if let recordTokens = tokenTable.byRecord.removeValue(forKey: record) {
      for (index, token) in recordTokens.enumerated() where index + 1 < nodes.count {
        guard let token else { continue }
        let node = nodes[index + 1]
        node.tokenCounts[token, default: 0] -= 1
        if node.tokenCounts[token] == 0 { node.tokenCounts[token] = nil }
      }
    }
    for (depth, node) in nodes.enumerated() {
      node.count -= 1
      guard removability.isBelow(depth: depth) else { continue }
      node.removableBelow -= 1
      if node.removableBelow == 0, depth > 0 { nodes[depth - 1].noteBranch(node, isBranch: false) }
    }
    for depth in stride(from: nodes.count - 1, to: 0, by: -1) where nodes[depth].count == 0 {
      if nodes[depth - 1].release(nodes[depth]), nodes[depth - 1].leadsToStoredContainers {
        shapeCount.places += 1
      }
    }
    return true
  }

  /// The node at `path`, if something runs there.
  func node(at path: [EffectID]) -> Node? {
    var node = root
    for id in path {
      guard let child = node.children[id] else { return nil }
      node = child
    }
    return node
  }

  /// Where the lifetime of `identity` runs, for a reducer whose places are `path`:
  /// `path + [identity]`, and the same inside each span of time right below `path`
  /// (``PlacelessLifetime``: a screen's task, in which the hooks' work runs). A lifetime the
  /// feature scopes its own work to is the feature's, in its hooks or not, as its
  /// cancellation ids are: ending it ends all of that work.
  ///
  /// - Complexity: O(*d* + *s*) for a path of *d* identities whose node has *s* children
  ///   that name places other than container elements (rows are not looked at).
  func paths(of identity: EffectID, at path: [EffectID]) -> [[EffectID]] {
    var paths = [path + [identity]]
    guard let node = node(at: path) else { return paths }
    for child in node.singles.values {
      guard let span = child.id, span.base is any PlacelessLifetime, span != identity else {
        continue
      }
      paths.append(path + [span, identity])
    }
    return paths
  }

  /// Ends the lifetime at `path` and the ones nested in it.
  ///
  /// - Returns: The records to cancel.
  func end(at path: [EffectID]) -> [Int] {
    guard let node = node(at: path) else { return [] }
    var ids: [Int] = []
    end(node, gone: &ids)
    return ids
  }

  /// Ends the effects scoped at `path` for an occupant of its place other than `token`, and
  /// the ones nested in them; the occupant with `token` keeps its lifetime.
  ///
  /// - Returns: The records to cancel.
  func end(at path: [EffectID], otherThan token: UInt64) -> [Int] {
    guard let node = node(at: path), node.tokenCounts.contains(where: { $0.key != token })
    else { return [] }
    var ids: [Int] = []
    collect(below: node, scopedAtDepth: node.depth, otherThan: token, into: &ids)
    return ids
  }

  /// Ends the lifetimes one level below `path` that `isAlive` does not keep, and the ones
  /// nested in them.
  ///
  /// - Returns: The records to cancel.
  func end(below path: [EffectID], exceptChildren isAlive: (EffectID) -> Bool) -> [Int] {
    guard let node = node(at: path) else { return [] }
    var ids: [Int] = []
    for (id, child) in node.children where !isAlive(id) { end(child, gone: &ids) }
    return ids
  }

  /// Collects the records at `node` and below whose token for the place at `depth` is set
  /// and is not `token`.
  private func collect(
    below node: Node, scopedAtDepth depth: Int, otherThan token: UInt64, into gone: inout [Int]
  ) {
    for record in node.records {
      guard let recordTokens = tokenTable.byRecord[record], depth - 1 < recordTokens.count,
        let own = recordTokens[depth - 1], own != token
      else { continue }
      gone.append(record)
    }
    for child in node.children.values {
      collect(below: child, scopedAtDepth: depth, otherThan: token, into: &gone)
    }
  }

  /// Marks `node` and the nodes below it as ended, and collects their records. A node stays
  /// until its records finish; an effect that starts in it meanwhile (the identity presented
  /// again) revives it, and its place is then looked at afresh.
  private func end(_ node: Node, gone: inout [Int]) {
    node.isEnded = true
    gone.append(contentsOf: node.records)
    for child in node.children.values { end(child, gone: &gone) }
  }

  /// Whether every place of `path` is in `state` (the root's state), with the occupant
  /// `tokens` name where they name one. Places that cannot be read, and identities that are
  /// not places, count as there (nothing is known below them). With `goneCounts` false, only
  /// another occupant in a place counts: a place that is gone counts as there.
  ///
  /// - Complexity: O(*d*) for a path of *d* identities.
  static func isPlaced(
    _ path: [EffectID], tokens: [UInt64?], in root: Any, goneCounts: Bool = true
  ) -> Bool {
    var state = root
    for (index, id) in path.enumerated() {
      guard let place = id.base as? any LifetimePlace, place.isReadable else { return true }
      switch place.locate(inLevel: state, wantsState: true) {
      case .gone:
        return !goneCounts
      case .unknown:
        return true
      case .present(let next, let token):
        if let token, index < tokens.count, let own = tokens[index], own != token {
          return false
        }
        guard let next else { return true }
        state = next
      }
    }
    return true
  }

  /// The first place of `path` that another occupant than the one `tokens` names has taken,
  /// with the state of the level above it, where ``isPlaced(_:tokens:in:goneCounts:)`` with
  /// `goneCounts` false finds one: `nil` when it finds none.
  ///
  /// - Complexity: O(*d*) for a path of *d* identities.
  static func takenOverPlace(_ path: [EffectID], tokens: [UInt64?], in root: Any)
    -> (place: any LifetimePlace, level: Any)?
  {
    var state = root
    for (index, id) in path.enumerated() {
      guard let place = id.base as? any LifetimePlace, place.isReadable else { return nil }
      switch place.locate(inLevel: state, wantsState: true) {
      case .gone, .unknown:
        return nil
      case .present(let next, let token):
        if let token, index < tokens.count, let own = tokens[index], own != token {
          return (place, state)
        }
        guard let next else { return nil }
        state = next
      }
    }
    return nil
  }

  /// Walks the running effects' places down `state` (the root's state), marks the ones that
  /// are gone as ended, and returns the records inside them.
  ///
  /// - Complexity: O(*v*) for the *v* nodes visited: every scope, optional child and case
  ///   with effects that can end, and of a collection's elements with effects only those
  ///   added since the last walk, those removed from the collection since (as its history
  ///   tells), and those changed since (as its content history tells) with optional
  ///   children, cases or collections of their own with effects. (All of them when a history
  ///   cannot tell: the collection was replaced by another, or changed more than it holds.)
  func collectGone(from state: Any) -> [Int] {
    var gone: [Int] = []
    walkCount.places = 0
    walk(root, state: state, gone: &gone)
    return gone
  }

  private func walk(_ node: Node, state: Any, gone: inout [Int]) {
    for child in node.singles.values where child.needsVisit {
      let lookup = child.place!.locate(inLevel: state, wantsState: child.removableBelow > 0)
      resolve(child, lookup, gone: &gone)
    }
    for group in node.groups.values where group.isReadable {
      // A container that is not there, or a state of another type: nothing is known.
      guard let container = state[keyPath: group.container] else { continue }
      let stamped = container as? any StampedContainer
      let stamp = stamped?.structureStamp
      if let stamp, let seen = group.stamp,
        let removed = removedMembers(of: node, group, in: container, since: seen, now: stamp)
      {
        for child in removed { visit(child, in: container, gone: &gone) }
        for child in group.unchecked.values { visit(child, in: container, gone: &gone) }
        if let changed = changedBranches(of: node, group, in: container, now: stamped) {
          for child in changed { visit(child, in: container, gone: &gone) }
        } else {
          for child in group.branches.values { visit(child, in: container, gone: &gone) }
        }
      } else {
        for child in group.members.values { visit(child, in: container, gone: &gone) }
      }
      group.stamp = stamp
      group.contentStamp = stamped?.contentStamp
      group.unchecked.removeAll(keepingCapacity: true)
    }
  }

  /// The members of `group` removed from its container since stamp `seen`, if the container
  /// can tell; none when the stamp is unchanged.
  private func removedMembers(
    of node: Node, _ group: Group, in container: Any, since seen: UInt64, now: UInt64
  ) -> [Node]? {
    if now == seen { return [] }
    guard let sample = group.members.values.first?.place,
      let removed = sample.removedSiblings(in: container, since: seen)
    else { return nil }
    return removed.compactMap { node.children[$0] }
  }

  /// The branches of `group` (members with removable places below them) whose elements may
  /// have changed since the last walk, if the container can tell; none when its content stamp
  /// is unchanged. A walk after an action to one row of many, each with a sheet whose effects
  /// run, looks below that row alone.
  private func changedBranches(
    of node: Node, _ group: Group, in container: Any, now stamped: (any StampedContainer)?
  ) -> [Node]? {
    guard let seen = group.contentStamp, let now = stamped?.contentStamp else { return nil }
    if now == seen || group.branches.isEmpty { return [] }
    guard let sample = group.members.values.first?.place,
      let changed = sample.changedSiblings(in: container, since: seen)
    else { return nil }
    return changed.compactMap { id in
      node.children[id].flatMap { group.branches[ObjectIdentifier($0)] }
    }
  }

  private func visit(_ child: Node, in container: Any, gone: inout [Int]) {
    guard child.needsVisit else { return }
    let lookup = child.place!.locate(inContainer: container, wantsState: child.removableBelow > 0)
    resolve(child, lookup, gone: &gone)
  }

  private func resolve(_ child: Node, _ lookup: PlaceLookup, gone: inout [Int]) {
    walkCount.places += 1
    switch lookup {
    case .present(let state, let token):
      if let token, child.tokenCounts.contains(where: { $0.key != token }) {
        // Another occupant holds the place: the records scoped for earlier ones end.
        collect(below: child, scopedAtDepth: child.depth, otherThan: token, into: &gone)
      }
      if let state { walk(child, state: state, gone: &gone) }
    case .gone:
      end(child, gone: &gone)
    case .unknown:
      return
    }
  }
}

extension LifetimeTree.Node {
  /// Adds `child`.
  ///
  /// - Returns: Whether a container or a named place was added (see
  ///   ``LifetimeTree/shape``).
  func adopt(_ child: LifetimeTree.Node) -> Bool {
    guard let id = child.id else { return false }
    children[id] = child
    let key = ObjectIdentifier(child)
    guard let place = child.place else { return false }
    guard let container = place.stampedContainer else {
      singles[key] = child
      return true
    }
    let group: LifetimeTree.Group
    var isNew = false
    if let existing = groups[container] {
      group = existing
    } else {
      group = LifetimeTree.Group(container: container, isReadable: child.isReadable)
      groups[container] = group
      isNew = true
    }
    group.members[key] = child
    group.unchecked[key] = child
    return isNew
  }

  /// Removes `child`.
  ///
  /// - Returns: Whether a container or a named place was removed (see
  ///   ``LifetimeTree/shape``).
  func release(_ child: LifetimeTree.Node) -> Bool {
    guard let id = child.id else { return false }
    children[id] = nil
    let key = ObjectIdentifier(child)
    guard let place = child.place else { return false }
    guard let container = place.stampedContainer else {
      singles[key] = nil
      return true
    }
    guard let group = groups[container] else { return false }
    group.members[key] = nil
    group.branches[key] = nil
    group.unchecked[key] = nil
    guard group.members.isEmpty else { return false }
    groups[container] = nil
    return true
  }

  func markUnchecked(_ child: LifetimeTree.Node) {
    guard let container = child.place?.stampedContainer else { return }
    groups[container]?.unchecked[ObjectIdentifier(child)] = child
  }

  /// Records whether `child` has removable places below it.
  func noteBranch(_ child: LifetimeTree.Node, isBranch: Bool) {
    guard let container = child.place?.stampedContainer, let group = groups[container] else {
      return
    }
    group.branches[ObjectIdentifier(child)] = isBranch ? child : nil
  }
}
