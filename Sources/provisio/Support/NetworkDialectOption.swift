import ArgumentParser

/// Which card network dialect the sandbox's token service speaks to the issuer (`--network`):
/// Provisio's own network API, or Mastercard MDES's Issuer Outbound and Customer Service APIs.
enum NetworkDialectOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    case provisio
    case mdes
}
