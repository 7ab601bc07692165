import Foundation
import ShoeboxImaging

/// Taking the place out of a file (`LocationRemoval`, what Download without location and
/// `export --no-location` do to every file they send): on any bytes, every patch lies inside the
/// file and replaces as many bytes as it brings, patches come in order and apart (a download
/// applies them as the file streams past), no byte outside the patches changes, a slice is
/// patched the same way, and a second pass over a cleaned file finds nothing more to take out.
enum LocationFuzzTarget {
    static func run(_ data: Data) {
        let patches = LocationRemoval.patches(for: data)
        for patch in patches {
            FuzzCheck.require(
                patch.offset >= 0 && !patch.bytes.isEmpty && patch.offset + patch.bytes.count <= data.count,
                "a patch of \(patch.bytes.count) bytes at \(patch.offset) in a file of \(data.count)")
        }
        for (one, next) in zip(patches, patches.dropFirst()) {
            FuzzCheck.require(one.offset + one.bytes.count <= next.offset, "patches at \(one.offset) and \(next.offset) overlap or are out of order")
        }
        FuzzCheck.require(LocationRemoval.patches(for: FuzzCheck.shifted(data)) == patches, "a slice of the same bytes is patched differently")
        let cleaned = LocationRemoval.removingLocation(from: data)
        FuzzCheck.require(cleaned.count == data.count, "the cleaned file has \(cleaned.count) bytes, not \(data.count)")
        // Nothing outside the patches changes.
        var patched = [Bool](repeating: false, count: data.count)
        for patch in patches { for index in patch.offset..<(patch.offset + patch.bytes.count) { patched[index] = true } }
        for (index, (before, after)) in zip(data, cleaned).enumerated() where before != after {
            FuzzCheck.require(patched[index], "byte \(index) changed outside every patch")
        }
        let again = LocationRemoval.removingLocation(from: cleaned)
        FuzzCheck.require(again == cleaned, "a second pass changed \(zip(again, cleaned).filter { $0 != $1 }.count) bytes more")
    }
}
