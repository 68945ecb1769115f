import Foundation
import ProvisioCore

/// Anything that turns PassKit's certificates into a validated chain at a given time.
public protocol AppleChainValidating: Sendable {
    func validate(base64Certificates: [String], scheme: EncryptionScheme, at time: Date) throws -> ValidatedAppleChain
}
