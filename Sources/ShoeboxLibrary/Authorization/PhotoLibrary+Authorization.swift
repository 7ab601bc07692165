import Foundation

/// What a library's client may read.
enum ReadScope: Sendable {
    /// Everything: Shoebox's own tools, or a client with full read-write access.
    case all
    /// What the client created or the user shared with it.
    case limited(client: String)
}

extension PhotoLibrary {
    /// Checks that this library's client may read, and says what it may see. Read each time, so
    /// a decision changed in Settings › Privacy applies at once.
    func readScope() throws(LibraryError) -> ReadScope {
        guard let client = clientIdentifier else { return .all }
        let service = Authorization.Service.photoLibrary(.readWrite)
        switch try Authorization.status(for: service, client: client, in: self) {
        case .authorized: return .all
        case .limited: return .limited(client: client)
        case let status: throw .authorization(.notAuthorized(client: client, service: service, status: status))
        }
    }

    /// `options` narrowed to what this library's client may see.
    func scoped(_ options: FetchOptions) throws(LibraryError) -> FetchOptions {
        var scoped = options
        if case .limited(let client) = try readScope() { scoped.visibleToClient = client }
        return scoped
    }

    /// The current row of an asset this library's client may read (the gate for pixels, data
    /// and editing input). Logs the read as `action`.
    func authorizedAsset(_ localIdentifier: String, action: String) throws(LibraryError) -> Asset {
        let scope = try readScope()
        guard let asset = try catalog.asset(localIdentifier: localIdentifier), try isVisible(asset, in: scope) else {
            throw .notFound(localIdentifier: localIdentifier)
        }
        log(action, localIdentifier)
        return asset
    }

    func isVisible(_ asset: Asset, in scope: ReadScope) throws(LibraryError) -> Bool {
        switch scope {
        case .all: return true
        case .limited(let client):
            if asset.creatorClient == client { return true }
            return try catalog.limitedSelection(client: client).contains(asset.localIdentifier)
        }
    }

    /// Checks a change against this library's client's access: creating needs read-write
    /// (authorized or limited) or add-only; anything else needs read-write, and with limited
    /// access may touch only assets the client may see.
    func authorizeChanges(_ recorded: [ChangeTransaction.Request]) throws(LibraryError) {
        guard let client = clientIdentifier else { return }
        var touched: [String] = []
        var createsOnly = true
        var placeholders = Set<String>()
        for request in recorded {
            switch request {
            case .asset(let asset):
                switch asset.kind {
                case .create:
                    if let placeholder = asset.placeholderForCreatedAsset { placeholders.insert(placeholder.localIdentifier) }
                case .modify(let identifier):
                    createsOnly = false
                    touched.append(identifier)
                case .delete(let identifiers), .restore(let identifiers), .purge(let identifiers):
                    createsOnly = false
                    touched += identifiers
                }
            case .collection(let collection):
                createsOnly = false
                for case .add(let identifiers) in collection.recordedOperations { touched += identifiers }
                for case .remove(let identifiers) in collection.recordedOperations { touched += identifiers }
            }
        }
        let readWrite = Authorization.Service.photoLibrary(.readWrite)
        let readWriteStatus = try Authorization.status(for: readWrite, client: client, in: self)
        if createsOnly {
            let addOnly = Authorization.Service.photoLibrary(.addOnly)
            let addStatus = try Authorization.status(for: addOnly, client: client, in: self)
            guard addStatus == .authorized || readWriteStatus == .authorized || readWriteStatus == .limited else {
                throw .authorization(.notAuthorized(client: client, service: addOnly, status: addStatus))
            }
            return
        }
        switch readWriteStatus {
        case .authorized:
            return
        case .limited:
            let selection = Set(try catalog.limitedSelection(client: client))
            for identifier in touched where !placeholders.contains(identifier) && !selection.contains(identifier) {
                guard let asset = try catalog.asset(localIdentifier: identifier), asset.creatorClient == client else {
                    throw .authorization(.notAuthorized(client: client, service: readWrite, status: .limited))
                }
            }
        case let status:
            throw .authorization(.notAuthorized(client: client, service: readWrite, status: status))
        }
    }

    /// Records what this library's client did (Shoebox's own tools are not logged). Logging
    /// never fails the operation it records.
    func log(_ action: String, _ localIdentifier: String, detail: String? = nil) {
        logAll([(action, localIdentifier, detail)])
    }

    ///
    /// Entries are buffered and written at most every half second (or every 200 entries, and
    /// when the library object goes away), so that a grid of thumbnails does not cost a catalog
    /// commit per image.
    func logAll(_ entries: [(action: String, localIdentifier: String, detail: String?)]) {
        guard let client = clientIdentifier, !entries.isEmpty else { return }
        let now = Date()
        let (count, schedule) = accessLogBuffer.withLock { buffer -> (Int, Bool) in
            buffer.entries += entries.map {
                AccessLogEntry(date: now, client: client, action: $0.action, localIdentifier: $0.localIdentifier, detail: $0.detail)
            }
            defer { buffer.flushScheduled = true }
            return (buffer.entries.count, !buffer.flushScheduled)
        }
        if count >= 200 {
            flushAccessLog()
        } else if schedule {
            Task.detached { [weak self] in
                try? await Task.sleep(for: .milliseconds(500))
                self?.flushAccessLog()
            }
        }
    }

    /// Records in the access log that the user handed these assets to `client` through the
    /// picker (action `picked`): the picker needs no library grant, and the privacy report still
    /// shows what the client received.
    public func logPickerDelivery(of localIdentifiers: [String], to client: String) {
        let now = Date()
        let entries = localIdentifiers.map {
            AccessLogEntry(date: now, client: client, action: "picked", localIdentifier: $0, detail: nil)
        }
        try? catalog.logAccess(entries)
    }

    /// Writes buffered access-log entries now.
    public func flushAccessLog() {
        let entries = accessLogBuffer.withLock { buffer in
            defer { buffer.entries.removeAll(); buffer.flushScheduled = false }
            return buffer.entries
        }
        try? catalog.logAccess(entries)
    }
}

/// Access-log entries waiting to be written.
struct AccessLogBuffer: Sendable {
    var entries: [AccessLogEntry] = []
    var flushScheduled = false
}

extension PhotoLibrary {
    /// The asset, if this library's client may read it; the read is recorded in the access log
    /// under `action` (`original`, `video`, `thumbnail`, …). For servers that send an asset's
    /// files themselves.
    ///
    /// - Throws: ``LibraryError/authorization(_:)`` when the client may not read the library;
    ///   ``LibraryError/notFound(localIdentifier:)`` for an unknown asset or one outside a
    ///   limited selection.
    public func readableAsset(withLocalIdentifier identifier: String, action: String) throws(LibraryError) -> Asset {
        try authorizedAsset(identifier, action: action)
    }
}
