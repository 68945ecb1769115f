#if !PROVISIO_LIBFUZZER
    import Foundation
    import ProvisioFuzzing

    /// `provisio-fuzz` in the ordinary build: runs saved inputs (a crash file libFuzzer wrote) or the
    /// committed seeds through the checks once each, and prints each outcome. Exits 1 on a violation.
    /// Fuzzing itself needs the libFuzzer build (`Tools/fuzz.sh`), which reads the same arguments.
    @main
    enum ReplayCommand {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.contains("--help") || arguments.contains("-h") {
                print(FuzzCommandLine.usage)
                return
            }
            do {
                exit(try run(FuzzCommandLine(arguments)) ? 0 : 1)
            } catch {
                FuzzSession.printError("provisio-fuzz: \(error)")
                exit(2)
            }
        }

        /// Whether every input passed.
        static func run(_ commandLine: FuzzCommandLine) throws(FuzzCommandLine.UsageError) -> Bool {
            if let flag = commandLine.others.first(where: { $0.hasPrefix("-") }) {
                throw FuzzCommandLine.UsageError(
                    description: "\(flag) is a libFuzzer flag: fuzzing needs the fuzz build (Tools/fuzz.sh).")
            }
            if commandLine.listTargets {
                print(FuzzTargets.names.joined(separator: "\n"))
                return true
            }
            let names = commandLine.target.map { $0 == "all" ? FuzzTargets.names : [$0] } ?? FuzzTargets.names
            if names.count != 1, commandLine.printDictionary || !commandLine.others.isEmpty {
                throw FuzzCommandLine.UsageError(description: "Give one --target=NAME.\n\(FuzzCommandLine.usage)")
            }
            var passed = true
            for name in names {
                let session = try FuzzSession(target: name, commandLine: commandLine)
                if commandLine.printDictionary {
                    print(session.dictionary, terminator: "")
                } else if commandLine.others.isEmpty {
                    passed = replaySeeds(session) && passed
                } else {
                    for path in try files(commandLine.others) { passed = replay(path, session) && passed }
                }
            }
            return passed
        }

        /// Every committed seed of the target, and one line of counts.
        static func replaySeeds(_ session: FuzzSession) -> Bool {
            var passed = true
            var counts: [String: Int] = [:]
            for seed in session.harness.seeds {
                let verdict = session.judge(seed.bytes)
                passed = report(verdict, input: "\(seed.name) (\(seed.bytes.count) bytes)", session) && passed
                if case .passed(let outcome) = verdict { counts[label(outcome), default: 0] += 1 }
            }
            let summary = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print("\(session.harness.name): \(session.harness.seeds.count) seeds: \(summary)")
            return passed
        }

        static func replay(_ path: String, _ session: FuzzSession) -> Bool {
            guard let data = FileManager.default.contents(atPath: path) else {
                FuzzSession.printError("provisio-fuzz: cannot read \(path)")
                return false
            }
            let input = Array(data)
            let start = ContinuousClock.now
            let verdict = session.judge(input)
            let elapsed = (ContinuousClock.now - start).components
            let milliseconds = Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15
            let description = "\(path) (\(input.count) bytes, \(String(format: "%.1f", milliseconds)) ms)"
            if case .passed(let outcome) = verdict { print("\(session.harness.name): \(description): \(label(outcome))") }
            return report(verdict, input: description, session)
        }

        /// Prints a violation or a known finding; whether the input passed.
        static func report(_ verdict: FuzzSession.Verdict, input: String, _ session: FuzzSession) -> Bool {
            switch verdict {
            case .passed:
                return true
            case .knownFinding(let finding, let reason):
                print("\(session.harness.name): \(input): KNOWN FINDING \(finding.id) (\(finding.summary)): \(reason)")
                return true
            case .failed(let reason):
                print("\(session.harness.name): \(input): VIOLATION: \(reason)")
                return false
            }
        }

        static func label(_ outcome: FuzzOutcome) -> String {
            switch outcome {
            case .accepted: "accepted"
            case .refused(let code): "refused \(code)"
            case .discarded(let reason): "discarded (\(reason))"
            case .violation(let reason): "violation: \(reason)"
            }
        }

        /// The paths given, a folder standing for the files in it (as libFuzzer reads a corpus).
        static func files(_ paths: [String]) throws(FuzzCommandLine.UsageError) -> [String] {
            var files: [String] = []
            for path in paths {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                    throw FuzzCommandLine.UsageError(description: "No file \(path).")
                }
                guard isFolder.boolValue else {
                    files.append(path)
                    continue
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
            }
            return files
        }
    }
#endif
