public struct Thing {
    public init() {}
}
