/// Apps per person: migration v30 (SQLite), pg21 (PostgreSQL). A client is registered for one
/// person, whose library it asks to use: its registration, decisions, tokens, access log,
/// questions and picker sessions carry that person's row id (`personID`; the first admin's, 1,
/// for what a library held before). The same app registered by two people is two registrations,
/// each decided by its own person. Limited selections need no column: they name assets, which
/// are one person's.
enum AppsSchema {
    /// The columns and indexes both engines add alike (`integer`: the engine's integer type).
    static func common(integer: String) -> [String] {
        [
            "ALTER TABLE accessLog ADD COLUMN personID \(integer) NOT NULL DEFAULT 1",
            "DROP INDEX accessLog_client",
            "CREATE INDEX accessLog_client ON accessLog (personID, client, sequence)",
            "ALTER TABLE clientToken ADD COLUMN personID \(integer) NOT NULL DEFAULT 1",
            "ALTER TABLE prompt ADD COLUMN personID \(integer) NOT NULL DEFAULT 1",
            "DROP INDEX prompt_pending",
            // One pending question per person, client and service.
            "CREATE UNIQUE INDEX prompt_pending ON prompt (personID, client, service) WHERE state = 'pending'",
            "ALTER TABLE picker_session ADD COLUMN personID \(integer) NOT NULL DEFAULT 1",
        ]
    }

    /// SQLite cannot change a primary key: `client` and `grant` are made again with the person
    /// in theirs.
    static var sqlite: [String] {
        [
            """
            CREATE TABLE client_v30 (
              personID INTEGER NOT NULL DEFAULT 1,
              identifier TEXT NOT NULL,
              manifest BLOB NOT NULL,
              registeredDate DATETIME NOT NULL,
              PRIMARY KEY (personID, identifier)
            )
            """,
            "INSERT INTO client_v30 (personID, identifier, manifest, registeredDate) SELECT 1, identifier, manifest, registeredDate FROM client",
            "DROP TABLE client",
            "ALTER TABLE client_v30 RENAME TO client",
            """
            CREATE TABLE grant_v30 (
              personID INTEGER NOT NULL DEFAULT 1,
              client TEXT NOT NULL,
              service TEXT NOT NULL,
              status TEXT NOT NULL,
              date DATETIME NOT NULL,
              PRIMARY KEY (personID, client, service)
            )
            """,
            "INSERT INTO grant_v30 (personID, client, service, status, date) SELECT 1, client, service, status, date FROM \"grant\"",
            "DROP TABLE \"grant\"",
            "ALTER TABLE grant_v30 RENAME TO \"grant\"",
        ] + common(integer: "INTEGER")
    }

    static var postgres: [String] {
        [
            "ALTER TABLE client ADD COLUMN personID BIGINT NOT NULL DEFAULT 1",
            "ALTER TABLE client DROP CONSTRAINT client_pkey",
            "ALTER TABLE client ADD PRIMARY KEY (personID, identifier)",
            "ALTER TABLE \"grant\" ADD COLUMN personID BIGINT NOT NULL DEFAULT 1",
            "ALTER TABLE \"grant\" DROP CONSTRAINT grant_pkey",
            "ALTER TABLE \"grant\" ADD PRIMARY KEY (personID, client, service)",
        ] + common(integer: "BIGINT")
    }
}
