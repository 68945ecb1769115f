import Foundation
import Logging
import ProvisioCore

/// Keeps every log line (message and metadata, trace level and up) so tests can search them.
final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    var text: String {
        lines.value.joined(separator: "\n")
    }

    var count: Int {
        lines.withLock { $0.count }
    }

    /// How many log entries (a multi-line entry counts once) contain every one of `parts`.
    func count(containing parts: String...) -> Int {
        lines.value.count { line in parts.allSatisfy { line.contains($0) } }
    }

    func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, capture: self) }
        logger.logLevel = .trace
        return logger
    }

    struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append("\(event.level) \(label): \(event.message) \(merged)")
        }
    }
}
