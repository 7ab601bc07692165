import ServiceLifecycle

/// The server's change hub as a service of its application: it relays the library's commits to
/// the event streams until the server stops (it is the last service stopped, after the
/// application has ended the streams).
struct ChangeHubService: Service {
    let hub: ChangeHub

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await hub.run()
        }
    }
}
