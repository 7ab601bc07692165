import Foundation
import NIOCore

/// Why a server could not listen, as one sentence that says what to do: "port 8080 is in use;
/// choose another with --port", never the socket call's error description.
enum ListenFailure {
    static func sentence(for error: any Error, host: String, port: Int) -> String {
        switch code(of: error) {
        case EADDRINUSE?: "port \(port) is in use; choose another with --port"
        case EACCES?: "port \(port) needs privileges this user does not have (ports below 1024 usually do); choose another with --port"
        case EADDRNOTAVAIL?: "\(host) is not an address of this machine; choose another with --host"
        default: "cannot serve on \(host):\(port): \(error)"
        }
    }

    /// The `errno` the bind failed with, from NIO's error (or, wrapped in another, its description).
    private static func code(of error: any Error) -> Int32? {
        if let error = error as? IOError { return error.errnoCode }
        let text = String(describing: error)
        for (words, code) in [("Address already in use", EADDRINUSE), ("Permission denied", EACCES), ("Cannot assign requested address", EADDRNOTAVAIL)]
        where text.contains(words) {
            return code
        }
        return nil
    }
}
