import ProvisioCore
import ProvisioNetworkAPI
import ProvisioSandbox
import ProvisioSandboxAPI
import Testing

/// The sandbox's values cross the wire by their spelling (`init(spelling:)`): every word of each
/// document enum has its counterpart in the sandbox's or Core's enum, and every case of those
/// has its word in the document — so a case added on either side fails here, not on the wire.
@Suite struct SandboxWireEnumTests {
    typealias Sandbox = ProvisioSandboxAPI.Components.Schemas
    typealias Network = ProvisioNetworkAPI.Components.Schemas

    static let decisions: [DecisionOutcome] = [.approve, .requireVerification, .decline]

    @Test func theSandboxDocumentAndTheSandboxSpellEveryValueAlike() throws {
        try Self.sameWords(Sandbox.DeviceKind.self, SandboxDeviceKind.allCases)
        try Self.sameWords(Sandbox.EncryptionScheme.self, EncryptionScheme.allCases)
        try Self.sameWords(Sandbox.DecisionOutcome.self, Self.decisions)
        try Self.sameWords(Sandbox.NetworkTokenState.self, NetworkTokenState.allCases)
        try Self.sameWords(Sandbox.PassActivationState.self, SandboxPassActivationState.allCases)
        try Self.sameWords(Sandbox.TokenEventRequest.EventPayload.self, SandboxWire.TokenEventRequest.Event.allCases)
        try Self.sameWords(Sandbox.LifecycleRequest.ActionPayload.self, IssuerLifecycleAction.allCases)
    }

    @Test func provisiosNetworkAPIAndTheSandboxNetworkSpellEveryValueAlike() throws {
        try Self.sameWords(Network.Wallet.self, Wallet.allCases)
        try Self.sameWords(Network.DeviceType.self, DeviceType.allCases)
        try Self.sameWords(Network.DecisionOutcome.self, Self.decisions)
        try Self.sameWords(Network.NetworkTokenEventRequest.EventPayload.self, NetworkTokenEvent.allCases)
    }

    @Test func aWordWithoutCounterpartIsRefusedNotGuessed() {
        #expect(throws: ProvisioError.self) { try SandboxDeviceKind(spelling: DeviceType.tablet) }
    }

    /// Every word of `Document` converts to `Value`, and every one of `values` back: the same set.
    static func sameWords<Document: RawRepresentable & CaseIterable, Value: RawRepresentable>(
        _ document: Document.Type, _ values: [Value]
    ) throws where Document.RawValue == String, Value.RawValue == String {
        for word in Document.allCases {
            #expect(try Value(spelling: word).rawValue == word.rawValue, "\(Document.self).\(word)")
        }
        for value in values {
            #expect(try Document(spelling: value).rawValue == value.rawValue, "\(Value.self).\(value)")
        }
        #expect(Document.allCases.count == values.count, "\(Document.self) and \(Value.self) differ")
    }
}
