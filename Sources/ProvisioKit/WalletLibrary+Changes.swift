import Foundation
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

extension WalletLibrary {
    /// A fresh snapshot each time PassKit says the iPhone's or the Watch's passes changed
    /// (`PKPassLibraryDidChange`, `PKPassLibraryRemotePaymentPassesDidChange`), starting with the
    /// current one — so a card's status and Add button follow Wallet. Ends when the task reading
    /// it is cancelled.
    public func changes(notificationCenter: NotificationCenter = .default) -> AsyncStream<PassLibrarySnapshot> {
        let (stream, continuation) = AsyncStream<PassLibrarySnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuation.yield(snapshot())
        let observers = ObserverBox(center: notificationCenter)
        for name in [Notification.Name.PKPassLibraryDidChange, .PKPassLibraryRemotePaymentPassesDidChange] {
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
final class ObserverBox: @unchecked Sendable {
    // @unchecked: `tokens` is read and written only while holding `lock`; NotificationCenter is thread-safe.
    private let lock = NSLock()
    private let center: NotificationCenter
    private var tokens: [any NSObjectProtocol] = []

    init(center: NotificationCenter) {
        self.center = center
    }

    func add(_ name: Notification.Name, _ action: @escaping @Sendable () -> Void) {
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in action() }
        lock.lock()
        tokens.append(token)
        lock.unlock()
    }

    func removeAll() {
        lock.lock()
        let removed = tokens
        tokens = []
        lock.unlock()
        for token in removed { center.removeObserver(token) }
    }
}
