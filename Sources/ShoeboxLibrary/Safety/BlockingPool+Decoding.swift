import ShoeboxImaging

extension BlockingPool {
    /// Runs a decode of `image` for `use` on the blocking pool once ``DecodeMemoryBudget/shared``
    /// has room for what it is expected to hold (``ShoeboxImaging/Image/decodingMemory(for:)``);
    /// `inBackground` runs it at the lower priority of ``runInBackground(_:)``. The wait holds no
    /// thread: the pool's threads only ever run decodes that have their memory. After a large
    /// decode (64 MiB or more) the pool thread gives what it freed back to the system
    /// (``ShoeboxImaging/Image/trimAllocator()``).
    func decode<T: Sendable>(
        _ image: Image, for use: Image.DecodingUse, inBackground: Bool = false, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let bytes = image.decodingMemory(for: use)
        let decode: @Sendable () throws -> T = {
            defer { if bytes >= 64 << 20 { Image.trimAllocator() } }
            return try body()
        }
        return try await DecodeMemoryBudget.shared.withReservation(of: bytes) {
            inBackground ? try await runInBackground(decode) : try await run(decode)
        }
    }
}
