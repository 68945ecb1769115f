import ProvisioCore

extension RawRepresentable where RawValue == String {
    /// The case spelled like `word`, for Provisio's network API, whose enums and the sandbox's
    /// or Core's name every value with the same word (`WireEnumWordsTests` checks every pair
    /// both ways). A word without a counterpart is a mistake of the build, never of a caller (the
    /// generated code accepts only the document's words). The sandbox document's own enums
    /// convert by exhaustive switches instead.
    package init<Word: RawRepresentable>(spelling word: Word) throws where Word.RawValue == String {
        guard let value = Self(rawValue: word.rawValue) else {
            throw ProvisioError(.sandboxInternalError, "The word '\(word.rawValue)' has no counterpart in \(Self.self).")
        }
        self = value
    }
}
