/// Partner sharing (``PartnerShare``): one person's library shared, read-only, with another
/// (`partnerShare`): from which capture date on (none: everything), and whether the partner shows
/// those photos in their own timeline. The same on SQLite and PostgreSQL but for column types;
/// a removed person's shares go with them.
enum PartnerSchema {
    /// `integer`, `date`, `bool`: the engine's column types.
    static func statements(integer: String, date: String, bool: String) -> [String] {
        [
            """
            CREATE TABLE partnerShare (
              ownerID \(integer) NOT NULL REFERENCES person (id) ON DELETE CASCADE,
              partnerID \(integer) NOT NULL REFERENCES person (id) ON DELETE CASCADE,
              startDate \(date),
              inTimeline \(bool) NOT NULL,
              createdDate \(date) NOT NULL,
              PRIMARY KEY (ownerID, partnerID),
              CHECK (ownerID <> partnerID)
            )
            """,
            "CREATE INDEX partnerShare_partner ON partnerShare (partnerID)",
        ]
    }
}
