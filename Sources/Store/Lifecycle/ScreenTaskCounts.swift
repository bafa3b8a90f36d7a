/// How many `Store.runScreen` calls are running for one screen, by lifecycle case: those of
/// one store, or those of every store that a computed view's cache made for one row.
///
/// Overlapping calls are one run of the screen: the first sends `taskStarted`, and the last to
/// end sends `taskEnded`. A row of a filtered view that leaves the view and comes back gets a
/// new store, whose task SwiftUI may start before the old store's task sees its cancellation:
/// counted per store, the new start was refused as a second task, with a runtime warning, and
/// the old end, sent once the row was back in the view, was dropped. The cache hands one count
/// to each store it makes for the row's id while another store's task for it runs.
@MainActor
final class ScreenTaskCounts {
  /// The calls running, by the lifecycle case they were given; no entry for none.
  var counts: [CaseKeyIdentity: Int] = [:]

  /// Whether no call is running.
  var isIdle: Bool { counts.isEmpty }
}
