import Foundation
import Hummingbird
import ShoeboxLibrary

/// Memories: `GET /api/memories` (On This Day, trips, years in review, as the caller may see
/// them), `POST /api/memories/ID/hide` and `POST /api/memories/ID/unhide` (the user only; unhide
/// is the web app's Undo). Their photos are a listing with the `memory` filter.
struct MemoryRoutes {
    let state: ServerState

    struct MemoryJSON: Encodable {
        let id: String
        let kind: String
        let title: String
        let subtitle: String
        let count: Int
        let cover: AssetJSON?
    }

    struct Memories: Encodable {
        let memories: [MemoryJSON]
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("memories") { _, context in
            let library = try state.handle(for: context.caller).library
            let memories: [Memory]
            do { memories = try await library.fetchMemories() } catch { throw APIError(error) }
            let covers = Dictionary(await AssetJSON.list(memories.compactMap(\.cover), in: library).map { ($0.localIdentifier, $0) }) { first, _ in first }
            return try JSONResponse.make(
                Memories(
                    memories: memories.map { memory in
                        MemoryJSON(
                            id: memory.id, kind: memory.kind.rawValue, title: memory.title, subtitle: memory.subtitle, count: memory.count,
                            cover: memory.cover.flatMap { covers[$0.localIdentifier] })
                    }))
        }
        api.post("memories/:memory/hide") { _, context in
            try context.caller.requireUser("only the user hides memories")
            let id = try context.parameters.require("memory")
            guard Memory.predicate(forIdentifier: id) != nil else { throw APIError.notFound("no memory \(id)") }
            do { try await state.library(for: context.caller).hideMemory(id) } catch { throw APIError(error) }
            return Response(status: .noContent)
        }
        api.post("memories/:memory/unhide") { _, context in
            try context.caller.requireUser("only the user hides memories")
            let id = try context.parameters.require("memory")
            guard Memory.predicate(forIdentifier: id) != nil else { throw APIError.notFound("no memory \(id)") }
            do { try await state.library(for: context.caller).unhideMemory(id) } catch { throw APIError(error) }
            return Response(status: .noContent)
        }
    }
}
