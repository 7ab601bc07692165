import ShoeboxImaging

extension Blocking {
    /// Runs a decode of `image` for `use` on the blocking pool once ``DecodeMemoryBudget/shared``
    /// has room for what it is expected to hold (``ShoeboxImaging/Image/decodingMemory(for:)``);
    /// `inBackground` runs it at the lower priority of ``runInBackground(_:)``. The wait holds no
    /// thread: the pool's threads only ever run decodes that have their memory.
    static func decode<T: Sendable>(
        _ image: Image, for use: Image.DecodingUse, inBackground: Bool = false, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await DecodeMemoryBudget.shared.withReservation(of: image.decodingMemory(for: use)) {
            inBackground ? try await runInBackground(body) : try await run(body)
        }
    }
}
