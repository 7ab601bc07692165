import ServiceLifecycle
import ShoeboxLibrary

/// A ``ShoeboxLibrary/JobWorker`` as a service of the server's application: it runs the
/// library's queued jobs while the server serves. When the server stops, the worker claims
/// nothing more, cancels the jobs it runs and hands them back to the queue at once (their
/// attempt not counted) for the next run or another worker.
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
            // As `shoebox serve` always did: the running jobs are cancelled and handed back at
            // once, not waited for (one may wait on a catalog that is restarting).
            Task { await worker.handBack() }
        }
        await worker.handBack()
    }
}
