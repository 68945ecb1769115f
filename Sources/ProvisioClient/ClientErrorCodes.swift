import ProvisioCore

/// ProvisioClient's own codes, for failures where Provisio gave no error answer it could read.
/// They never go on a wire. Written by hand until error-codes.yaml has a ProvisioClient section;
/// the statuses below are for that table (each code's nearest meaning).
extension ProvisioError.Code {
    /// The whole call did not finish within its timeout (502: the service behind did not answer).
    public static let clientTimeout = Self("client_timeout")
    /// The request could not be sent or its answer not received: no connection, TLS, … (502).
    public static let clientTransportFailed = Self("client_transport_failed")
    /// Provisio answered with something that is not the documented shape (502).
    public static let clientResponseInvalid = Self("client_response_invalid")
    /// The call was cancelled by its caller (400).
    public static let clientCancelled = Self("client_cancelled")
    /// The request could not be built: bad card id, bad base URL (400).
    public static let clientRequestInvalid = Self("client_request_invalid")
}
