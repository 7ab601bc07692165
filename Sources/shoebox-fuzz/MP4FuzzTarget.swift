import Foundation
import ShoeboxMedia

/// MP4 and QuickTime sample tables, read from the file before a stream copy (trim, poster times):
/// the `moov` box, the video track's edit list, time-to-sample, composition offsets and sync
/// samples.
enum MP4FuzzTarget {
    static func run(_ data: Data) {
        if let table = MP4SampleTable.read(ScratchFile.holding(data)) {
            FuzzCheck.require(table.duration.isFinite && table.duration >= 0, "duration \(table.duration)")
            FuzzCheck.require(table.keyFrameTimes.allSatisfy(\.isFinite), "a key frame time is not finite")
            FuzzCheck.require(
                zip(table.keyFrameTimes, table.keyFrameTimes.dropFirst()).allSatisfy { $0 <= $1 },
                "key frame times are not ascending")
        }
        let boxes = MP4SampleTable.children(of: data)
        check(boxes, in: data)
        let sliced = MP4SampleTable.children(of: FuzzCheck.shifted(data))
        FuzzCheck.require(
            sliced.map(\.type) == boxes.map(\.type) && zip(sliced, boxes).allSatisfy { $0.body == $1.body },
            "a slice of the same bytes holds other boxes")
        for box in boxes.prefix(16) {
            check(MP4SampleTable.children(of: box.body), in: box.body)
        }
    }

    /// Each box's body is a slice of its parent, after its header and after the previous box.
    private static func check(_ boxes: [MP4SampleTable.Box], in parent: Data) {
        var end = parent.startIndex
        for box in boxes {
            FuzzCheck.require(
                box.body.startIndex >= end + 8 && box.body.endIndex <= parent.endIndex,
                "\(box.type) box at \(box.body.startIndex)..<\(box.body.endIndex) outside \(end)..<\(parent.endIndex)")
            end = box.body.endIndex
        }
    }
}
