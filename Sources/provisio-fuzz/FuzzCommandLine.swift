import ProvisioFuzzing

/// The arguments both builds of `provisio-fuzz` read. Only `--name=value` flags are ours: libFuzzer
/// ignores flags that start with `--`, so the fuzz build takes them beside its own `-flag=value`
/// ones and its corpus folders, and the replay build reads the same line.
struct FuzzCommandLine {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// A target name, or nil when none was given.
    var target: String?
    /// Holds one folder of seeds per target: their secrets and `valid*` seeds make the checks.
    var corpusRoot = "Fuzz/Corpus"
    var allowKnownFindings = false
    var printDictionary = false
    /// Print the target names, one a line (for `Tools/fuzz.sh`), and stop.
    var listTargets = false
    /// Arguments that are not ours: files (and folders) to run, and libFuzzer's flags.
    var others: [String] = []

    static let usage = """
        provisio-fuzz --target=NAME [--corpus-root=DIR] [--allow-known-findings] [--print-dictionary] [FILE…]
        provisio-fuzz --list-targets
          Targets: \(FuzzTargets.names.joined(separator: ", ")).
          Fuzz build (Tools/fuzz.sh): libFuzzer's flags and corpus folders go beside these; a FILE runs once.
          Replay build (swift run provisio-fuzz): runs each FILE, or every committed seed without one
          (of every target without --target), and prints the outcome.
        """

    init(_ arguments: some Sequence<String>) throws(UsageError) {
        for argument in arguments {
            if argument == "--allow-known-findings" {
                allowKnownFindings = true
            } else if argument == "--print-dictionary" {
                printDictionary = true
            } else if argument == "--list-targets" {
                listTargets = true
            } else if let value = Self.value(of: "--target", in: argument) {
                guard value == "all" || FuzzTargets.named(value) != nil else {
                    let names = FuzzTargets.names.joined(separator: ", ")
                    throw UsageError(description: "Unknown target \(value); the targets are \(names).")
                }
                target = value
            } else if let value = Self.value(of: "--corpus-root", in: argument) {
                corpusRoot = value
            } else if argument == "--target" || argument == "--corpus-root" {
                // libFuzzer would take the value that follows for a corpus folder.
                throw UsageError(description: "Write \(argument)=VALUE, with '='.")
            } else if argument.hasPrefix("--") {
                // libFuzzer would pass an unknown `--flag` by silently: say so here instead.
                throw UsageError(description: "Unknown option \(argument) (ours are --name=value).\n\(Self.usage)")
            } else {
                others.append(argument)
            }
        }
    }

    private static func value(of name: String, in argument: String) -> String? {
        argument.hasPrefix(name + "=") ? String(argument.dropFirst(name.count + 1)) : nil
    }
}
