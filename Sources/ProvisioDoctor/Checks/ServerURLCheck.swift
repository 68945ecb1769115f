import Foundation
import ProvisioOutbound

/// `ProvisioExtension.ServerURL` is an absolute https URL. Plain http is accepted only for a
/// loopback host (a development server on the simulator's Mac), and said so in the notes.
struct ServerURLCheck: DoctorCheck {
    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        let key = "\(WalletIdentifiers.provisioDictionary).\(WalletIdentifiers.provisioServerURLKey)"
        var noted: Set<String> = []
        for target in project.walletTargets {
            guard let value = target.info?[path: key]?.string, !value.isEmpty else { continue }
            let file = project.display(target.infoPlistPath)
            if value.contains("$(") || value.contains("${") {
                if noted.insert(value).inserted {
                    output.notes.append("ServerURL \(value) is set from a build setting; its value was not checked.")
                }
                continue
            }
            guard let components = URLComponents(string: value), let scheme = components.scheme?.lowercased(),
                let host = components.host, !host.isEmpty
            else {
                output.add(
                    .serverURLInvalid, file: file, key: key,
                    message: "\(target.label)'s ServerURL \"\(value)\" is not an absolute URL with a host.",
                    fix: "Set it to Provisio's base URL, e.g. https://provisio.example.com.")
                continue
            }
            guard scheme != "https" else { continue }
            if scheme == "http", Self.isLoopback(host) {
                if noted.insert(value).inserted {
                    output.notes.append(
                        "ServerURL \(value) is a loopback development server over http: fine for the simulator, not for a device."
                    )
                }
                continue
            }
            output.add(
                .serverURLNotHTTPS, file: file, key: key,
                message:
                    "\(target.label)'s ServerURL \(value) is not https; the session and Apple's payload would travel in clear (and App Transport Security refuses it).",
                fix: "Serve Provisio over TLS and set ServerURL to its https URL.")
        }
    }

    /// `localhost`, or a literal loopback address (parsed strictly: `127.evil.example` is a name).
    static func isLoopback(_ host: String) -> Bool {
        host.lowercased() == "localhost" || IPAddress(host)?.addressClass == .loopback
    }
}
