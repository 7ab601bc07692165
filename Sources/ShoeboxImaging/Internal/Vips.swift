internal import CVips
import Foundation

/// The one place libvips is initialised and its failures are turned into ``ImageError``s.
///
/// libvips keeps a process-wide error buffer; every failing call is followed by
/// ``takeError()`` on the same path, so the text reaches the Swift error.
enum Vips {
    /// Initialises libvips once, thread-safely. Safe to call from any thread, any number of times.
    static func initialize() throws(ImageError) {
        if sb_init() != 0 {
            throw .libraryUnavailable(takeError())
        }
    }

    /// Keeps libvips's process-wide error buffer from filling up.
    ///
    /// libvips appends to one fixed-size buffer shared by all threads, and also writes there when
    /// it recovers (a loader probing a file, say), and drops text once the buffer is full. Clearing
    /// it before every call would wipe a failing call's text on another thread, so Shoebox clears
    /// it only when it is well filled, and a failure reports the buffer's last lines (its own).
    static func clearErrors() {
        if sb_error_length() > 4_096 {
            sb_error_clear()
        }
    }

    /// The accumulated libvips error text, trimmed to one line, and clears it.
    static func takeError() -> String {
        guard let pointer = sb_error_take() else { return "" }
        defer { sb_free(pointer) }
        let text = String(cString: pointer)
        let lines = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        var unique: [String] = []
        for line in lines.suffix(3) where !unique.contains(line) { unique.append(line) }
        return unique.isEmpty ? "libvips gave no detail" : unique.joined(separator: "; ")
    }

    /// Whether libvips has an operation with this nickname (savers differ between builds).
    static func hasOperation(_ nickname: String) -> Bool {
        guard (try? initialize()) != nil else { return false }
        return sb_operation_exists(nickname) != 0
    }

    /// Runs a libvips operation that produces an image, mapping a failure through `makeError`.
    static func run(
        _ body: (UnsafeMutablePointer<OpaquePointer?>) -> Int32,
        error makeError: (String) -> ImageError
    ) throws(ImageError) -> VipsImageHandle {
        var output: OpaquePointer?
        clearErrors()
        let status = body(&output)
        guard status == 0, let output else {
            if let output { sb_image_unref(output) }
            throw makeError(takeError())
        }
        return VipsImageHandle(owning: output)
    }
}
