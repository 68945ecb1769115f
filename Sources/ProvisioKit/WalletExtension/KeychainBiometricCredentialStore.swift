#if canImport(Security) && canImport(LocalAuthentication)
    import Foundation
    import LocalAuthentication
    import ProvisioCore
    import Security

    /// `BiometricCredentialStore` in the keychain: one generic-password item readable only after
    /// the cardholder passes the biometry enrolled now (`biometryCurrentSet`: enrolling another
    /// face or finger invalidates it) on this device with a passcode set. Put it in the shared
    /// keychain group when the app also signs in with it. Compiled on Apple platforms only; not
    /// exercised on Linux (see the README).
    public struct KeychainBiometricCredentialStore: BiometricCredentialStore {
        public let accessGroup: String?
        public let service: String
        public let account: String

        public init(accessGroup: String?, service: String = "Provisio", account: String = "provisio.biometric-credential") {
            self.accessGroup = accessGroup
            self.service = service
            self.account = account
        }

        private var query: [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        public func hasCredential() throws -> Bool {
            // Attributes only, and a context that may not prompt: never shows Face ID.
            let context = LAContext()
            context.interactionNotAllowed = true
            var search = query
            search[kSecReturnAttributes as String] = true
            search[kSecUseAuthenticationContext as String] = context
            let status = SecItemCopyMatching(search as CFDictionary, nil)
            switch status {
            case errSecSuccess, errSecInteractionNotAllowed: return true
            case errSecItemNotFound: return false
            default: throw KeychainSessionStore.failure(status)
            }
        }

        public func credential(unlockedBy context: LAContext) throws -> String? {
            var search = query
            search[kSecReturnData as String] = true
            search[kSecMatchLimit as String] = kSecMatchLimitOne
            search[kSecUseAuthenticationContext as String] = context
            var item: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = item as? Data else { throw KeychainSessionStore.failure(status) }
            return String(decoding: data, as: UTF8.self)
        }

        public func save(_ credential: String) throws {
            try remove()
            var error: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &error)
            else {
                throw ProvisioError(.keychainGroupUnavailable, "The keychain cannot protect an item with biometry here.")
            }
            var add = query
            add[kSecValueData as String] = Data(credential.utf8)
            add[kSecAttrAccessControl as String] = access
            let status = SecItemAdd(add as CFDictionary, nil)
            guard status == errSecSuccess else { throw KeychainSessionStore.failure(status) }
        }

        public func remove() throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainSessionStore.failure(status) }
        }
    }
#endif
