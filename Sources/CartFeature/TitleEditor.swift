import Effects
import Foundation
import Store

/// A modal editor for the cart's title: edits a draft, then reports the result back.
///
/// The editor never writes the cart's title. It edits its own draft and reports
/// ``Action/Delegate/saved(_:)`` or ``Action/Delegate/cancelled`` to its parent, which decides
/// what to do; then it dismisses itself by returning `Effect.dismiss`. The cart presents it
/// with `presents` and a `PresentationAction`, so dismissing it (from here, or by the user
/// swiping the sheet away) clears its state and ends its effects.
///
/// A draft that is empty once trimmed cannot be saved.
public struct TitleEditor: Reducer {
  /// The editor's state: the draft.
  public struct State: Equatable, Sendable, Codable {
    /// The title as edited so far.
    public var draft: String

    /// Creates an editor showing `title`.
    ///
    /// - Parameter title: The current title.
    public init(title: String) {
      self.draft = title
    }

    /// The draft without leading and trailing white space: what saving reports.
    public var trimmedDraft: String {
      draft.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the draft can be saved: it is not empty once trimmed.
    public var isSaveEnabled: Bool {
      !trimmedDraft.isEmpty
    }
  }

  /// What the user can do in the editor, and what it reports.
  public enum Action: Equatable, Sendable, Codable {
    /// The draft was edited.
    case draftChanged(String)
    /// The user tapped Save.
    case saveTapped
    /// The user tapped Cancel.
    case cancelTapped
    /// What the editor reports to its parent.
    case delegate(Delegate)

    /// The editor's reports to its parent.
    public enum Delegate: Equatable, Sendable, Codable {
      /// The user saved this title, trimmed.
      case saved(String)
      /// The user cancelled: the title stays as it was.
      case cancelled
    }
  }

  /// Creates the reducer.
  public init() {}

  /// Edits the draft, or reports the result and dismisses the editor.
  ///
  /// - Parameters:
  ///   - state: The editor's state.
  ///   - action: The user's action.
  /// - Returns: The report followed by the dismissal, or `.none`.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .draftChanged(let draft):
      state.draft = draft
      return .none

    case .saveTapped:
      guard state.isSaveEnabled else { return .none }
      // Report first, then dismiss: the parent handles the result while the editor exists.
      return .concatenate(.send(.delegate(.saved(state.trimmedDraft))), .dismiss)

    case .cancelTapped:
      return .concatenate(.send(.delegate(.cancelled)), .dismiss)

    case .delegate:
      return .none
    }
  }
}
