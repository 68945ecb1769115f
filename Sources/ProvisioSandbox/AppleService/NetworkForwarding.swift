/// Where Apple's provisioning service sends an accepted add-card request: the card network's
/// token service, which asks the issuer to decide and creates the token. The sandbox's network
/// side implements it; throwing refuses the add with that error.
public protocol NetworkForwarding: Sendable {
    func forward(_ submission: ProvisioningSubmission) async throws
}
