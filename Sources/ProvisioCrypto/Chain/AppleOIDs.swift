import SwiftASN1

/// Object identifiers of Apple's provisioning PKI.
public enum AppleOIDs {
    /// Critical extension on the `ecc-crypto-services-encipherment` leaf.
    public static let provisioningEnciphermentLeaf: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 39]
    /// Marker on Apple Worldwide Developer Relations intermediates.
    public static let developerRelationsIntermediate: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 15]
}
