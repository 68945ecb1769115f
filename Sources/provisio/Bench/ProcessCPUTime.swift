#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's CPU time (user and system, all threads), to say how much of the machine the
/// load generator itself took during a run.
enum ProcessCPUTime {
    static func seconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return .nan }
        func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }
}
