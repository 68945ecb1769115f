import ProvisioCore
import ProvisioNetworkAPI
import ProvisioSandbox
import ProvisioSandboxAPI
import ProvisioSandboxServer
import Testing

/// The sandbox's and Core's enums and the documents' name every value with the same word. The
/// sandbox document's convert by exhaustive switches (`Schemas+Enums.swift`), so a case added on
/// either side breaks the build; here each mapping is held to the same word and to a bijection.
/// Provisio's network API still converts by spelling (`init(spelling:)`), so every word of it is
/// checked both ways.
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

    @Test func provisiosNetworkAPIAndTheSandboxNetworkSpellEveryValueAlike() throws {
        try Self.spelledAlike(Network.Wallet.self, Wallet.allCases)
        try Self.spelledAlike(Network.DeviceType.self, DeviceType.allCases)
        try Self.spelledAlike(Network.DecisionOutcome.self, Self.decisions)
        try Self.spelledAlike(Network.NetworkTokenEventRequest.EventPayload.self, NetworkTokenEvent.allCases)
    }

    @Test func aWordWithoutCounterpartIsRefusedNotGuessed() {
        #expect(throws: ProvisioError.self) { try SandboxDeviceKind(spelling: DeviceType.tablet) }
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

    /// Every word of `Document` converts to `Value`, and every one of `values` back: the same set.
    static func spelledAlike<Document: RawRepresentable & CaseIterable, Value: RawRepresentable>(
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
