import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// A library is private to its owner (issue 17 item 11): the folder is 0700 when made, and one
/// left open by an older version is made private when it opens.
@Suite struct FileModeTests {
    static func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func aLibraryIsPrivateToItsOwner() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let url = temporary.library.url
        _ = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1)])
        #expect(try Self.mode(url) == 0o700)
        #expect(try Self.mode(url.appendingPathComponent("staging")) == 0o700)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        _ = try await PhotoLibrary.open(at: url)
        #expect(try Self.mode(url) == 0o700, "an open library folder stayed readable by others")
    }
}
