import Foundation
import ProvisioFuzzing

/// One target prepared from the command line, and what an outcome means for the run: what the
/// libFuzzer entry and the replay command share.
struct FuzzSession {
    enum Verdict {
        case passed(FuzzOutcome)
        /// An instance of an already reported parser bug, and `--allow-known-findings` was given.
        case knownFinding(FuzzKnownFinding, reason: String)
        case failed(reason: String)
    }

    let harness: FuzzHarness
    let allowKnownFindings: Bool

    init(target name: String, commandLine: FuzzCommandLine) throws(FuzzCommandLine.UsageError) {
        guard let target = FuzzTargets.named(name) else {
            throw FuzzCommandLine.UsageError(description: "Unknown target \(name).")
        }
        let corpus = FuzzCorpus(root: URL(fileURLWithPath: commandLine.corpusRoot, isDirectory: true))
        do {
            harness = try FuzzHarness(target: target, corpus: corpus)
        } catch {
            throw FuzzCommandLine.UsageError(
                description: "Cannot read the seeds of \(name) under \(commandLine.corpusRoot) (run from the repository's"
                    + " root, or pass --corpus-root=DIR): \(error)")
        }
        allowKnownFindings = commandLine.allowKnownFindings
    }

    func judge(_ input: [UInt8]) -> Verdict {
        let outcome = harness.run(input)
        guard case .violation(let reason) = outcome else { return .passed(outcome) }
        if allowKnownFindings, let finding = FuzzKnownFindings.finding(target: harness.name, reason: reason) {
            return .knownFinding(finding, reason: reason)
        }
        return .failed(reason: reason)
    }

    var dictionary: String { FuzzDictionary.render(harness.target.dictionary, name: harness.name) }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
