import Foundation
import ProvisioCore

#if canImport(os)
    import os
#endif

/// Where the example sends what it cannot show the cardholder: error codes, request ids and
/// configuration problems. Never a card number or a token (ProvisioKit's messages hold neither).
enum ExampleLog {
    #if canImport(os)
        private static let logger = Logger(subsystem: "com.example.issuer", category: "Provisio")
    #endif

    static func error(_ message: String) {
        #if canImport(os)
            logger.error("\(message, privacy: .public)")
        #else
            print("error: \(message)")
        #endif
    }

    static func error(_ error: ProvisioError) {
        self.error(error.description)
    }
}
