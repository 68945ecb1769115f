import ProvisioSandboxAPI

/// What `SandboxClient` returns and takes: the types generated from sandbox-openapi.yaml, the one
/// description of each object on the wire. Named here so that a caller needs no import of the
/// generated module, whose `Components` would clash with Provisio's own. None carries a PAN:
/// passes and tokens show the last four digits only.
extension SandboxClient {
    public typealias Device = Components.Schemas.Device
    public typealias DeviceKind = Components.Schemas.DeviceKind
    public typealias EncryptionScheme = Components.Schemas.EncryptionScheme
    public typealias AddSession = Components.Schemas.AddSession
    /// Provisio's `apple-pay` answer, field for field, as the issuer app hands it to Wallet.
    public typealias SubmissionRequest = Components.Schemas.SubmissionRequest
    public typealias Submission = Components.Schemas.Submission
    public typealias Outcome = Components.Schemas.Outcome
    public typealias DecisionOutcome = Components.Schemas.DecisionOutcome
    public typealias Pass = Components.Schemas.Pass
    public typealias PassActivationState = Components.Schemas.PassActivationState
    public typealias Risk = Components.Schemas.Risk
    public typealias Token = Components.Schemas.Token
    public typealias NetworkTokenState = Components.Schemas.NetworkTokenState
    public typealias OTPChallenge = Components.Schemas.OTPChallenge
    /// What the cardholder or the network does to a token (`POST /sandbox/v1/tokens/{ref}/events`).
    public typealias TokenEvent = Components.Schemas.TokenEventRequest.EventPayload
}
