import Foundation
import ProvisioCore
import SwiftASN1
import X509

/// Trust anchors for PassKit certificate chains.
public enum TrustAnchors {
    /// Apple Root CA - G3, the production anchor, bundled with the package.
    /// SHA-256 fingerprint 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79.
    public static let appleRootCAG3: Certificate = {
        guard let url = Bundle.module.url(forResource: "apple-root-ca-g3", withExtension: "pem"),
            let pem = try? String(contentsOf: url, encoding: .utf8),
            let certificate = try? Certificate(pemEncoded: pem)
        else {
            fatalError("The bundled Apple Root CA - G3 resource is missing or corrupt; the package is broken.")
        }
        return certificate
    }()

    /// Reads every certificate in a PEM file (a sandbox root, a test root).
    public static func load(pemFile path: String) throws -> [Certificate] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ProvisioError(.trustAnchorInvalid, "Cannot read the trust anchor file \(path).")
        }
        return try parse(pem: text, source: path)
    }

    public static func parse(pem text: String, source: String = "PEM") throws -> [Certificate] {
        do {
            let documents = try PEMDocument.parseMultiple(pemString: text)
            let certificates = try documents.filter { $0.discriminator == "CERTIFICATE" }.map { try Certificate(pemDocument: $0) }
            guard !certificates.isEmpty else {
                throw ProvisioError(.trustAnchorInvalid, "\(source) holds no certificate.")
            }
            return certificates
        } catch let error as ProvisioError {
            throw error
        } catch {
            throw ProvisioError(.trustAnchorInvalid, "\(source) is not a valid PEM certificate.")
        }
    }
}
