/// `/mdes/{tenant_id}/issuerServices/1/0/{operation}`, read from the path before anything else.
struct MDESRoute: Sendable, Equatable {
    static let operations: Set<String> = [
        "authorizeService", "requestActivationMethods", "deliverActivationCode", "validateActivationCode",
        "notifyServiceActivated", "notifyTokenUpdated", "notifySuspiciousEvents", "getAccountInformation",
    ]

    var tenantID: String
    var operation: String

    /// Nil for any other path (an unknown operation included).
    init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 7, parts[0].isEmpty, parts[1] == "mdes", parts[3] == "issuerServices", parts[4] == "1",
            parts[5] == "0", Self.operations.contains(String(parts[6])),
            (1...64).contains(parts[2].count), parts[2].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { return nil }
        tenantID = String(parts[2])
        operation = String(parts[6])
    }
}
