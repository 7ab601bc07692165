import Foundation

/// A statement with its arguments, written once for every engine: placeholders are `?` (each
/// ``SQLDriver`` rewrites them as its engine wants) and interpolated values are bound, never
/// spliced into the text.
///
/// ```swift
/// let statement: SQLStatement = "SELECT id FROM asset WHERE localIdentifier = \(identifier)"
/// ```
package struct SQLStatement: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The text, with `?` for each argument.
    package private(set) var text: String
    /// The values bound to the `?` placeholders, one each, in order.
    package private(set) var arguments: [SQLValue]

    /// A statement of `text` whose `?` placeholders take `arguments`, in order.
    package init(_ text: String, arguments: [SQLValue] = []) {
        self.text = text
        self.arguments = arguments
    }

    /// A statement without arguments: the literal is its text as it is.
    package init(stringLiteral value: String) {
        self.init(value)
    }

    /// The statement an interpolated literal built: each interpolated value bound as a `?`.
    package init(stringInterpolation: StringInterpolation) {
        self.init(stringInterpolation.text, arguments: stringInterpolation.arguments)
    }

    /// The text with its `?` placeholders: argument values never appear, so it is safe to log.
    package var description: String { text }

    /// Appends another statement's text and arguments.
    package mutating func append(_ other: SQLStatement) {
        text += other.text
        arguments += other.arguments
    }

    /// `parts` joined by `separator` (`AND`, `, `…).
    package static func joined(_ parts: [SQLStatement], separator: String) -> SQLStatement {
        var result = SQLStatement("")
        for (index, part) in parts.enumerated() {
            if index > 0 { result.text += separator }
            result.append(part)
        }
        return result
    }

    /// The text with `$1, $2, …` for the placeholders (PostgreSQL's style).
    var numberedText: String {
        var result = ""
        result.reserveCapacity(text.utf8.count + arguments.count * 2)
        var number = 0
        var inString = false
        for character in text {
            if character == "'" { inString.toggle() }
            if character == "?", !inString {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Builds a statement from a string literal: literal parts become text, interpolated
    /// values bound arguments.
    package struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var text = ""
        var arguments: [SQLValue] = []

        /// Reserves room for the literal text and a `?` per interpolation.
        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount)
        }

        /// Appends literal SQL text as it is.
        package mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// A bound value.
        package mutating func appendInterpolation(_ value: some SQLBindable) {
            text += "?"
            arguments.append(value.sqlValue)
        }

        /// Another statement, spliced with its arguments.
        package mutating func appendInterpolation(_ statement: SQLStatement) {
            text += statement.text
            arguments += statement.arguments
        }

        /// Text spliced as it is: for names and keywords the code chooses, never for values.
        package mutating func appendInterpolation(raw: String) {
            text += raw
        }

        /// `(?, ?, …)` for a list of values (`IN \(list: ids)`); `(NULL)` for an empty list.
        package mutating func appendInterpolation(list values: [some SQLBindable]) {
            guard !values.isEmpty else {
                text += "(NULL)"
                return
            }
            text += "(" + Array(repeating: "?", count: values.count).joined(separator: ",") + ")"
            arguments += values.map(\.sqlValue)
        }
    }
}
