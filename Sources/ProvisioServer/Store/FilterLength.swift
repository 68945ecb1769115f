import ProvisioCore

/// A query's text filters held to their lengths (the audit log's, the token lookup's): each one
/// given is 1 to its maximum characters, or `invalid_parameter` naming it.
enum FilterLength {
    static func check(_ filters: [(name: String, value: String?, maximum: Int)]) throws {
        for filter in filters {
            if let value = filter.value, !(1...filter.maximum).contains(value.count) {
                throw ProvisioError(.invalidParameter, "\(filter.name) must be 1 to \(filter.maximum) characters.")
            }
        }
    }
}
