import Foundation
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

extension WalletLibrary {
    /// The notifications PassKit posts when the iPhone's or the Watch's passes change. PassKit
    /// types them as `PKPassLibraryNotificationName`, not `Notification.Name`.
    nonisolated public static let passLibraryNotifications: [Notification.Name] = [
        PKPassLibraryNotificationName.PKPassLibraryDidChange, .PKPassLibraryRemotePaymentPassesDidChange,
    ].map { Notification.Name($0.rawValue) }

    /// A fresh snapshot each time PassKit says the iPhone's or the Watch's passes changed
    /// (`PKPassLibraryDidChange`, `PKPassLibraryRemotePaymentPassesDidChange`), starting with the
    /// current one — so a card's status and Add button follow Wallet. Ends when the task reading
    /// it is cancelled.
    public func changes(notificationCenter: NotificationCenter = .default) -> AsyncStream<PassLibrarySnapshot> {
        let (stream, continuation) = AsyncStream<PassLibrarySnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuation.yield(snapshot())
        let observers = ObserverBox(center: notificationCenter)
        for name in Self.passLibraryNotifications {
            observers.add(name) { [weak self] in
                Task { @MainActor in
                    guard let self else { return }
                    continuation.yield(self.snapshot())
                }
            }
        }
        continuation.onTermination = { _ in observers.removeAll() }
        return stream
    }
}

/// The notification observers of one `changes()` stream, removed when it ends.
final class ObserverBox: Sendable {
    /// NotificationCenter is thread-safe.
    private let center: NotificationCenter
    private let tokens = Locked<[ObserverToken]>([])

    init(center: NotificationCenter) {
        self.center = center
    }

    func add(_ name: Notification.Name, _ action: @escaping @Sendable () -> Void) {
        let token = ObserverToken(center.addObserver(forName: name, object: nil, queue: nil) { _ in action() })
        tokens.withLock { $0.append(token) }
    }

    func removeAll() {
        let removed = tokens.withLock { tokens in
            defer { tokens = [] }
            return tokens
        }
        for token in removed { center.removeObserver(token.observer) }
    }
}

/// What `addObserver(forName:object:queue:using:)` returns, to hand back to `removeObserver`.
///
/// `@unchecked Sendable`: Foundation types the token only as `NSObjectProtocol`, which is not
/// Sendable, but it is an opaque handle: nothing here calls it or reads it, it is only passed
/// back to NotificationCenter, which is thread-safe.
struct ObserverToken: @unchecked Sendable {
    let observer: any NSObjectProtocol

    init(_ observer: any NSObjectProtocol) { self.observer = observer }
}
