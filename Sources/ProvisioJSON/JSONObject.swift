/// The members of a JSON object, in the order they were written, with at most one member per key.
///
/// "One member per key" is stricter than byte comparison: two keys that Swift's `String ==` treats
/// as equal (canonically equivalent, e.g. "é" precomposed and "e" + U+0301) are refused as well,
/// so no later consumer that keys by `String` (`JSONDecoder`, `[String: Any]`) can merge two
/// members and keep either one. Lookups and equality, on the other hand, use the exact scalars, so
/// a value compares and hashes exactly as its canonical bytes do.
public struct JSONObject: Sendable, Hashable {
    /// The members in the order they were written (or inserted).
    public private(set) var members: [(key: String, value: JSONValue)]
    /// Position of each member by key. `String` hashing and equality follow canonical equivalence,
    /// which is what finds equivalent keys; exact lookups check the bytes of the one candidate.
    private var positions: [String: Int]

    public init() {
        members = []
        positions = [:]
    }

    /// Members in order; nil if two keys are the same (or canonically equivalent).
    public init?(members: [(key: String, value: JSONValue)]) {
        self.init()
        for member in members {
            guard insert(member.value, forKey: member.key) else { return nil }
        }
    }

    /// Members known to have distinct keys; traps otherwise, as a `Dictionary` literal does.
    init(uniqueMembers: [(key: String, value: JSONValue)]) {
        guard let object = JSONObject(members: uniqueMembers) else {
            preconditionFailure("JSONObject built with the same key twice")
        }
        self = object
    }

    /// Appends a member; false (and no change) when the object already has this key or one
    /// canonically equivalent to it.
    @discardableResult
    public mutating func insert(_ value: JSONValue, forKey key: String) -> Bool {
        guard positions[key] == nil else { return false }
        positions[key] = members.count
        members.append((key: key, value: value))
        return true
    }

    /// Whether a member's key is `key` or canonically equivalent to it (what `insert` refuses).
    func containsEquivalentKey(_ key: String) -> Bool {
        positions[key] != nil
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in the order they were written.
    public var keys: [String] { members.map(\.key) }

    /// The value of the member whose key has exactly the scalars of `key`.
    public subscript(key: String) -> JSONValue? {
        guard let position = positions[key], members[position].key.utf8.elementsEqual(key.utf8) else { return nil }
        return members[position].value
    }

    /// The keys, in written order, that are not exactly (scalar for scalar) one of `allowed`: what a
    /// caller refuses as unknown fields at any level of a request body.
    public func unknownKeys(allowed: some Sequence<String>) -> [String] {
        let allowedBytes = Set(allowed.map { Array($0.utf8) })
        return members.lazy.map(\.key).filter { !allowedBytes.contains(Array($0.utf8)) }
    }

    /// Members sorted by the UTF-8 bytes of their keys, the order of the canonical form. Keys are
    /// distinct, so the order is total.
    public var membersInCanonicalOrder: [(key: String, value: JSONValue)] {
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    // Equality ignores member order (JSON objects are unordered) and compares keys exactly.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: a commutative sum of per-member hashes.
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            Self.hashExactly(member.key, into: &memberHasher)
            memberHasher.combine(member.value)
            sum = sum &+ memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }

    /// Hashes the exact UTF-8 bytes (`String.hash` normalizes, which `==` here does not).
    static func hashExactly(_ string: String, into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(string.utf8.count)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(uniqueMembers: elements.map { (key: $0.0, value: $0.1) })
    }
}
