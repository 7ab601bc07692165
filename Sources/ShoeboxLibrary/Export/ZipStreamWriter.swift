import Foundation
import ShoeboxImaging

/// A ZIP archive written front to back, for streaming: files stored as they are (photos and movies
/// are compressed already), each entry's CRC and sizes in a data descriptor after its bytes, the
/// central directory at the end; ZIP64 where a size, an offset or the number of entries needs it.
/// Names are UTF-8 (general purpose bit 11).
struct ZipStreamWriter {
    private struct Entry {
        let name: [UInt8]
        let offset: UInt64
        let time: UInt16
        let date: UInt16
        /// Whether the local header has a ZIP64 field (its data descriptor then has 8-byte sizes).
        let zip64: Bool
        var crc: UInt32 = 0
        var size: UInt64 = 0
    }

    private var entries: [Entry] = []
    private var written: UInt64 = 0
    private var crc = CRC32()
    private var current: Entry?

    private static let zip64Limit: UInt64 = 0xFFFF_FFFF

    /// The local header of a new entry named `name`, modified at `date`, of about `expectedSize`
    /// bytes: at 4 GiB or more the header has a ZIP64 field, as readers that go by local headers
    /// need to read the 8-byte sizes of its data descriptor.
    mutating func begin(name: String, modified: Date, expectedSize: Int = 0) -> Data {
        precondition(current == nil, "an entry is open")
        let (time, day) = Self.dosTime(modified)
        let zip64 = UInt64(Swift.max(0, expectedSize)) >= Self.zip64Limit
        let entry = Entry(name: Array(name.utf8), offset: written, time: time, date: day, zip64: zip64)
        current = entry
        crc = CRC32()
        var header = Data()
        header.append(le32(0x0403_4B50))
        header.append(le16(45))  // version needed: ZIP64
        header.append(le16(0x0808))  // data descriptor, UTF-8 names
        header.append(le16(0))  // stored
        header.append(le16(time))
        header.append(le16(day))
        header.append(le32(0))  // CRC, sizes: in the data descriptor
        header.append(le32(0))
        header.append(le32(0))
        header.append(le16(UInt16(entry.name.count)))
        header.append(le16(zip64 ? 20 : 0))
        header.append(contentsOf: entry.name)
        if zip64 {
            // Sizes to come in the data descriptor: zero here, as APPNOTE 4.3.9.2 has it.
            header.append(le16(0x0001))
            header.append(le16(16))
            header.append(le64(0))
            header.append(le64(0))
        }
        written += UInt64(header.count)
        return header
    }

    /// Counts `chunk` of the open entry's bytes (the caller sends the chunk itself).
    mutating func add(_ chunk: Data) {
        precondition(current != nil, "no entry is open")
        crc.update([UInt8](chunk)[...])
        current!.size += UInt64(chunk.count)
        written += UInt64(chunk.count)
    }

    /// The open entry's data descriptor (ZIP64's 8-byte sizes when it is that large).
    mutating func end() -> Data {
        guard var entry = current else { preconditionFailure("no entry is open") }
        entry.crc = crc.value
        current = nil
        entries.append(entry)
        var descriptor = Data()
        descriptor.append(le32(0x0807_4B50))
        descriptor.append(le32(entry.crc))
        if entry.zip64 || entry.size >= Self.zip64Limit {
            descriptor.append(le64(entry.size))
            descriptor.append(le64(entry.size))
        } else {
            descriptor.append(le32(UInt32(entry.size)))
            descriptor.append(le32(UInt32(entry.size)))
        }
        written += UInt64(descriptor.count)
        return descriptor
    }

    /// The central directory and its end records.
    mutating func finish() -> Data {
        precondition(current == nil, "an entry is open")
        let directoryOffset = written
        var directory = Data()
        for entry in entries {
            let bigSize = entry.size >= Self.zip64Limit
            let bigOffset = entry.offset >= Self.zip64Limit
            var extra = Data()
            if bigSize || bigOffset {
                var fields = Data()
                if bigSize {
                    fields.append(le64(entry.size))
                    fields.append(le64(entry.size))
                }
                if bigOffset { fields.append(le64(entry.offset)) }
                extra.append(le16(0x0001))
                extra.append(le16(UInt16(fields.count)))
                extra.append(fields)
            }
            directory.append(le32(0x0201_4B50))
            directory.append(le16(0x0300 | 45))  // made by: Unix, ZIP 4.5
            directory.append(le16(45))
            directory.append(le16(0x0808))
            directory.append(le16(0))
            directory.append(le16(entry.time))
            directory.append(le16(entry.date))
            directory.append(le32(entry.crc))
            directory.append(le32(bigSize ? 0xFFFF_FFFF : UInt32(entry.size)))
            directory.append(le32(bigSize ? 0xFFFF_FFFF : UInt32(entry.size)))
            directory.append(le16(UInt16(entry.name.count)))
            directory.append(le16(UInt16(extra.count)))
            directory.append(le16(0))  // comment
            directory.append(le16(0))  // disk
            directory.append(le16(0))  // internal attributes
            directory.append(le32(0o100644 << 16))  // a regular file, rw-r--r--
            directory.append(le32(bigOffset ? 0xFFFF_FFFF : UInt32(entry.offset)))
            directory.append(contentsOf: entry.name)
            directory.append(extra)
        }
        let directorySize = UInt64(directory.count)
        var end = directory
        let needs64 = entries.count >= 0xFFFF || directoryOffset >= Self.zip64Limit || directorySize >= Self.zip64Limit
        if needs64 {
            let recordOffset = directoryOffset + directorySize
            end.append(le32(0x0606_4B50))
            end.append(le64(44))
            end.append(le16(0x0300 | 45))
            end.append(le16(45))
            end.append(le32(0))
            end.append(le32(0))
            end.append(le64(UInt64(entries.count)))
            end.append(le64(UInt64(entries.count)))
            end.append(le64(directorySize))
            end.append(le64(directoryOffset))
            end.append(le32(0x0706_4B50))  // the locator
            end.append(le32(0))
            end.append(le64(recordOffset))
            end.append(le32(1))
        }
        end.append(le32(0x0605_4B50))
        end.append(le16(0))
        end.append(le16(0))
        let count16 = UInt16(Swift.min(entries.count, 0xFFFF))
        end.append(le16(count16))
        end.append(le16(count16))
        end.append(le32(directorySize >= Self.zip64Limit ? 0xFFFF_FFFF : UInt32(directorySize)))
        end.append(le32(directoryOffset >= Self.zip64Limit ? 0xFFFF_FFFF : UInt32(directoryOffset)))
        end.append(le16(0))
        written += UInt64(end.count)
        return end
    }

    /// MS-DOS time and date (two-second steps, years 1980…2107), in this machine's time zone.
    static func dosTime(_ date: Date) -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = Swift.min(2107, Swift.max(1980, parts.year ?? 1980))
        let time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        let day = UInt16((year - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        return (time, day)
    }

    private func le16(_ value: UInt16) -> Data { Data([UInt8(value & 0xFF), UInt8(value >> 8)]) }
    private func le32(_ value: UInt32) -> Data { Data((0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }) }
    private func le64(_ value: UInt64) -> Data { Data((0..<8).map { UInt8((value >> (8 * UInt64($0))) & 0xFF) }) }
}
