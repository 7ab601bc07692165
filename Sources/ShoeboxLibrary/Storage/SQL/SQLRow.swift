import Foundation

/// A row a query returned, its columns named in lower case (PostgreSQL folds unquoted names;
/// SQLite keeps them: the catalog reads both the same way).
package struct SQLRow: Sendable {
    /// The column names, lower-cased, in order.
    package let columns: [String]
    /// The values, in column order.
    package let values: [SQLValue]

    /// A row of `values` under `columns`, which the driver gives lower-cased.
    package init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The raw value of a column (`.null` when there is no such column).
    package func value(_ column: String) -> SQLValue {
        guard let index = index(of: column) else { return .null }
        return values[index]
    }

    /// Where `column` is, its ASCII letters matched in any case (the catalog's names are ASCII),
    /// without making a lower-cased copy: a page of 200 assets reads 12,000 values by name.
    private func index(of column: String) -> Int? {
        var wanted = column
        return wanted.withUTF8 { want in
            for (index, name) in columns.enumerated() where name.utf8.count == want.count {
                let same =
                    name.utf8.withContiguousStorageIfAvailable { have in
                        for position in 0..<want.count {
                            let byte = want[position]
                            if have[position] != (byte >= 65 && byte <= 90 ? byte + 32 : byte) { return false }
                        }
                        return true
                    } ?? (name == column.lowercased())
                if same { return index }
            }
            return nil
        }
    }

    /// A column read as `T`. A value that cannot be read as `T` stops the program: the catalog's
    /// schema decides the columns' types, so a mismatch is a programmer error.
    package subscript<T: SQLReadable>(_ column: String) -> T {
        let raw = value(column)
        guard let value = T(sqlValue: raw) else {
            preconditionFailure("the catalog column \(column) holds \(raw), which is not a \(T.self)")
        }
        return value
    }
}
