internal import CZlib
import Foundation

/// DEFLATE data (a ZIP entry's) or a gzip stream (a `.tgz`'s) inflated a piece at a time, through
/// zlib (the `CZlib` shim): a mebibyte out at most per step, whatever the input.
final class Inflater {
    private let handle: OpaquePointer
    /// Whether the stream has ended (for gzip: its last member so far).
    private(set) var ended = false

    /// A raw DEFLATE inflater, or (`gzip`) one of a gzip stream; `nil` when zlib has no memory.
    init?(gzip: Bool) {
        guard let handle = sb_inflater_new(gzip ? 1 : 0) else { return nil }
        self.handle = handle
    }

    deinit { sb_inflater_free(handle) }

    /// Why inflating failed: what the compressed bytes are not.
    struct Failure: Error {
        let reason: String
    }

    /// Inflates `input`, handing each piece of output to `sink` in order, until the input is
    /// used up or the stream ends; returns how many bytes of `input` it used (fewer than all when
    /// a raw stream ended inside it: what follows is the archive's, not the entry's).
    @discardableResult
    func inflate(_ input: Data, into sink: (Data) throws -> Void) throws -> Int {
        var output = Data(count: 1 << 20)
        var offset = 0
        var produced = 0
        repeat {
            var consumed = 0
            produced = 0
            let status = input.withUnsafeBytes { (inBytes: UnsafeRawBufferPointer) -> Int32 in
                output.withUnsafeMutableBytes { (outBytes: UnsafeMutableRawBufferPointer) -> Int32 in
                    let base = inBytes.bindMemory(to: UInt8.self).baseAddress.map { $0 + offset }
                    return sb_inflater_run(
                        handle, base, input.count - offset, &consumed, outBytes.bindMemory(to: UInt8.self).baseAddress, outBytes.count, &produced)
                }
            }
            offset += consumed
            if produced > 0 { try sink(output.prefix(produced)) }
            switch status {
            case 1:
                ended = true
                if produced < output.count { return offset }
            case -1: throw Failure(reason: String(cString: sb_inflater_message(handle)))
            case -2: throw Failure(reason: "zlib ran out of memory")
            default: ended = false
            }
            if consumed == 0 && produced == 0 { break }
        } while offset < input.count || produced == output.count
        return offset
    }

    /// CRC-32 of `data`, continuing `crc`.
    static func crc32(_ crc: UInt32, _ data: Data) -> UInt32 {
        data.withUnsafeBytes { sb_crc32(crc, $0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
    }
}
