import Foundation

/// A property list as plain Sendable values, whatever format it was read from.
public enum PlistValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case date(Date)
    case data(Data)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    /// The value at a dotted key path (`NSExtension.NSExtensionPointIdentifier`).
    public subscript(path path: String) -> PlistValue? {
        var current: PlistValue? = self
        for component in path.split(separator: ".") {
            guard case .dictionary(let dictionary) = current else { return nil }
            current = dictionary[String(component)]
        }
        return current
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [PlistValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var dictionary: [String: PlistValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// An array of strings (entitlement lists); nil when it is not an array, non-strings dropped.
    public var strings: [String]? {
        array?.compactMap(\.string)
    }

    /// Converts what `PropertyListSerialization` returns. Nil for a type a property list cannot hold.
    init?(foundation object: Any) {
        switch object {
        case let value as String:
            self = .string(value)
        case let value as NSNumber:
            // Booleans, integers and reals all arrive as (or bridge to) NSNumber: a plist boolean
            // reports the objCType "c" (CFBoolean on Apple platforms, Bool on Linux, where an
            // integer NSNumber even casts to Bool), a real "f" or "d".
            let type = String(cString: value.objCType)
            if type == "c" {
                self = .bool(value.boolValue)
            } else if type == "f" || type == "d" {
                self = .real(value.doubleValue)
            } else {
                self = .integer(value.intValue)
            }
        case let value as Date:
            self = .date(value)
        case let value as Data:
            self = .data(value)
        case let value as [Any]:
            var items: [PlistValue] = []
            for item in value {
                guard let converted = PlistValue(foundation: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let value as [String: Any]:
            var items: [String: PlistValue] = [:]
            for (key, item) in value {
                guard let converted = PlistValue(foundation: item) else { return nil }
                items[key] = converted
            }
            self = .dictionary(items)
        case let value as [AnyHashable: Any]:
            var items: [String: PlistValue] = [:]
            for (key, item) in value {
                guard let key = key.base as? String, let converted = PlistValue(foundation: item) else { return nil }
                items[key] = converted
            }
            self = .dictionary(items)
        default:
            return nil
        }
    }

    /// The Foundation object, for writing (tests write binary copies).
    public var foundationObject: Any {
        switch self {
        case .string(let value): value
        case .bool(let value): value
        case .integer(let value): value
        case .real(let value): value
        case .date(let value): value
        case .data(let value): value
        case .array(let value): value.map(\.foundationObject)
        case .dictionary(let value): value.mapValues(\.foundationObject)
        }
    }
}
