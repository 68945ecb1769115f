import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

/// The signature base string against RFC 5849's own worked example (sections 3.4.1.1–3.4.1.3).
@Suite struct OAuth1SignatureBaseStringTests {
    /// Section 3.4.1.1's request: its query, its form body (`c2&a3=2+q`) and its protocol parameters.
    static let url = "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"
    static let parameters: [(name: String, value: String)] = [
        ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
        ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a"),
        ("c2", ""), ("a3", "2 q"),
    ]

    @Test func reproducesRFC5849sBaseString() throws {
        let expected =
            "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q"
            + "%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_"
            + "key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m"
            + "ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk"
            + "9d7dh3k39sjv7"
        #expect(try OAuth1SignatureBaseString.make(method: "POST", url: Self.url, parameters: Self.parameters) == expected)
        // The method is uppercased (section 3.4.1.1, step 1).
        #expect(try OAuth1SignatureBaseString.make(method: "post", url: Self.url, parameters: Self.parameters) == expected)
    }

    @Test func normalisesTheParametersAsSection3_4_1_3_2Shows() throws {
        let components = try OAuth1SignatureBaseString.components(Self.url)
        let all = try OAuth1SignatureBaseString.queryParameters(components) + Self.parameters
        // The query decodes to section 3.4.1.3.1's table: "b5" is "=%3D", not "==".
        #expect(all.first { $0.name == "b5" }?.value == "=%3D")
        #expect(all.first { $0.name == "c@" }?.value == "")
        #expect(
            OAuth1SignatureBaseString.normalizedParameters(all)
                == "a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a"
                + "&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7")
    }

    @Test func buildsTheBaseStringURIAsSection3_4_1_2Shows() throws {
        #expect(
            try OAuth1SignatureBaseString.baseStringURI("http://EXAMPLE.COM:80/r%20v/X?id=123") == "http://example.com/r%20v/X")
        #expect(
            try OAuth1SignatureBaseString.baseStringURI("https://www.example.net:8080/?q=1") == "https://www.example.net:8080/")
        #expect(try OAuth1SignatureBaseString.baseStringURI("HTTPS://Example.com:443") == "https://example.com/")
        #expect(try OAuth1SignatureBaseString.baseStringURI("http://example.com:443/a#frag") == "http://example.com:443/a")
    }

    @Test func encodesAsSection3_6Says() {
        #expect(OAuth1PercentEncoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(OAuth1PercentEncoding.encode("a b+c*d/e=f&g%h!") == "a%20b%2Bc%2Ad%2Fe%3Df%26g%25h%21")
        #expect(OAuth1PercentEncoding.encode("☃é") == "%E2%98%83%C3%A9")
        #expect(OAuth1PercentEncoding.decode("%e2%98%83+x", plusIsSpace: true) == "☃ x")
        #expect(OAuth1PercentEncoding.decode("a+b", plusIsSpace: false) == "a+b")
        #expect(OAuth1PercentEncoding.decode("%4", plusIsSpace: false) == nil)
        #expect(OAuth1PercentEncoding.decode("%zz", plusIsSpace: false) == nil)
        #expect(OAuth1PercentEncoding.decode("%FF", plusIsSpace: false) == nil)
    }

    @Test func refusesURLsItCannotSign() {
        #expect(
            MDESVectors.code { try OAuth1SignatureBaseString.make(method: "GET", url: "/relative", parameters: []) }
                == "oauth_request_invalid")
        #expect(
            MDESVectors.code { try OAuth1SignatureBaseString.make(method: "GET", url: "https://x.test/?a=%FF", parameters: []) }
                == "oauth_request_invalid")
    }
}
