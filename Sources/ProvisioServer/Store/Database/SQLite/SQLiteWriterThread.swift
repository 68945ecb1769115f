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
/// `@unchecked Sendable`: `jobs` and `stopping` are read and changed only between `condition`'s
/// `lock()` and `unlock()`; the thread is the only one that runs the jobs.
@available(macOS 15.0, iOS 18.0, *)
final class SQLiteWriterThread: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    /// Starts the thread. It keeps this executor alive until `stop()`. Linux keeps 15 bytes of a
    /// thread's name (and none of a longer one): this is the name `perf` and `top -H` show. It is
    /// set from the thread itself: Foundation on Linux does not pass on a name set before `start`.
    init(name: String = "sqlite-writer") {
        let thread = Thread { [self] in
            Thread.current.name = name
            run()
        }
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once the jobs queued are run. Only for an owner that will enqueue no
    /// more: a job enqueued after the thread ended would never run.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        let executor = asUnownedTaskExecutor()
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
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
