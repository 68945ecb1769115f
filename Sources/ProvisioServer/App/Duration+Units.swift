extension Duration {
    /// Whole milliseconds (sub-millisecond parts dropped), for APIs that take an integer.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// In seconds, for `Date` arithmetic.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
