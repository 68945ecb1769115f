import Foundation

/// One example of docs/android-integration.md: the markdown between its markers
/// (`<!-- example: name -->` … `<!-- /example -->`), made from a run against the sandbox.
struct GuideExample: Equatable {
    let name: String
    let text: String

    /// An HTTP exchange: the request as the app or the backend sends it, and Provisio's answer.
    /// `bearer` is how the credential is shown (never the real one).
    static func exchange(
        _ name: String, _ method: String, _ path: String, bearer: String, body: String? = nil, answer: RawClient.Response
    ) throws -> GuideExample {
        var request = "\(method) \(stablePath(path)) HTTP/1.1\nAuthorization: Bearer \(bearer)"
        if let body {
            request += "\nContent-Type: application/json\n\n" + (try GuideJSON.parse(Data(body.utf8)).stabilized().rendered())
        }
        var response = "HTTP/1.1 \(answer.status) \(reasons[answer.status] ?? "")"
        if !answer.body.isEmpty {
            response += "\nContent-Type: application/json\n\n" + (try GuideJSON.parse(answer.body).stabilized().rendered())
        }
        return GuideExample(name: name, text: "```http\n\(request)\n```\n\n```http\n\(response)\n```\n")
    }

    /// A JSON document on its own (a webhook's body, the JSON inside an intent's `EXTRA_TEXT`).
    static func json(_ name: String, _ data: Data, cuts: [String: Int] = [:]) throws -> GuideExample {
        GuideExample(name: name, text: "```json\n" + (try GuideJSON.parse(data).stabilized(cuts: cuts).rendered()) + "\n```\n")
    }

    /// What the sandbox wallet answered the app (a TapAndPay or Samsung Pay SDK result), as lines.
    static func wallet(_ name: String, _ lines: [String]) -> GuideExample {
        GuideExample(name: name, text: "```text\n" + lines.map(GuideJSON.stableWords).joined(separator: "\n") + "\n```\n")
    }

    static let reasons = [
        200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
        404: "Not Found", 409: "Conflict", 422: "Unprocessable Content",
    ]

    /// The path with its ids (and query values) cut like the bodies' ids.
    static func stablePath(_ path: String) -> String {
        let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
        let segments = parts[0].split(separator: "/", omittingEmptySubsequences: false).map { GuideJSON.stable(String($0)) }
        var stable = segments.joined(separator: "/")
        if parts.count == 2 {
            stable +=
                "?"
                + parts[1].split(separator: "&").map { pair in
                    let field = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    return field.count == 2 ? field[0] + "=" + GuideJSON.stable(field[1]) : String(pair)
                }.joined(separator: "&")
        }
        return stable
    }
}
