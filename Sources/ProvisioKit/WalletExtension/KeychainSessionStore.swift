#if canImport(Security)
    import Foundation
    import ProvisioCore
    import Security

    /// `ExtensionSessionStore` in the keychain access group shared by the app and both
    /// extensions: one generic-password item holding every signed-in account (so that adding or
    /// removing one account is a single keychain write). Compiled on Apple platforms only; not
    /// exercised on Linux (see the README).
    public struct KeychainSessionStore: ExtensionSessionStore {
        public let accessGroup: String
        public let service: String
        static let account = "provisio.extension-session"

        public init(accessGroup: String, service: String = "Provisio") {
            self.accessGroup = accessGroup
            self.service = service
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: Self.account, kSecAttrAccessGroup as String: accessGroup,
            ]
        }

        public func load() throws -> StoredExtensionSession? {
            var search = query
            search[kSecReturnData as String] = true
            search[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = item as? Data else { throw Self.failure(status) }
            // Every signed-in account in one item; the single-account form of earlier versions
            // still reads (as one account) and is rewritten in the current form on the next save.
            return try StoredExtensionSession.decode(from: data)
        }

        public func save(_ session: StoredExtensionSession) throws {
            let data = try session.encoded()
            let update = [kSecValueData as String: data]
            var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound {
                var add = query
                add[kSecValueData as String] = data
                // Readable by the non-UI extension while the device is locked after first unlock.
                add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                status = SecItemAdd(add as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw Self.failure(status) }
        }

        public func remove() throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure(status) }
        }

        static func failure(_ status: OSStatus) -> ProvisioError {
            if status == errSecMissingEntitlement {
                return ProvisioError(
                    .keychainGroupUnavailable,
                    "The keychain access group is not in this target's entitlements (app and both extensions need it).")
            }
            return ProvisioError(.keychainGroupUnavailable, "The shared keychain refused the session (OSStatus \(status)).")
        }
    }
#endif
