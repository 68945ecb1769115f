import Foundation
import ProvisioCore
import Testing

@Suite struct ConstantTimeTests {
    @Test func equalValuesMatch() {
        #expect(ConstantTime.equal("sk_live_abc", "sk_live_abc"))
        #expect(ConstantTime.equal(Data([1, 2, 3]), Data([1, 2, 3])))
    }

    @Test(arguments: [
        ("sk_live_abd", "sk_live_abc"),  // last byte
        ("tk_live_abc", "sk_live_abc"),  // first byte
        ("sk_live_ab", "sk_live_abc"),  // a prefix
        ("sk_live_abcd", "sk_live_abc"),  // longer
        ("", "sk_live_abc"),
        ("", ""),  // an unset secret accepts nothing
        ("x", ""),
    ])
    func differentValuesDoNot(_ presented: String, _ expected: String) {
        #expect(!ConstantTime.equal(presented, expected))
    }

    @Test func bytesPastTheExpectedLengthStillCount() {
        // Same length, a difference only in the tail; and a longer value whose extra bytes are zero.
        #expect(!ConstantTime.equal(Data([1, 2, 3, 4]), Data([1, 2, 3, 5])))
        #expect(!ConstantTime.equal(Data([1, 2, 3, 0]), Data([1, 2, 3])))
    }
}
