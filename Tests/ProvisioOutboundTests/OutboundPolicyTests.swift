import Foundation
import ProvisioCore
import Testing

@testable import ProvisioOutbound

@Suite struct OutboundPolicyTests {
    enum Outcome: Sendable, CustomStringConvertible {
        case accepted(String)
        case refused(ProvisioError.Code)

        var description: String {
            switch self {
            case .accepted(let url): "accepted as \(url)"
            case .refused(let code): "refused with \(code)"
            }
        }
    }

    static let longPath = "/" + String(repeating: "a", count: 2048 - "https://example.com/".utf8.count)
    static let label63 = String(repeating: "a", count: 63)
    /// 4 × 63 + 3 dots = 255 characters; trimmed to 253 and 254.
    static let name253 = String([label63, label63, label63, label63].joined(separator: ".").dropFirst(2))

    /// Under `.development` (http and loopback allowed, everything else internal refused).
    static let developmentCases: [(String, Outcome)] = [
        // Numeric hosts resolvers read as addresses.
        ("http://0.0.0.0/", .refused(.outboundAddressRefused)),
        ("http://0.0.0.0:8080/", .refused(.outboundAddressRefused)),
        ("http://2130706433/", .refused(.outboundURLInvalid)),
        ("http://0x7f.0.0.1/", .refused(.outboundURLInvalid)),
        ("http://0x7f000001/", .refused(.outboundURLInvalid)),
        ("http://0177.0.0.1/", .refused(.outboundURLInvalid)),
        ("http://127.1/", .refused(.outboundURLInvalid)),
        ("http://127.0.0.1./", .refused(.outboundURLInvalid)),
        ("http://1.2.3.4.5/", .refused(.outboundURLInvalid)),
        ("http://256.0.0.1/", .refused(.outboundURLInvalid)),
        ("http://example.123/", .refused(.outboundURLInvalid)),
        ("http://example.0x/", .refused(.outboundURLInvalid)),
        ("http://%31%32%37.0.0.1/", .refused(.outboundURLInvalid)),
        // IP literals.
        ("http://127.0.0.1:8080/hook", .accepted("http://127.0.0.1:8080/hook")),
        ("http://[::1]/", .accepted("http://[::1]/")),
        ("http://[0:0:0:0:0:0:0:1]:80/", .accepted("http://[::1]/")),
        ("http://[::ffff:127.0.0.1]/", .accepted("http://[::ffff:127.0.0.1]/")),
        ("http://[::ffff:7f00:1]/", .accepted("http://[::ffff:127.0.0.1]/")),
        ("http://[::]/", .refused(.outboundAddressRefused)),
        ("http://[::ffff:10.0.0.1]/", .refused(.outboundAddressRefused)),
        ("http://[fe80::1%25eth0]/", .refused(.outboundURLInvalid)),
        ("http://[fe80::1]/", .refused(.outboundAddressRefused)),
        ("http://[fd00:ec2::254]/latest/meta-data/", .refused(.outboundAddressRefused)),
        ("http://[v1.x]/", .refused(.outboundURLInvalid)),
        ("http://169.254.169.254/latest/meta-data", .refused(.outboundAddressRefused)),
        ("http://10.1.2.3/", .refused(.outboundAddressRefused)),
        ("http://100.64.0.1/", .refused(.outboundAddressRefused)),
        ("http://224.0.0.1/", .refused(.outboundAddressRefused)),
        ("http://255.255.255.255/", .refused(.outboundAddressRefused)),
        ("http://8.8.8.8/", .accepted("http://8.8.8.8/")),
        // Credentials, including the ones that make a URL look like another host.
        ("http://user:pass@example.com/", .refused(.outboundURLHasCredentials)),
        ("http://example.com@127.0.0.1/", .refused(.outboundURLHasCredentials)),
        ("http://@example.com/", .refused(.outboundURLHasCredentials)),
        ("http://:@example.com/", .refused(.outboundURLHasCredentials)),
        ("http://example.com\\@127.0.0.1/", .refused(.outboundURLInvalid)),
        // Loopback names (RFC 6761).
        ("http://localhost/", .accepted("http://localhost/")),
        ("http://foo.localhost/", .accepted("http://foo.localhost/")),
        ("http://LOCALHOST.:3000/x", .accepted("http://localhost.:3000/x")),
        ("http://localhost.example.com/", .accepted("http://localhost.example.com/")),
        // Ports.
        ("https://example.com:0/", .refused(.outboundURLInvalid)),
        ("https://example.com:65536/", .refused(.outboundURLInvalid)),
        ("https://example.com:99999999999999999999/", .refused(.outboundURLInvalid)),
        ("https://example.com:/", .refused(.outboundURLInvalid)),
        ("https://example.com:-1/", .refused(.outboundURLInvalid)),
        ("https://example.com:65535/", .accepted("https://example.com:65535/")),
        ("https://example.com:443/", .accepted("https://example.com/")),
        ("http://example.com:0080/", .accepted("http://example.com/")),
        ("https://example.com:80/", .accepted("https://example.com:80/")),
        // Schemes and shape.
        ("ftp://example.com/", .refused(.outboundURLInvalid)),
        ("file:///etc/passwd", .refused(.outboundURLInvalid)),
        ("gopher://example.com/", .refused(.outboundURLInvalid)),
        ("http:example.com", .refused(.outboundURLInvalid)),
        ("http:/example.com", .refused(.outboundURLInvalid)),
        ("http:///path", .refused(.outboundURLInvalid)),
        ("//example.com/", .refused(.outboundURLInvalid)),
        ("example.com", .refused(.outboundURLInvalid)),
        ("", .refused(.outboundURLInvalid)),
        ("http://example.com/#", .refused(.outboundURLInvalid)),
        ("http://example.com/#frag", .refused(.outboundURLInvalid)),
        ("http://example.com/%zz", .refused(.outboundURLInvalid)),
        ("http://example.com/%4", .refused(.outboundURLInvalid)),
        (" http://example.com/", .refused(.outboundURLInvalid)),
        ("http://example.com/\n", .refused(.outboundURLInvalid)),
        // Host names.
        ("http://exa mple.com/", .refused(.outboundURLInvalid)),
        ("http://bücher.example/", .refused(.outboundURLInvalid)),
        ("http://ｅｘａｍｐｌｅ.com/", .refused(.outboundURLInvalid)),
        ("http://xn--bcher-kva.example/", .accepted("http://xn--bcher-kva.example/")),
        ("http://ex_ample.com/", .refused(.outboundURLInvalid)),
        ("http://-example.com/", .refused(.outboundURLInvalid)),
        ("http://example-.com/", .refused(.outboundURLInvalid)),
        ("http://example..com/", .refused(.outboundURLInvalid)),
        ("http://.example.com/", .refused(.outboundURLInvalid)),
        ("http://example.com../", .refused(.outboundURLInvalid)),
        ("http://./", .refused(.outboundURLInvalid)),
        ("http://example.com./", .accepted("http://example.com./")),
        ("http://\(label63).example/", .accepted("http://\(label63).example/")),
        ("http://a\(label63).example/", .refused(.outboundURLInvalid)),
        ("http://\(name253)/", .accepted("http://\(name253)/")),
        ("http://\(name253)./", .accepted("http://\(name253)./")),
        ("http://a\(name253)/", .refused(.outboundURLInvalid)),
        // Normalization.
        ("HTTPS://EXAMPLE.COM/x", .accepted("https://example.com/x")),
        ("https://Example.com", .accepted("https://example.com/")),
        ("https://example.com?a=1&b=%20", .accepted("https://example.com/?a=1&b=%20")),
        ("https://example.com/a/b?", .accepted("https://example.com/a/b?")),
        ("https://[2606:4700:4700:0::1111]:8443/x?y=1", .accepted("https://[2606:4700:4700::1111]:8443/x?y=1")),
        // Length.
        ("https://example.com\(longPath)", .accepted("https://example.com\(longPath)")),
        ("https://example.com\(longPath)a", .refused(.outboundURLInvalid)),
    ]

    @Test(arguments: developmentCases)
    func developmentPolicy(_ text: String, _ expected: Outcome) {
        Self.expect(.development, text, expected)
    }

    /// Under `.production`: https only, no loopback.
    static let productionCases: [(String, Outcome)] = [
        ("http://example.com/", .refused(.outboundHTTPSRequired)),
        ("http://localhost/", .refused(.outboundHTTPSRequired)),
        ("https://example.com/", .accepted("https://example.com/")),
        ("https://8.8.8.8/", .accepted("https://8.8.8.8/")),
        ("https://127.0.0.1/", .refused(.outboundAddressRefused)),
        ("https://[::1]/", .refused(.outboundAddressRefused)),
        ("https://[::ffff:127.0.0.1]/", .refused(.outboundAddressRefused)),
        ("https://[::ffff:7f00:1]/", .refused(.outboundAddressRefused)),
        ("https://[2002:7f00:1::]/", .refused(.outboundAddressRefused)),
        ("https://[64:ff9b::a9fe:a9fe]/", .refused(.outboundAddressRefused)),
        ("https://localhost/", .refused(.outboundAddressRefused)),
        ("https://foo.localhost/", .refused(.outboundAddressRefused)),
        ("https://Foo.LocalHost./", .refused(.outboundAddressRefused)),
        ("https://0.0.0.0/", .refused(.outboundAddressRefused)),
        ("https://10.1.2.3/", .refused(.outboundAddressRefused)),
        ("https://172.16.0.1/", .refused(.outboundAddressRefused)),
        ("https://192.168.1.1/", .refused(.outboundAddressRefused)),
        ("https://169.254.169.254/latest/meta-data", .refused(.outboundAddressRefused)),
        ("https://192.0.2.1/", .refused(.outboundAddressRefused)),
        ("https://2130706433/", .refused(.outboundURLInvalid)),
        ("https://user:pass@example.com/", .refused(.outboundURLHasCredentials)),
        ("https://example.com@127.0.0.1/", .refused(.outboundURLHasCredentials)),
        ("https://[fe80::1%25eth0]/", .refused(.outboundURLInvalid)),
        ("ftp://example.com/", .refused(.outboundURLInvalid)),
    ]

    @Test(arguments: productionCases)
    func productionPolicy(_ text: String, _ expected: Outcome) {
        Self.expect(.production, text, expected)
    }

    @Test func theAllowListAdmitsOnlyItsOwnRanges() throws {
        let policy = OutboundPolicy(allowedRanges: try OutboundPolicy.parseAllowList("10.0.0.0/8"))
        #expect(
            policy
                == OutboundPolicy(allowLoopback: false, allowedRanges: [IPAddressRange(cidr: "10.0.0.0/8")!], requireHTTPS: true))
        #expect(try policy.checkURL("https://10.1.2.3/hook").address == IPAddress(ipv4: "10.1.2.3"))
        #expect(try policy.checkURL("https://[::ffff:10.1.2.3]/").isIPLiteral)
        for text in ["10.0.0.0", "10.1.2.3", "10.255.255.255", "::ffff:10.1.2.3", "8.8.8.8"] {
            #expect(policy.allows(IPAddress(text)!), "\(text)")
            #expect(throws: Never.self) { try policy.check(IPAddress(text)!) }
        }
        for text in ["172.16.0.1", "192.168.1.1", "127.0.0.1", "169.254.169.254", "fd00::1", "64:ff9b::10.1.2.3"] {
            #expect(!policy.allows(IPAddress(text)!), "\(text)")
            let error = #expect(throws: ProvisioError.self) { try policy.check(IPAddress(text)!) }
            #expect(error?.code == .outboundAddressRefused)
        }
        for text in ["https://localhost/", "https://192.168.1.1/", "https://[fd00::1]/", "http://10.1.2.3/"] {
            #expect(throws: ProvisioError.self) { try policy.checkURL(text) }
        }
        // At the edges of a narrower block, the neighbours stay refused.
        let narrow = OutboundPolicy(allowedRanges: try OutboundPolicy.parseAllowList("10.1.0.0/16, fd00:1::/32"))
        for (text, allowed) in [
            ("10.0.255.255", false), ("10.1.0.0", true), ("10.1.255.255", true), ("10.2.0.0", false),
            ("fd00:0:ffff:ffff:ffff:ffff:ffff:ffff", false), ("fd00:1::", true),
            ("fd00:1:ffff:ffff:ffff:ffff:ffff:ffff", true), ("fd00:2::", false),
        ] {
            #expect(narrow.allows(IPAddress(text)!) == allowed, "\(text)")
        }
    }

    @Test func theAllowListNeverAdmitsNonUnicastDestinations() throws {
        let everything = OutboundPolicy(allowLoopback: true, allowedRanges: try OutboundPolicy.parseAllowList("0.0.0.0/0,::/0"))
        for text in ["0.0.0.0", "0.1.2.3", "::", "224.0.0.1", "ff02::1", "255.255.255.255", "::ffff:0.0.0.0"] {
            #expect(!everything.allows(IPAddress(text)!), "\(text)")
        }
        for text in ["10.1.2.3", "127.0.0.1", "fe80::1", "fd00:ec2::254", "100.64.0.1", "240.0.0.1"] {
            #expect(everything.allows(IPAddress(text)!), "\(text)")
        }
    }

    @Test func loopbackNamesFollowTheLoopbackAllowList() throws {
        let listed = OutboundPolicy(allowedRanges: try OutboundPolicy.parseAllowList("127.0.0.0/8"))
        #expect(try listed.checkURL("https://localhost:8443/").port == 8443)
        #expect(throws: ProvisioError.self) { try OutboundPolicy.production.checkURL("https://localhost:8443/") }
    }

    @Test func developmentAllowsLoopbackButNoOtherInternalAddress() {
        for (text, addressClass) in IPAddressTests.edges {
            let address = IPAddress(text)!
            let allowed = addressClass == .publicUnicast || addressClass == .loopback
            #expect(OutboundPolicy.development.allows(address) == allowed, "\(text)")
            #expect(OutboundPolicy.production.allows(address) == (addressClass == .publicUnicast), "\(text)")
        }
    }

    @Test func refusalsNameTheClassButNeverTheAddress() {
        for (text, addressClass) in IPAddressTests.edges where addressClass != .publicUnicast {
            let address = IPAddress(text)!
            let error = #expect(throws: ProvisioError.self) { try OutboundPolicy.production.check(address) }
            #expect(error?.code == .outboundAddressRefused)
            #expect(error?.message.contains(addressClass.nounPhrase) == true)
            #expect(error?.message.contains(address.description) == false, "\(text)")
            #expect(error?.message.contains(text) == false, "\(text)")
        }
        let error = #expect(throws: ProvisioError.self) { try OutboundPolicy.production.check(IPAddress("10.9.8.7")!) }
        #expect(error?.message == "The destination resolves to a private-network address, which outbound calls may not reach.")
    }

    @Test func anOutboundURLCarriesItsParts() throws {
        let named = try OutboundPolicy.production.checkURL("HTTPS://Hooks.Example.COM:8443/v1/events?tenant=7")
        #expect(named.scheme == "https" && named.host == "hooks.example.com" && named.port == 8443)
        #expect(!named.isIPLiteral && named.address == nil && named.isHTTPS)
        #expect(named.url == "https://hooks.example.com:8443/v1/events?tenant=7" && named.description == named.url)
        let literal = try OutboundPolicy.development.checkURL("http://[0::1]/")
        #expect(literal.scheme == "http" && literal.host == "::1" && literal.port == 80)
        #expect(literal.isIPLiteral && literal.address == IPAddress(ipv6: "::1") && !literal.isHTTPS)
        let v4 = try OutboundPolicy.production.checkURL("https://93.184.215.14")
        #expect(v4.host == "93.184.215.14" && v4.port == 443 && v4.url == "https://93.184.215.14/")
        // A normalized URL passes again unchanged.
        for url in [named, literal, v4] {
            #expect(try OutboundPolicy.development.checkURL(url.url) == url)
        }
    }

    // MARK: - Allow-list parsing

    @Test func parsesTheAllowList() throws {
        let ranges = try OutboundPolicy.parseAllowList(" 10.0.0.0/8 , fd00::/8,,192.168.1.7/24, ::1 ,")
        #expect(ranges.map(\.description) == ["10.0.0.0/8", "fd00::/8", "192.168.1.0/24", "::1/128"])
        #expect(try OutboundPolicy.parseAllowList("").isEmpty)
        #expect(try OutboundPolicy.parseAllowList(" , ").isEmpty)
    }

    @Test(arguments: ["10.0.0.0/33", "10.0.0.0/8,bogus", "10.0.0.0/08", "[fd00::]/8", "10.0.0.0/8;fd00::/8", "127.1/8", "*"])
    func refusesAnUnreadableAllowList(_ text: String) {
        let error = #expect(throws: ProvisioError.self) { try OutboundPolicy.parseAllowList(text) }
        #expect(error?.code == .invalidOutboundAllowList)
        #expect(error?.message.contains("Entry ") == true)
    }

    @Test func credentialsAreNeverEchoed() {
        for text in ["https://alice:hunter2@example.com/", "https://example.com@127.0.0.1/", "https://alice@example.com/"] {
            let error = #expect(throws: ProvisioError.self) { try OutboundPolicy.production.checkURL(text) }
            #expect(error?.message == "The URL must not carry a user name or password.")
        }
    }

    @Test func codesAreStable() {
        #expect(ProvisioError.Code.outboundAddressRefused.rawValue == "outbound_address_refused")
        #expect(ProvisioError.Code.outboundHTTPSRequired.rawValue == "outbound_https_required")
        #expect(ProvisioError.Code.outboundURLHasCredentials.rawValue == "outbound_url_has_credentials")
        #expect(ProvisioError.Code.outboundURLInvalid.rawValue == "outbound_url_invalid")
        #expect(ProvisioError.Code.invalidOutboundAllowList.rawValue == "invalid_outbound_allow_list")
    }

    // MARK: - Helpers

    static func expect(
        _ policy: OutboundPolicy, _ text: String, _ expected: Outcome, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch expected {
        case .accepted(let normalized):
            do {
                let url = try policy.checkURL(text)
                #expect(url.url == normalized, sourceLocation: sourceLocation)
                #expect(try policy.checkURL(normalized) == url, "normalizing is idempotent", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(text) was refused: \(error)", sourceLocation: sourceLocation)
            }
        case .refused(let code):
            do {
                let url = try policy.checkURL(text)
                Issue.record("\(text) was accepted as \(url.url)", sourceLocation: sourceLocation)
            } catch {
                #expect(error.code == code, "\(text)", sourceLocation: sourceLocation)
                #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
                for secret in secrets(of: text) {
                    #expect(
                        !error.message.lowercased().contains(secret), "the message echoes \(secret)",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// The URL, its host as written and as Foundation reads it: none may appear in a message.
    /// (The credentials message is fixed text; see `credentialsAreNeverEchoed`.)
    static func secrets(of text: String) -> [String] {
        var secrets = [text.lowercased()]
        if let components = URLComponents(string: text) {
            secrets += [components.host, components.percentEncodedHost].compactMap { $0?.lowercased() }
        }
        // Both ends of the authority for hosts Foundation cannot read.
        if let start = text.range(of: "://") {
            let authority = text[start.upperBound...].prefix { !"/?#".contains($0) }
            secrets.append(authority.lowercased())
        }
        return secrets.filter { $0.count >= 3 }
    }
}
