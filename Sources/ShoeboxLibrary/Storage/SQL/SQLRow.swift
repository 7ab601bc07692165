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
        let name = column.lowercased()
        guard let index = columns.firstIndex(of: name) else { return .null }
        return values[index]
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
