import ProvisioCore

extension RawRepresentable where RawValue == String {
    /// The case spelled like `word`: the sandbox's enums, Core's and the documents' name every
    /// value with the same word (`SandboxWireEnumTests` checks every pair both ways), so the
    /// wire's values convert by their spelling. A word without a counterpart is a mistake of the
    /// build, never of a caller (the generated code accepts only the document's words).
    package init<Word: RawRepresentable>(spelling word: Word) throws where Word.RawValue == String {
        guard let value = Self(rawValue: word.rawValue) else {
            throw ProvisioError(.sandboxInternalError, "The word '\(word.rawValue)' has no counterpart in \(Self.self).")
        }
        self = value
    }
}
