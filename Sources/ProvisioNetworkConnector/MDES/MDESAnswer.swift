/// Why `MDESRequestSigning` did not hand MDES's answer to the generated code; the connector
/// turns it into a `network_*` error.
enum MDESAnswer: Error, Sendable {
    /// Not 2xx, with the first error's `ReasonCode` and `Source` when MDES sent the documented
    /// error object (never its `Description`, which is MDES's prose).
    case refused(status: Int, reasonCode: String?, source: String?)
    /// Too large, or not strict JSON.
    case malformed
}
