import Foundation

/// What one input did to a parser.
public enum FuzzOutcome: Sendable, Hashable {
    /// The parser accepted the input and every invariant on the accepted value held.
    case accepted
    /// The parser refused the input the way it promises to: a `ProvisioError` with this code and a
    /// message that passed the checks.
    case refused(code: String)
    /// The input could not be handed to the parser at all (a URL string that is not UTF-8): neither
    /// accepted nor refused by it.
    case discarded(reason: String)
    /// An invariant failed: the parser accepted something inconsistent, refused the wrong way, or
    /// leaked input into a message.
    case violation(String)

    public var isViolation: Bool {
        if case .violation = self { return true }
        return false
    }
}

/// One parser of outside input, wrapped so libFuzzer can feed it bytes (`provisio-fuzz`).
///
/// `run(input:)` must be deterministic in `input` (a saved crash file must reproduce) and must catch
/// every error the parser throws, turning it into an outcome with `FuzzChecks.refusal`.
public protocol FuzzTarget: Sendable {
    /// The target's name on the command line (`--target=NAME`) and in reports.
    var name: String { get }
    /// The folder under the corpus root that holds this target's seeds.
    var seedsDirectory: String { get }
    /// Fragments worth inserting into this target's inputs (field names, keywords, DER snippets):
    /// libFuzzer's `-dict=` file is written from it (`FuzzDictionary`).
    var dictionary: [[UInt8]] { get }
    /// Runs the parser on one input and checks its invariants.
    func run(input: [UInt8]) -> FuzzOutcome
    /// The values of secret-like fields in one seed (a PAN, a webhook secret). A refusal's message
    /// must not contain any six-byte fragment of them; `FuzzHarness` collects them from the corpus
    /// and hands them back through `withSeedSecrets`.
    func secrets(inSeed seed: [UInt8]) -> [[UInt8]]
    /// This target, checking messages against the given seed secrets.
    func withSeedSecrets(_ secrets: SecretFragments) -> Self
}

extension FuzzTarget {
    public var seedsDirectory: String { name }
    public var dictionary: [[UInt8]] { [] }
    public func secrets(inSeed seed: [UInt8]) -> [[UInt8]] { [] }
    public func withSeedSecrets(_ secrets: SecretFragments) -> Self { self }
}

/// One committed corpus file.
public struct FuzzSeed: Sendable, Hashable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// Seeds whose file name starts with `valid` must be accepted as they are: a parser that starts
    /// refusing them has regressed (and fuzzing a parser that refuses everything proves little).
    public var mustBeAccepted: Bool { name.hasPrefix("valid") }
}

/// The committed corpus: `<root>/<target>/<seed file>`.
public struct FuzzCorpus: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// The seeds of one target, sorted by file name (so runs are reproducible), hidden files skipped.
    public func seeds(for target: some FuzzTarget) throws -> [FuzzSeed] {
        try seeds(inDirectory: target.seedsDirectory)
    }

    public func seeds(inDirectory directory: String) throws -> [FuzzSeed] {
        let folder = root.appendingPathComponent(directory, isDirectory: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
        return try names.map { name in
            FuzzSeed(name: name, bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }

    /// Total size of every file in the corpus, in bytes.
    public func totalSize() throws -> Int {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey])
        else { return 0 }
        var total = 0
        for case let url as URL in enumerator {
            total += try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
        }
        return total
    }
}
