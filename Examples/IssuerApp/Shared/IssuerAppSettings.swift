import Foundation
import ProvisioCore
import ProvisioKit

/// The settings the app and both Wallet extensions share, read from each target's Info.plist
/// dictionary `ProvisioExtension` — the dictionary ``ProvisioWalletExtensionHandler`` reads in the
/// non-UI extension, so all three targets take the App Group, the keychain group and Provisio's
/// URL from the same three keys:
///
/// ```xml
/// <key>ProvisioExtension</key>
/// <dict>
///     <key>AppGroup</key>            <string>group.com.example.issuer</string>
///     <key>KeychainAccessGroup</key> <string>$(AppIdentifierPrefix)com.example.issuer.shared</string>
///     <key>ServerURL</key>           <string>https://provisio.example.com</string>
/// </dict>
/// ```
struct IssuerAppSettings: Sendable, Hashable {
    /// The App Group shared by the app and both extensions (`com.apple.security.application-groups`).
    var appGroup: String
    /// The keychain access group shared by the three (`keychain-access-groups`), team prefix included.
    var keychainAccessGroup: String
    /// Provisio's base URL for the mobile API.
    var serverURL: URL

    /// Reads the `ProvisioExtension` dictionary; `extension_not_configured` when a key is missing,
    /// the same error the non-UI extension reports through `errorEncountered`.
    init(infoDictionary: [String: Any]) throws {
        let key = ProvisioWalletExtensionHandler.infoDictionaryKey
        guard let settings = infoDictionary[key] as? [String: Any],
            let appGroup = settings["AppGroup"] as? String, !appGroup.isEmpty,
            let keychainGroup = settings["KeychainAccessGroup"] as? String, !keychainGroup.isEmpty,
            let server = (settings["ServerURL"] as? String).flatMap(URL.init(string:)), server.scheme != nil
        else {
            throw ProvisioError(
                .extensionNotConfigured,
                "This target's Info.plist needs a \(key) dictionary with AppGroup, KeychainAccessGroup and ServerURL.")
        }
        self.init(appGroup: appGroup, keychainAccessGroup: keychainGroup, serverURL: server)
    }

    init(appGroup: String, keychainAccessGroup: String, serverURL: URL) {
        self.appGroup = appGroup
        self.keychainAccessGroup = keychainAccessGroup
        self.serverURL = serverURL
    }

    /// The running target's settings.
    static func main() throws -> IssuerAppSettings {
        try IssuerAppSettings(infoDictionary: Bundle.main.infoDictionary ?? [:])
    }

    /// The issuer's backend. Replace ``PlaceholderIssuerBackend`` with your implementation here.
    func makeBackend() -> any IssuerBackend {
        PlaceholderIssuerBackend()
    }

    /// The App Group storage the app writes and the non-UI extension reads
    /// (`app_group_unavailable` when the entitlement is missing).
    func makeStorage() throws -> any ExtensionStorage {
        #if canImport(Darwin)
            return try AppGroupStorage(appGroupIdentifier: appGroup)
        #else
            throw ProvisioError(.appGroupUnavailable, "App Groups exist only on Apple platforms.")
        #endif
    }

    /// The shared keychain the UI extension writes the session to and the non-UI extension reads
    /// it from (a missing entitlement surfaces as `keychain_group_unavailable` on first use).
    func makeSessionStore() throws -> any ExtensionSessionStore {
        #if canImport(Security)
            return KeychainSessionStore(accessGroup: keychainAccessGroup)
        #else
            throw ProvisioError(.keychainGroupUnavailable, "The shared keychain exists only on Apple platforms.")
        #endif
    }

    /// Where the UI extension keeps the device credential Face ID / Touch ID unlock: the keychain,
    /// behind the current biometry, in the shared keychain group.
    func makeBiometricCredentialStore() throws -> any BiometricCredentialStore {
        #if canImport(Security) && canImport(LocalAuthentication)
            return KeychainBiometricCredentialStore(accessGroup: keychainAccessGroup)
        #else
            throw ProvisioError(.keychainGroupUnavailable, "The keychain exists only on Apple platforms.")
        #endif
    }
}
