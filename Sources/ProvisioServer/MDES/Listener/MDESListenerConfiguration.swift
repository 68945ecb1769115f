/// Where the MDES Issuer Outbound listener runs and with which TLS files: its own certificate and
/// key, and the CA that issued the client certificate MDES presents (`--mdes-client-ca`).
public struct MDESListenerConfiguration: Sendable, Equatable {
    public var port: Int
    public var certificateFile: String
    public var keyFile: String
    public var clientCAFile: String

    public init(port: Int, certificateFile: String, keyFile: String, clientCAFile: String) {
        self.port = port
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.clientCAFile = clientCAFile
    }

    /// The listener's TLS context: client certificates required and checked against the CA.
    public func credentials() throws -> TLSCredentials {
        try TLSCredentials(certificateFile: certificateFile, keyFile: keyFile, clientCAFile: clientCAFile)
    }
}
