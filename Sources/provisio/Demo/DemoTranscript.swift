import Foundation

/// The demo's readable output: one line per step with ✓ or ✗, scenario headings, a summary.
/// Lines are flushed as they happen so progress is visible while the demo runs.
actor DemoTranscript {
    private(set) var passed = 0
    private(set) var failed = 0
    private(set) var failures: [String] = []

    func heading(_ number: Int, _ title: String) {
        emit("\n[\(number)] \(title)")
    }

    func pass(_ text: String) {
        passed += 1
        emit("  ✓ \(text)")
    }

    func fail(_ text: String) {
        failed += 1
        failures.append(text)
        emit("  ✗ \(text)")
    }

    func note(_ text: String) {
        emit("    \(text)")
    }

    /// Records `condition` as a step.
    func check(_ condition: Bool, _ text: String, else detail: @autoclosure () -> String = "") {
        if condition {
            pass(text)
        } else {
            let extra = detail()
            fail(extra.isEmpty ? text : "\(text) — \(extra)")
        }
    }

    nonisolated func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
