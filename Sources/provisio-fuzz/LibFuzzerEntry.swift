#if PROVISIO_LIBFUZZER
    import Foundation
    import ProvisioFuzzing

    // The fuzz build (`Tools/fuzz.sh`: `--sanitize=fuzzer -Xswiftc -DPROVISIO_LIBFUZZER`): libFuzzer
    // owns `main` and calls these two. A violation aborts, so libFuzzer saves the input as a crash file.

    /// Set once by `LLVMFuzzerInitialize`, before any input; libFuzzer runs inputs on that same thread.
    nonisolated(unsafe) private var session: FuzzSession?
    /// The known findings already printed: their first instance is enough.
    nonisolated(unsafe) private var reportedFindings: Set<String> = []

    @_cdecl("LLVMFuzzerInitialize")
    public func fuzzInitialize(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
    ) -> CInt {
        // Swift's backtracer handles the crash signals from the runtime's start, and libFuzzer installs
        // no handler of its own over one that is there: it would then save no crash file. Called
        // before libFuzzer installs its handlers, so the defaults make room for them.
        for signalNumber in [SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE] { signal(signalNumber, SIG_DFL) }
        let arguments = (1..<Int(argc.pointee)).compactMap { index in argv.pointee?[index].map { String(cString: $0) } }
        do {
            let commandLine = try FuzzCommandLine(arguments.filter { $0.hasPrefix("--") })
            if commandLine.listTargets {
                print(FuzzTargets.names.joined(separator: "\n"))
                exit(0)
            }
            guard let name = commandLine.target, name != "all" else {
                throw FuzzCommandLine.UsageError(description: "The fuzz build needs one --target=NAME.\n\(FuzzCommandLine.usage)")
            }
            let prepared = try FuzzSession(target: name, commandLine: commandLine)
            if commandLine.printDictionary {
                print(prepared.dictionary, terminator: "")
                exit(0)
            }
            session = prepared
        } catch {
            FuzzSession.printError("provisio-fuzz: \(error)")
            exit(2)
        }
        return 0
    }

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        guard let session else { return 0 }
        let input = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        switch session.judge(input) {
        case .passed:
            return 0
        case .knownFinding(let finding, let reason):
            if reportedFindings.insert(finding.id).inserted {
                FuzzSession.printError("provisio-fuzz: KNOWN FINDING \(finding.id) in \(session.harness.name): \(reason)")
            }
            return 0
        case .failed(let reason):
            FuzzSession.printError("provisio-fuzz: VIOLATION in \(session.harness.name): \(reason)")
            abort()
        }
    }
#endif
