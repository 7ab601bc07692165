import ServiceLifecycle
import ShoeboxLibrary

/// A ``ShoeboxLibrary/JobWorker`` as a service of the server's application: it runs the
/// library's queued jobs while the server serves. When the server stops, the worker claims
/// nothing more and hands the jobs it holds back to the queue (their attempt not counted) for
/// the next run or another worker.
struct JobWorkerService: Service {
    let worker: JobWorker

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await worker.run()
            } onCancel: {
                worker.stop()
            }
        } onGracefulShutdown: {
            worker.stop()
        }
        await worker.handBack()
    }
}
