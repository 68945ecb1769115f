import ProvisioCore
import ProvisioSandbox

/// The network token's state in the Customer Service API's search codes: `U` not yet usable
/// (pending activation), `A` active, `S` suspended, `D` deleted (a declined token never became
/// one at MDES, so it reads as deleted).
enum MDESSearchCodes {
    static func status(_ state: NetworkTokenState) -> String {
        switch state {
        case .pendingActivation: "U"
        case .active: "A"
        case .suspended: "S"
        case .deleted, .declined: "D"
        }
    }

    static func mmyy(_ expiry: CardExpiry) -> String {
        let month = expiry.month < 10 ? "0\(expiry.month)" : "\(expiry.month)"
        let year = expiry.year % 100 < 10 ? "0\(expiry.year % 100)" : "\(expiry.year % 100)"
        return month + year
    }
}
