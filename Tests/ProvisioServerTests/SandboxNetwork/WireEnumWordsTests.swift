import ProvisioCore
import ProvisioNetworkAPI
import ProvisioSandbox
import ProvisioSandboxAPI
import ProvisioSandboxServer
import Testing

/// The sandbox's and Core's enums and the documents' name every value with the same word. Each
/// pair converts by exhaustive switches (`Schemas+Enums.swift`, `IssuerConnection+Enums.swift`),
/// so a case added on either side breaks the build; here each mapping is held to the same word
/// and to a bijection, so the JSON stays what the values' own raw values say.
@Suite struct WireEnumWordsTests {
    typealias Sandbox = ProvisioSandboxAPI.Components.Schemas
    typealias Network = ProvisioNetworkAPI.Components.Schemas

    static let decisions: [DecisionOutcome] = [.approve, .requireVerification, .decline]

    @Test func theSandboxDocumentsEnumsMapWordForWord() {
        Self.sameWords(SandboxDeviceKind.allCases, Sandbox.DeviceKind.init, back: SandboxDeviceKind.init)
        Self.sameWords(EncryptionScheme.allCases, Sandbox.EncryptionScheme.init, back: EncryptionScheme.init)
        Self.sameWords(Self.decisions, Sandbox.DecisionOutcome.init, back: DecisionOutcome.init)
        Self.sameWords(NetworkTokenState.allCases, Sandbox.NetworkTokenState.init)
        Self.sameWords(SandboxPassActivationState.allCases, Sandbox.PassActivationState.init)
    }

    @Test func provisiosNetworkAPIsEnumsMapWordForWord() {
        Self.sameWords(Wallet.allCases, Network.Wallet.init)
        Self.sameWords(DeviceType.allCases, Network.DeviceType.init)
        Self.sameWords(Self.decisions, Network.DecisionOutcome.init, back: DecisionOutcome.init)
        Self.sameWords(NetworkTokenEvent.allCases, Network.NetworkTokenEventRequest.EventPayload.init)
    }

    /// Every value converts to the document's case of the same word, no two to the same one, and
    /// every case of the document is reached (and, given `back`, converts back to its value).
    static func sameWords<Value: RawRepresentable & Equatable, Document: RawRepresentable & CaseIterable & Hashable>(
        _ values: [Value], _ wire: (Value) -> Document, back: ((Document) -> Value)? = nil
    ) where Value.RawValue == String, Document.RawValue == String {
        for value in values {
            #expect(wire(value).rawValue == value.rawValue, "\(Value.self).\(value)")
        }
        #expect(Set(values.map(wire)) == Set(Document.allCases), "\(Document.self) and \(Value.self) differ")
        guard let back else { return }
        for value in values {
            #expect(back(wire(value)) == value, "\(Value.self).\(value) does not come back")
        }
    }
}
