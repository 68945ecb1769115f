import Foundation
import ProvisioCore

/// Samsung Wallet in the sandbox: one Samsung account on an Android phone with a paired Galaxy
/// Watch, as the issuer's app reaches it through the Samsung Pay SDK (docs/samsung-wallet.md).
///
/// One wallet for both devices, because the account (`walletUserId`) and the issuer's app are the
/// phone's: the app calls `SamsungPay`/`CardManager` for the phone (this actor's methods) and
/// `WatchManager` for the watch (`watchManager(_:)`), with the same calls. Each device has its
/// own Samsung Pay status, `deviceId`, `walletDMId` and cards (`deviceType` `phone` or `gear`).
///
/// `addCard` hands the payload (the Base64 of the network's opaque payment card) to the token
/// service provider, the sandbox's card network, which opens it, checks it is a Samsung Pay card
/// of the provider's network, asks the issuer to decide and installs the token here: `ACTIVE` on
/// green, `PENDING_ACTIVATION` on yellow; red and a card the TSP refuses are
/// `ERROR_REGISTRATION_FAIL` (-104). The network's later changes arrive through
/// `SandboxTokenWallet`: suspended, resumed, `EXPIRED` when the network expires the token,
/// `DISPOSED` when it is deleted. The wallet never sees the card number, only last four digits.
///
/// Choices where Samsung's pages are silent (docs/android-wallets.md §7):
/// - A disposed or expired card stays listed by `getAllCards` in that state (a state Samsung
///   reports only makes sense for a card still listed); adding the card again is allowed.
/// - `getWalletInfo`, `getAllCards` and `addCard` need a `getSamsungPayStatus` that answered
///   `SPAY_READY` for the partner's service id on that device since the status last changed;
///   otherwise they fail with the status's reason (`sandbox_samsung_not_ready`).
/// - `getAllCards` lists the cards the partner's service id added (Samsung says "for this issuer").
/// - `ERROR_ALREADY_DONE` (-5) is known only once the network has opened the payload (the
///   wallet learns which card it is from the TSP): the network's new token is then deleted and
///   reported to the issuer as refused by the wallet.
/// - A cancelled add (`setCardholderCancels`) ends before the network is asked.
/// - A device holds at most `cardLimit` cards (the sandbox's bound; Samsung publishes none). A
///   disposed or expired card makes room for a new one (the oldest such card goes); a device
///   full of live cards refuses the add with -104 before the network is asked.
public actor SandboxSamsungWallet: SandboxTokenWallet {
    public nonisolated let walletKind = Wallet.samsungPay
    /// The Android phone (Samsung Pay's own device).
    public nonisolated let phone: SandboxDevice
    /// The Galaxy Watch paired with it, which the app reaches through `WatchManager`.
    public nonisolated let watch: SandboxDevice
    /// The token service provider addCard sends payloads to: the sandbox's one network plays
    /// every `PROVIDER_*` it serves (Visa, Mastercard, American Express, Discover).
    public nonisolated let tokenService: SandboxNetworkTokenService
    /// The Samsung account's `walletUserId`, the same on both devices.
    public nonisolated let walletUserID: String
    /// The most cards one device lists.
    public nonisolated let cardLimit: Int
    private nonisolated let phoneDMID: String
    private nonisolated let watchDMID: String

    /// Samsung Pay's status per device (ready unless a test switch says otherwise).
    private var statuses: [SandboxDeviceKind: SamsungPayStatusResult] = [:]
    /// Service ids whose `getSamsungPayStatus` answered `SPAY_READY`, per device.
    private var readyPartners: [SandboxDeviceKind: Set<String>] = [:]
    private var cardholderCancels = false
    /// Cards by Samsung's card id, and the order they arrived in.
    var cards: [String: SamsungCard] = [:]
    private var order: [String] = []
    /// The partner's service id that added each card.
    private var partnerOf: [String: String] = [:]
    /// addCard calls the network has not answered yet, by the wallet's request id.
    private var adds: [String: Add] = [:]

    private struct Add: Sendable {
        var cardType: SamsungCardType
        var provider: SamsungTokenizationProvider
        var partner: SamsungPartnerInfo
        var device: SandboxDevice
        var cardID: String?
    }

    /// The issuer name a card shows when the partner gave none (Samsung takes it from its portal).
    public static let defaultIssuerName = "Sandbox Issuer"
    public static let defaultCardLimit = 64

    /// - Parameters:
    ///   - phoneKey: the phone's hardware-backed key (a fresh one unless given); its hash is the
    ///     phone's `deviceId`.
    ///   - watchKey: the watch's.
    ///   - cardLimit: the most cards one device lists (at least 1).
    public init(
        tokenService: SandboxNetworkTokenService, phoneKey: SandboxSecureElement = SandboxSecureElement(),
        watchKey: SandboxSecureElement = SandboxSecureElement(), cardLimit: Int = SandboxSamsungWallet.defaultCardLimit
    ) {
        self.tokenService = tokenService
        self.cardLimit = max(1, cardLimit)
        self.phone = SandboxDevice(kind: .androidPhone, secureElementPublicKey: phoneKey.publicKey)
        self.watch = SandboxDevice(kind: .galaxyWatch, secureElementPublicKey: watchKey.publicKey)
        self.walletUserID = SandboxRandom.identifier(prefix: "", byteCount: 12)
        self.phoneDMID = SandboxRandom.identifier(prefix: "", byteCount: 12)
        self.watchDMID = SandboxRandom.identifier(prefix: "", byteCount: 12)
    }

    /// `WatchManager` for the paired watch, with the partner's `PartnerInfo`.
    public nonisolated func watchManager(_ partner: SamsungPartnerInfo) -> SamsungWatchManager {
        SamsungWatchManager(wallet: self, partner: partner)
    }

    // MARK: - The SDK on the phone (SamsungPay, CardManager)

    /// `SamsungPay.getSamsungPayStatus`.
    public func getSamsungPayStatus(_ partner: SamsungPartnerInfo) -> SamsungPayStatusResult {
        status(partner, on: phone)
    }

    /// `SamsungPay.getWalletInfo` with no keys.
    public func getWalletInfo(_ partner: SamsungPartnerInfo) throws -> SamsungWalletInfo {
        try walletInfo(partner, on: phone)
    }

    /// `CardManager.getAllCards`: the partner's cards on the phone, oldest first.
    public func getAllCards(_ partner: SamsungPartnerInfo) throws -> [SamsungCard] {
        try allCards(partner, on: phone)
    }

    /// `CardManager.addCard`: `onSuccess` with the new card, or `onFail` as a `ProvisioError`
    /// naming Samsung's constant: `sandbox_samsung_already_done` (-5),
    /// `sandbox_samsung_user_canceled` (-7), `sandbox_samsung_registration_failed` (-104, the TSP
    /// refused the payload or the issuer declined), `sandbox_samsung_not_ready`.
    public func addCard(_ info: SamsungAddCardInfo, _ partner: SamsungPartnerInfo) async throws -> SamsungCard {
        try await addCard(info, partner, on: phone)
    }

    /// `SamsungPay.activateSamsungPay()`: the cardholder finishes Samsung Pay's setup (-356).
    public func activateSamsungPay() {
        resolve(.spaySetupNotCompleted, on: phone)
    }

    /// `SamsungPay.goToUpdatePage()`: the cardholder updates Samsung Pay (-357).
    public func goToUpdatePage() {
        resolve(.spayAppNeedToUpdate, on: phone)
    }

    // MARK: - Test switches

    /// What `getSamsungPayStatus` answers on `device` from now on (`SPAY_NOT_READY` with -356 or
    /// -357, `SPAY_NOT_SUPPORTED` with -350…). Partners must ask for the status again.
    public func setSamsungPayStatus(_ result: SamsungPayStatusResult, on device: SandboxDevice) throws {
        try checkDevice(device)
        statuses[device.kind] = result
        readyPartners[device.kind] = nil
    }

    /// While true, the cardholder cancels every add on the wallet's screen (`ERROR_USER_CANCELED`).
    public func setCardholderCancels(_ cancels: Bool) {
        cardholderCancels = cancels
    }

    // MARK: - The cardholder in Samsung Wallet

    /// The cardholder deletes the card in Samsung Wallet: the network deletes the token and
    /// reports it to the issuer, and the card is `DISPOSED`. An expired card's token is already
    /// gone at the network: it is disposed here only.
    @discardableResult
    public func deleteCard(cardID: String) async throws -> SamsungCard {
        let card = try card(cardID)
        switch card.cardStatus {
        case .disposed:
            throw Self.notFound()
        case .expired:
            cards[cardID]?.cardStatus = .disposed
        default:
            try await tokenService.removeFromWallet(networkTokenRef: card.networkTokenRef)
        }
        return try self.card(cardID)
    }

    // MARK: - Per device (CardManager on the phone, WatchManager on the watch)

    func status(_ partner: SamsungPartnerInfo, on device: SandboxDevice) -> SamsungPayStatusResult {
        let result = currentStatus(partner, on: device)
        if result.status == .ready {
            readyPartners[device.kind, default: []].insert(partner.serviceID)
        } else {
            readyPartners[device.kind]?.remove(partner.serviceID)
        }
        return result
    }

    func walletInfo(_ partner: SamsungPartnerInfo, on device: SandboxDevice) throws -> SamsungWalletInfo {
        try requireReady(partner, on: device)
        return SamsungWalletInfo(deviceID: device.identifier, walletUserID: walletUserID, walletDMID: dmID(of: device))
    }

    func allCards(_ partner: SamsungPartnerInfo, on device: SandboxDevice) throws -> [SamsungCard] {
        try requireReady(partner, on: device)
        let type = Self.deviceType(device)
        return order.compactMap { cards[$0] }.filter {
            $0.deviceType == type && partnerOf[$0.cardID] == partner.serviceID
        }
    }

    func addCard(_ info: SamsungAddCardInfo, _ partner: SamsungPartnerInfo, on device: SandboxDevice) async throws
        -> SamsungCard
    {
        try requireReady(partner, on: device)
        try makeRoom(on: device)
        guard !cardholderCancels else {
            throw ProvisioError(
                .sandboxSamsungUserCanceled, "\(SamsungErrorCode.userCanceled): the cardholder cancelled the add.")
        }
        // The TSP's side of the hand-over: Provisio's payload is the Base64 of the JWE.
        guard let bytes = SamsungAddCardInfo.base64Decoded(info.provisionPayload),
            let opaquePaymentCard = String(data: bytes, encoding: .utf8)
        else {
            throw Self.registrationFailed("the token service cannot read the payload (it is not Base64)")
        }
        let requestID = SandboxRandom.identifier(prefix: "sbx_spay_add_")
        adds[requestID] = Add(cardType: info.cardType, provider: info.tokenizationProvider, partner: partner, device: device)
        defer { adds[requestID] = nil }
        let outcome: NetworkProvisioningOutcome
        do {
            outcome = try await tokenService.provision(
                opaquePaymentCard: opaquePaymentCard, ofNetworks: info.tokenizationProvider.cardNetworks, into: self,
                on: device, walletRequestID: requestID)
        } catch let error as ProvisioError where error.code == .sandboxSamsungAlreadyDone {
            throw error
        } catch {
            // The app sees Samsung's error; the TSP's own reason is kept for the tester.
            let reason = (error as? ProvisioError)?.code.rawValue ?? "unexpected error"
            throw Self.registrationFailed("the token service refused the payload (\(reason))")
        }
        guard outcome.decision != .decline else {
            throw Self.registrationFailed(
                "the issuer declined the card" + (outcome.reasons.isEmpty ? "" : " (\(outcome.reasons.joined(separator: ", ")))"))
        }
        guard let cardID = adds[requestID]?.cardID, let card = cards[cardID] else {
            throw Self.registrationFailed("the card was removed as it was added")
        }
        return card
    }

    func resolve(_ reason: SamsungErrorCode, on device: SandboxDevice) {
        if statuses[device.kind]?.errorReason == reason { statuses[device.kind] = nil }
    }

    // MARK: - SandboxTokenWallet (the network)

    public func install(_ card: SandboxWalletCard, state: SandboxPassActivationState, on device: SandboxDevice) throws
        -> String
    {
        try checkDevice(device)
        guard let requestID = card.walletRequestID, let add = adds[requestID], add.device == device else {
            throw Self.registrationFailed("Samsung Wallet installs only cards for its own addCard calls")
        }
        let type = Self.deviceType(device)
        let present = cards.values.contains {
            $0.primaryAccountIdentifier == card.primaryAccountIdentifier && $0.deviceType == type && $0.cardStatus.isInWallet
        }
        guard !present else {
            throw ProvisioError(
                .sandboxSamsungAlreadyDone, "\(SamsungErrorCode.alreadyDone): the card is already in Samsung Wallet.")
        }
        try makeRoom(on: device)
        let cardID = SandboxRandom.identifier(prefix: "sbx_spay_card_")
        cards[cardID] = SamsungCard(
            cardID: cardID, cardStatus: Self.cardState(state), last4FPAN: card.fundingLast4, last4DPAN: card.tokenLast4,
            cardType: add.cardType, issuerName: add.partner.issuerName ?? Self.defaultIssuerName, deviceType: type,
            tokenizationProvider: add.provider, networkTokenRef: card.networkTokenRef,
            primaryAccountIdentifier: card.primaryAccountIdentifier, fundingExpiry: card.details.expiry?.compact)
        order.append(cardID)
        partnerOf[cardID] = add.partner.serviceID
        adds[requestID]?.cardID = cardID
        return cardID
    }

    public func setState(_ state: SandboxPassActivationState, handle: String, on device: SandboxDevice) throws {
        try checkDevice(device)
        guard var card = cards[handle], card.cardStatus != .disposed else { throw Self.notFound() }
        card.cardStatus = Self.cardState(state)
        cards[handle] = card
    }

    /// The network deleted the token (the issuer deleted it, or the cardholder did here): the
    /// card stays listed, `DISPOSED`.
    public func remove(handle: String, on device: SandboxDevice) throws {
        try checkDevice(device)
        guard var card = cards[handle], card.cardStatus != .disposed else { throw Self.notFound() }
        card.cardStatus = .disposed
        cards[handle] = card
    }

    /// The card's bundle shows only the last four digits of what a reissue changes.
    public func showDetails(_ details: CardDetails, newLast4: String?, handle: String, on device: SandboxDevice) throws {
        try checkDevice(device)
        guard var card = cards[handle] else { throw Self.notFound() }
        if let newLast4 { card.last4FPAN = newLast4 }
        cards[handle] = card
    }

    // MARK: - Helpers

    /// The network's word for a card's state in Samsung's. `deactivated` is `EXPIRED`: the
    /// network deactivates a token only when it expires (it removes the card when it deletes it).
    static func cardState(_ state: SandboxPassActivationState) -> SamsungCardState {
        switch state {
        case .activated: .active
        case .requiresActivation: .pendingActivation
        case .activating: .pendingProvision
        case .suspended: .suspended
        case .deactivated: .expired
        }
    }

    static func deviceType(_ device: SandboxDevice) -> SamsungDeviceType {
        device.kind == .galaxyWatch ? .gear : .phone
    }

    func card(_ cardID: String) throws -> SamsungCard {
        guard let card = cards[cardID] else { throw Self.notFound() }
        return card
    }

    /// The wallet's device-management id on `device` (`walletDMId`).
    func dmID(of device: SandboxDevice) -> String {
        device == watch ? watchDMID : phoneDMID
    }

    func device(of card: SamsungCard) -> SandboxDevice {
        card.deviceType == .gear ? watch : phone
    }

    /// Room for one more card on `device`: the oldest disposed or expired card goes when the
    /// device is full; a device full of live cards refuses (-104).
    private func makeRoom(on device: SandboxDevice) throws {
        let type = Self.deviceType(device)
        let onDevice = order.filter { cards[$0]?.deviceType == type }
        guard onDevice.count >= cardLimit else { return }
        guard let gone = onDevice.first(where: { cards[$0]?.cardStatus.isInWallet == false }) else {
            throw Self.registrationFailed("Samsung Wallet holds its limit of \(cardLimit) cards on the \(device.kind)")
        }
        cards[gone] = nil
        partnerOf[gone] = nil
        order.removeAll { $0 == gone }
    }

    /// The status as it stands, without recording a check.
    private func currentStatus(_ partner: SamsungPartnerInfo, on device: SandboxDevice) -> SamsungPayStatusResult {
        let result = statuses[device.kind] ?? .ready
        guard result.status == .ready else { return result }
        // A partner that is not registered for push provisioning (APP2APP) cannot use it.
        return partner.serviceType == .app2app
            ? result : SamsungPayStatusResult(status: .notReady, errorReason: .partnerServiceType)
    }

    private func requireReady(_ partner: SamsungPartnerInfo, on device: SandboxDevice) throws {
        try checkDevice(device)
        let current = currentStatus(partner, on: device)
        guard current.status == .ready else {
            throw ProvisioError(.sandboxSamsungNotReady, "Samsung Pay is not ready on the \(device.kind): \(current).")
        }
        guard readyPartners[device.kind]?.contains(partner.serviceID) == true else {
            throw ProvisioError(
                .sandboxSamsungNotReady,
                "Call getSamsungPayStatus first: it has not answered SPAY_READY for this service id on the \(device.kind).")
        }
    }

    private func checkDevice(_ device: SandboxDevice) throws {
        guard device == phone || device == watch else {
            throw ProvisioError(.sandboxDeviceUnavailable, "This Samsung Wallet is on another phone and watch.")
        }
    }

    static func notFound() -> ProvisioError {
        ProvisioError(.sandboxSamsungCardNotFound, "\(SamsungErrorCode.notFound): no such card in Samsung Wallet.")
    }

    static func registrationFailed(_ why: String) -> ProvisioError {
        ProvisioError(.sandboxSamsungRegistrationFailed, "\(SamsungErrorCode.registrationFail): \(why).")
    }
}
