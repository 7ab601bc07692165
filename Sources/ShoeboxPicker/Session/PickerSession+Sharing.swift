import Foundation
import ShoeboxLibrary
import Synchronization

/// A session's state in a form another process can take over: several servers of one library
/// keep it in the catalog, so that any of them shows, changes and resolves a pick, and a pick
/// outlives the server that began it.
extension PickerSession {
    /// What the user has done so far: the selection, the edits, the album open in the chooser,
    /// and how the session ended, if it has.
    public struct Snapshot: Sendable, Hashable, Codable {
        /// Whether the session is still open (`pending`) or how it ended (`picked`, `cancelled`).
        public enum Outcome: String, Sendable, Hashable, Codable {
            /// `pending` while the session is open; `picked` or `cancelled` once it ended as
            /// ``PickerResult/picked(_:)`` or ``PickerResult/cancelled`` (a restored `picked`
            /// session delivers its picks again).
            case pending, picked, cancelled
        }

        /// The selected items in the order they were selected: asset identifiers and capture ids.
        public var selection: [String]
        /// The edits, by asset identifier or capture id.
        public var edits: [String: PickerEdit]
        /// The identifier of the album open in the chooser; `nil` when none is.
        public var album: String?
        /// Whether the session is open or how it ended.
        public var outcome: Outcome

        /// A snapshot of these values; the defaults are those of a session just opened.
        public init(selection: [String] = [], edits: [String: PickerEdit] = [:], album: String? = nil, outcome: Outcome = .pending) {
            self.selection = selection
            self.edits = edits
            self.album = album
            self.outcome = outcome
        }
    }

    /// Whether another process can take this session over from a ``Snapshot`` (see
    /// ``PickerRequest/isTransferable``).
    public var isTransferable: Bool { request.isTransferable }

    /// The state now.
    public var snapshot: Snapshot {
        let outcome: Snapshot.Outcome =
            switch finishedResult {
            case nil: .pending
            case .cancelled?: .cancelled
            case .picked?: .picked
            }
        let (selection, edits) = state.withLock { ($0.selection, $0.edits) }
        return Snapshot(selection: selection, edits: edits, album: selector?.selectedAlbum?.id, outcome: outcome)
    }

    /// Makes a session again from its identifier, request and snapshot, as another process left
    /// it. A picked session delivers its picks again, into this process's own folder (the files
    /// the first one made are on its machine); a cancelled one is finished.
    ///
    /// - Throws: ``PickerError/Code/invalidState`` for a camera picker (see ``isTransferable``);
    ///   the errors of ``init(request:library:availability:)`` and of delivery.
    public static func restore(
        id: String, createdAt: Date, request: PickerRequest, snapshot: Snapshot, library: PhotoLibrary?,
        availability: PickerAvailability
    ) async throws(PickerError) -> PickerSession {
        guard request.isTransferable else {
            throw PickerError(.invalidState, "a camera picker stays on the server that opened it: its camera and captures are there")
        }
        let session = try await PickerSession(id: id, createdAt: createdAt, request: request, library: library, availability: availability)
        if let album = snapshot.album { try? await session.selector?.selectAlbum(withIdentifier: album) }
        try await session.apply(snapshot)
        return session
    }

    /// Takes on a snapshot another process wrote: its selection and edits (listeners hear of
    /// them), its album, and its outcome (a pick is delivered again here).
    ///
    /// Selected assets that no longer exist are dropped from the selection.
    public func apply(_ snapshot: Snapshot) async throws(PickerError) {
        guard !isFinished else { return }
        let wanted = snapshot.selection.filter { capture($0) == nil }
        var found: [String: Asset] = [:]
        if !wanted.isEmpty, let library {
            do {
                for asset in try await library.fetchAssets(withLocalIdentifiers: wanted).allObjects() { found[asset.localIdentifier] = asset }
            } catch {
                throw PickerError(.library, error.message, underlying: error)
            }
        }
        let (selectionChanged, editsChanged) = state.withLock { state -> (Bool, [String]) in
            let selection = snapshot.selection.filter { found[$0] != nil || state.captures[$0] != nil }
            let changedEdits = Set(state.edits.keys).union(snapshot.edits.keys).filter { state.edits[$0] != snapshot.edits[$0] }
            let selectionChanged = selection != state.selection
            state.selection = selection
            state.selectedAssets = found
            state.edits = snapshot.edits
            return (selectionChanged, changedEdits.sorted())
        }
        if selectionChanged { emit(.selectionChanged(selection)) }
        for item in editsChanged { emit(.editChanged(item)) }
        if let album = snapshot.album, album != selector?.selectedAlbum?.id {
            try? await selector?.selectAlbum(withIdentifier: album)
        }
        switch snapshot.outcome {
        case .pending: break
        case .cancelled: await finish(.cancelled)
        case .picked:
            // Delivered again from the same selection and edits; the process that first
            // delivered them told the library's access log already.
            let infos = try await delivery.deliver(orderedItems(), edits: snapshot.edits, progress: { _ in })
            await finish(.picked(infos))
        }
    }
}

extension PickerRequest {
    /// Whether a session for this request can move between processes: the library sources can;
    /// a camera picker cannot, because its camera and captures are on the machine that opened it.
    public var isTransferable: Bool { sourceType != .camera }
}
