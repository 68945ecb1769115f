import ArgumentParser
import Foundation
import ProvisioCore

/// Runs a command body and turns a `ProvisioError` into the CLI contract: one line on standard
/// error naming the stable code, exit status 2. Messages never carry a PAN (see
/// `PrimaryAccountNumber`), so the line is safe to log.
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ProvisioError {
        FileHandle.standardError.write(Data("error: \(error.code.rawValue): \(error.message)\n".utf8))
        throw ExitCode(2)
    }
}

func runReportingErrorsAsync(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ProvisioError {
        FileHandle.standardError.write(Data("error: \(error.code.rawValue): \(error.message)\n".utf8))
        throw ExitCode(2)
    }
}
