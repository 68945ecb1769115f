import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioServer

/// Runs a command body and turns a `ProvisioError` into the CLI contract: one line on standard
/// error naming the stable code, exit status 2. Messages never carry a PAN (see
/// `PrimaryAccountNumber`), so the line is safe to log. Any other error keeps the contract too:
/// a database driver's as `database_error` with what the database answered (`DatabaseFailure`:
/// never the query or its values), anything else as `internal_error` naming its type.
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        try reportFailure(error)
    }
}

func runReportingErrorsAsync(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        try reportFailure(error)
    }
}

private func reportFailure(_ error: any Error) throws -> Never {
    let code: String
    let message: String
    switch error {
    case is ExitCode, is CleanExit, is ValidationError:
        throw error  // argument parsing and chosen exit statuses keep their own reporting
    case let error as ProvisioError:
        code = error.code.rawValue
        message = error.message
    case _ where DatabaseFailure.isDriverError(error):
        code = ProvisioError.Code.databaseError.rawValue
        message = DatabaseFailure.describe(error)
    default:
        code = ProvisioError.Code.internalError.rawValue
        message = "unexpected \(type(of: error))"
    }
    FileHandle.standardError.write(Data("error: \(code): \(message)\n".utf8))
    throw ExitCode(2)
}
