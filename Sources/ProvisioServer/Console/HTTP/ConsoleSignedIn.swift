/// Who is using the console in this request: the operator and their session's secret (the
/// CSRF token of their forms derives from it).
struct ConsoleSignedIn: Sendable {
    let operatorRecord: OperatorRecord
    let sessionToken: String

    var csrf: String { ConsoleCredentials.csrfToken(session: sessionToken) }
    var tenantID: String { operatorRecord.tenantID }
    var role: OperatorRole { operatorRecord.role }
}
