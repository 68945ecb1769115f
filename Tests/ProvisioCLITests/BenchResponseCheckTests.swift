import Testing

@testable import provisio

/// What `bench apple-pay`'s load generator counts as an answered MDES request: a wrong check
/// would count a declined decision or an error as served and inflate the figure.
@Suite struct BenchResponseCheckTests {
    let approved = ResponseFieldCheck(name: "decision", value: "APPROVED")

    @Test func acceptsTheFieldHoweverItIsSpaced() {
        #expect(approved.matches(Array(#"{"decision":"APPROVED","responseId":"r1"}"#.utf8)))
        #expect(approved.matches(Array("{\n  \"decision\" : \"APPROVED\",\n  \"services\" : []\n}".utf8)))
        #expect(approved.matches(Array(#"{"responseId":"decision","decision": "APPROVED"}"#.utf8)))
    }

    @Test func refusesAnotherValueOrNoField() {
        #expect(!approved.matches(Array(#"{"decision":"DECLINED","declineReasonCode":"INVAL_CARD"}"#.utf8)))
        #expect(!approved.matches(Array(#"{"decision":"APPROVED_LATER"}"#.utf8)))
        #expect(!approved.matches(Array(#"{"errorCode":"INVALID_FIELD_VALUE","note":"APPROVED"}"#.utf8)))
        #expect(!approved.matches(Array(#"{"decision":"#.utf8)))
        #expect(!approved.matches([]))
    }
}
