import Foundation
import ShoeboxImaging

/// Picker sessions in the catalog's `picker_session` table (see ``PickerSessionRecord``).
extension SQLCatalogStore {
    func addPickerSession(_ record: PickerSessionRecord) async throws(LibraryError) {
        let now = Date()
        try await write { db in
            try await db.execute(
                """
                DELETE FROM picker_session
                WHERE (finished AND updatedDate < \(now.addingTimeInterval(-PickerSessionRecord.finishedRetention)))
                   OR updatedDate < \(now.addingTimeInterval(-PickerSessionRecord.abandonedRetention))
                """)
            try await db.execute(
                """
                INSERT INTO picker_session (id, owner, personID, request, state, version, finished, createdDate, updatedDate)
                VALUES (\(record.id), \(record.owner), \(record.personID), \(record.request), \(record.state), \(record.version), \(record.isFinished),
                        \(record.createdDate), \(record.updatedDate))
                """)
            try await Self.logEntries([(PickerSessionRecord.changeKind, record.id, self.writer)], in: db, now: now)
        }
    }

    func pickerSession(id: String) async throws(LibraryError) -> PickerSessionRecord? {
        try await read { db in
            try await db.query("SELECT * FROM picker_session WHERE id = \(id)").first.map(Self.pickerSession(from:))
        }
    }

    func pickerSessions(updatedAfter date: Date) async throws(LibraryError) -> [PickerSessionRecord] {
        try await read { db in
            try await db.query("SELECT * FROM picker_session WHERE updatedDate > \(date) ORDER BY createdDate, id").map(Self.pickerSession(from:))
        }
    }

    func updatePickerSession(id: String, state: Data, finished: Bool, over version: Int) async throws(LibraryError) -> Int? {
        let now = Date()
        return try await write { db in
            let changed = try await db.execute(
                """
                UPDATE picker_session SET state = \(state), finished = \(finished), version = version + 1, updatedDate = \(now)
                WHERE id = \(id) AND version = \(version) AND NOT finished
                """)
            guard changed > 0 else { return nil }
            // Other servers' registries wake on the entry (on PostgreSQL by its NOTIFY).
            try await Self.logEntries([(PickerSessionRecord.changeKind, id, self.writer)], in: db, now: now)
            return version + 1
        }
    }

    static func pickerSession(from row: SQLRow) -> PickerSessionRecord {
        PickerSessionRecord(
            id: row["id"], owner: row["owner"], personID: row["personID"], request: row["request"], state: row["state"], version: row["version"],
            isFinished: row["finished"], createdDate: row["createdDate"], updatedDate: row["updatedDate"])
    }
}
