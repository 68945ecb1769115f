import Foundation

/// The one thread the SQLite writer connection's statements run on, as a task executor: a write
/// or a transaction enters it once (`withTaskExecutorPreference`), runs all its statements there
/// in place, gives the writer back, and returns to Swift's cooperative threads once.
///
/// Before, every statement of a write went to NIOThreadPool and back on its own. Each return
/// queued behind the other requests' work on the two cooperative threads while the writer stayed
/// lent, so under load a transaction of ten statements held SQLite's one writer for ten queue
/// waits, not for its own few hundred microseconds, and the server waited on its own lock with
/// idle cores. On this thread, a waiting borrower of the writer also resumes here, off the
/// cooperative pool. A write that waits for another process's lock (the busy timeout) holds this
/// thread, never a cooperative one.
///
/// After `stop()` the thread ends once it has nothing to run, and a job that comes later starts
/// it again, so no job is ever left without a thread (a write racing the handle's shutdown then
/// fails on the closed connection, as before, rather than hang).
///
/// `@unchecked Sendable`: `jobs`, `stopping` and `running` are read and changed only between
/// `condition`'s `lock()` and `unlock()`; one thread at a time runs the jobs.
@available(macOS 15.0, iOS 18.0, *)
final class SQLiteWriterThread: TaskExecutor, @unchecked Sendable {
    private let name: String
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private var running = false

    /// Linux keeps 15 bytes of a thread's name (and none of a longer one): this is the name
    /// `perf` and `top -H` show. The thread starts with the first job.
    init(name: String = "sqlite-writer") {
        self.name = name
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let start = !running
        running = true
        condition.signal()
        condition.unlock()
        if start { startThread() }
    }

    /// Lets the thread end whenever it has nothing to run; a later job starts it again.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// The thread keeps this executor alive while it runs. Its name is set from inside: Foundation
    /// on Linux does not pass on a name set before `start`.
    private func startThread() {
        let thread = Thread { [self] in
            Thread.current.name = name
            run()
        }
        thread.start()
    }

    private func run() {
        let executor = asUnownedTaskExecutor()
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                running = false
                condition.unlock()
                return
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: executor) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
