import CV4L2
import Foundation
import Synchronization

/// A real `/dev/video*` device, through the `CV4L2` shim.
final class V4L2DeviceFile: V4L2Interface {
    let path: String
    private let descriptor: Int32
    private struct Mapped {
        var buffers: [UnsafeMutableRawPointer?] = []
        var lengths: [Int] = []
        var count: UInt32 = 0
    }
    private let mapped = Mutex(Mapped())

    init(path: String) throws(V4L2Error) {
        self.path = path
        let result = sb_v4l2_open(path)
        guard result >= 0 else { throw V4L2Error(errno: -result) }
        descriptor = result
    }

    private func check(_ result: Int32) -> Result<Void, V4L2Error> {
        result == 0 ? .success(()) : .failure(V4L2Error(errno: -result))
    }

    func queryCapabilities() -> Result<(card: String, bus: String, capabilities: UInt32), V4L2Error> {
        var card = [CChar](repeating: 0, count: 64)
        var bus = [CChar](repeating: 0, count: 64)
        var capabilities: UInt32 = 0
        let result = sb_v4l2_querycap(descriptor, &card, card.count, &bus, bus.count, &capabilities)
        return check(result).map {
            (
                String(decoding: card.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                String(decoding: bus.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), capabilities
            )
        }
    }

    func enumerateFormat(index: UInt32) -> Result<UInt32, V4L2Error> {
        var fourcc: UInt32 = 0
        return check(sb_v4l2_enum_format(descriptor, index, &fourcc)).map { fourcc }
    }

    func enumerateSize(fourcc: UInt32, index: UInt32) -> Result<(width: UInt32, height: UInt32), V4L2Error> {
        var width: UInt32 = 0
        var height: UInt32 = 0
        return check(sb_v4l2_enum_size(descriptor, fourcc, index, &width, &height)).map { (width, height) }
    }

    func enumerateInterval(fourcc: UInt32, width: UInt32, height: UInt32, index: UInt32) -> Result<(numerator: UInt32, denominator: UInt32), V4L2Error> {
        var numerator: UInt32 = 0
        var denominator: UInt32 = 0
        return check(sb_v4l2_enum_interval(descriptor, fourcc, width, height, index, &numerator, &denominator)).map { (numerator, denominator) }
    }

    func queryControl(id: UInt32) -> Result<V4L2Control, V4L2Error> {
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        var step: Int32 = 0
        var value: Int32 = 0
        return check(sb_v4l2_query_control(descriptor, id, &minimum, &maximum, &step, &value))
            .map { V4L2Control(id: id, minimum: minimum, maximum: maximum, step: step, defaultValue: value) }
    }

    func setControl(id: UInt32, value: Int32) -> Result<Void, V4L2Error> {
        check(sb_v4l2_set_control(descriptor, id, value))
    }

    func setFormat(fourcc: UInt32, width: UInt32, height: UInt32) -> Result<(width: UInt32, height: UInt32), V4L2Error> {
        var actualWidth: UInt32 = 0
        var actualHeight: UInt32 = 0
        return check(sb_v4l2_set_format(descriptor, fourcc, width, height, &actualWidth, &actualHeight)).map { (actualWidth, actualHeight) }
    }

    func setFrameInterval(numerator: UInt32, denominator: UInt32) -> Result<Void, V4L2Error> {
        check(sb_v4l2_set_frame_interval(descriptor, numerator, denominator))
    }

    func startStreaming(buffers: UInt32) -> Result<Void, V4L2Error> {
        mapped.withLock { (state: inout Mapped) -> Result<Void, V4L2Error> in
            state.buffers = Array(repeating: nil, count: Int(buffers))
            state.lengths = Array(repeating: 0, count: Int(buffers))
            var count: UInt32 = 0
            let result = state.buffers.withUnsafeMutableBufferPointer { pointers in
                state.lengths.withUnsafeMutableBufferPointer { lengths in
                    sb_v4l2_start(descriptor, buffers, pointers.baseAddress, lengths.baseAddress, &count)
                }
            }
            state.count = count
            return result == 0 ? .success(()) : .failure(V4L2Error(errno: -result))
        }
    }

    func nextFrame(timeoutMilliseconds: Int32) -> Result<Data, V4L2Error> {
        var index: UInt32 = 0
        var used: UInt32 = 0
        let result = sb_v4l2_dequeue(descriptor, timeoutMilliseconds, &index, &used)
        guard result == 0 else { return .failure(V4L2Error(errno: -result)) }
        let data = mapped.withLock { state -> Data in
            guard Int(index) < state.buffers.count, let pointer = state.buffers[Int(index)] else { return Data() }
            return Data(bytes: pointer, count: Swift.min(Int(used), state.lengths[Int(index)]))
        }
        _ = sb_v4l2_requeue(descriptor, index)
        return .success(data)
    }

    func stopStreaming() {
        mapped.withLock { state in
            state.buffers.withUnsafeMutableBufferPointer { pointers in
                state.lengths.withUnsafeMutableBufferPointer { lengths in
                    sb_v4l2_stop(descriptor, pointers.baseAddress, lengths.baseAddress, state.count)
                }
            }
            state = Mapped()
        }
    }

    func close() {
        stopStreaming()
        sb_v4l2_close(descriptor)
    }
}
