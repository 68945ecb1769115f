import ProvisioCore
import ProvisioSandbox

/// What the issuer's app reads from PassKit, here from the sandbox device over HTTP: the
/// passes of the iPhone and the paired Watch as `ProvisioCore` snapshots. A mapping only; the
/// decisions are `ProvisioCore`'s (as in ProvisioKit).
enum DemoPassLibrary {
    static func snapshot(_ sandbox: SandboxClient) async throws -> PassLibrarySnapshot {
        let devices = try await sandbox.devices()
        let passes = try await sandbox.passes().map(snapshot)
        return PassLibrarySnapshot(
            passes: passes, isWatchPaired: devices.contains { $0.kind == .watch }, canAddPaymentPasses: true)
    }

    static func snapshot(_ pass: SandboxClient.Pass) -> WalletPassSnapshot {
        WalletPassSnapshot(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            primaryAccountIdentifier: pass.primaryAccountIdentifier, primaryAccountNumberSuffix: pass.primaryAccountNumberSuffix,
            deviceAccountIdentifier: pass.deviceAccountIdentifier,
            activationState: PassActivationState(rawValue: pass.activationState.rawValue), device: device(pass.device))
    }

    static func device(_ kind: SandboxClient.DeviceKind) -> WalletDevice { kind == .phone ? .phone : .watch }
    static func kind(_ device: WalletDevice) -> SandboxClient.DeviceKind { device == .phone ? .phone : .watch }
}
