import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Sign-in tells nobody who is an operator, and cannot be used to guess at speed: a wrong
/// password, an unknown email and a locked account answer alike; "locked" is said only after
/// the right password; a lock that ran out starts the count again; attempts are limited per
/// client address and per account; emails are unique within a tenant only.
@Suite struct SignInDefenceTests {
    /// A sign-in as any client can post it: the CSRF cookie set by the client itself.
    static func attempt(_ server: TestServer, tenantID: String, email: String, password: String) async throws
        -> RawClient.Response
    {
        let csrf = UUID().uuidString
        let form = ConsoleSession.encode([("csrf", csrf), ("tenant", tenantID), ("email", email), ("password", password)])
        return try await server.raw.send(
            .post, "/console/sign-in", token: nil, body: Data(form.utf8),
            headers: [
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": "provisio_console_csrf=\(csrf); __Host-provisio_console_csrf=\(csrf)",
            ])
    }

    /// What a failed sign-in says: its status, code and the words on the page.
    static func failure(_ answer: RawClient.Response) -> String {
        let text = answer.text
        let words = text.range(of: #"<p class="error""#).map { String(text[$0.lowerBound...].prefix { $0 != "\n" }) } ?? ""
        return "\(answer.status) \(answer.header("X-Error-Code") ?? "-") \(words)"
    }

    @Test func wrongPasswordUnknownEmailAndLockedAccountAnswerAlike() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, _) = try await server.makeTenant()
            let locked = try await server.makeOperator(tenantID: tenantID, role: .admin)
            let other = try await server.makeOperator(tenantID: tenantID, role: .viewer)
            for _ in 0..<OperatorService.failuresBeforeLock {
                _ = try await Self.attempt(server, tenantID: tenantID, email: locked.email, password: "not the password")
            }
            let wrong = Self.failure(
                try await Self.attempt(server, tenantID: tenantID, email: other.email, password: "not the password"))
            let unknown = Self.failure(
                try await Self.attempt(server, tenantID: tenantID, email: "nobody@bank.example", password: "not the password"))
            let lockedWrong = Self.failure(
                try await Self.attempt(server, tenantID: tenantID, email: locked.email, password: "not the password"))
            #expect(wrong.hasPrefix("401 sign_in_failed <p class=\"error\""), "\(wrong)")
            #expect(unknown == wrong)
            #expect(lockedWrong == wrong, "a locked account answers unlike the others: \(lockedWrong)")
            // Only the right password learns of the lock.
            let lockedRight = try await Self.attempt(server, tenantID: tenantID, email: locked.email, password: locked.password)
            #expect(lockedRight.status == 429 && lockedRight.header("X-Error-Code") == "sign_in_locked")
        }
    }

    @Test func anExpiredLockStartsTheCountAgain() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, _) = try await server.makeTenant()
            let person = try await server.makeOperator(tenantID: tenantID, role: .support)
            for _ in 0..<OperatorService.failuresBeforeLock {
                _ = try await Self.attempt(server, tenantID: tenantID, email: person.email, password: "not the password")
            }
            server.clock.advance(by: OperatorService.lockDuration + 1)
            // One wrong guess after the lock ran out is one failure, not a new lock.
            let wrong = try await Self.attempt(server, tenantID: tenantID, email: person.email, password: "not the password")
            #expect(wrong.status == 401)
            let stored = try #require(try await server.services.operators.store.operatorRecord(id: person.id, tenantID: tenantID))
            #expect(stored.failedSignIns == 1, "the count went on from the lock: \(stored.failedSignIns)")
            let right = try await Self.attempt(server, tenantID: tenantID, email: person.email, password: person.password)
            #expect(right.status == 303, "\(right.status) \(right.header("X-Error-Code") ?? "")")
            let after = try #require(try await server.services.operators.store.operatorRecord(id: person.id, tenantID: tenantID))
            #expect(after.failedSignIns == 0 && after.lockedUntil == nil)
        }
    }

    @Test func attemptsAreLimitedPerAccountAndPerAddress() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, _) = try await server.makeTenant()
            let person = try await server.makeOperator(tenantID: tenantID, role: .viewer)
            // The account: its limit, then 429 whatever is tried (even the right password).
            for _ in 0..<10 {
                let answer = try await Self.attempt(
                    server, tenantID: tenantID, email: "target@bank.example", password: "not the password")
                #expect(answer.status == 401)
            }
            let account = try await Self.attempt(
                server, tenantID: tenantID, email: "target@bank.example", password: "not the password")
            #expect(account.status == 429 && account.header("X-Error-Code") == "sign_in_limited", "\(Self.failure(account))")
            #expect(Int(account.header("Retry-After") ?? "") ?? 0 > 0)
            // Other accounts from the same address still get their answer, until the address's limit.
            var answers: [Int] = []
            for index in 0..<30 {
                answers.append(
                    try await Self.attempt(
                        server, tenantID: tenantID, email: "someone-\(index)@bank.example", password: "not the password"
                    ).status)
            }
            // A refused attempt is not counted: ten on the account, twenty more here.
            #expect(answers.prefix(20).allSatisfy { $0 == 401 } && answers.suffix(10).allSatisfy { $0 == 429 }, "\(answers)")
            let address = try await Self.attempt(server, tenantID: tenantID, email: person.email, password: person.password)
            #expect(Self.failure(address).hasPrefix("429 sign_in_limited"))
            // Both limits are windows: fifteen minutes on, the operator is let in.
            server.clock.advance(by: 15 * 60 + 1)
            #expect(
                try await Self.attempt(server, tenantID: tenantID, email: person.email, password: person.password).status == 303)
        }
    }

    @Test func successfulSignInsDoNotUseUpTheAddressLimit() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, _) = try await server.makeTenant()
            let person = try await server.makeOperator(tenantID: tenantID, role: .viewer)
            for _ in 0..<40 {
                let answer = try await Self.attempt(server, tenantID: tenantID, email: person.email, password: person.password)
                #expect(answer.status == 303)
            }
        }
    }

    @Test func operatorEmailsAreUniquePerTenant() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantA, _) = try await server.makeTenant("A")
            let (tenantB, _) = try await server.makeTenant("B")
            let a = try await server.makeOperator(tenantID: tenantA, role: .admin, email: "shared@bank.example")
            // Another tenant's operator with the same email is no conflict, and no tell.
            let b = try await server.services.operators.create(
                tenantID: tenantB, email: "Shared@Bank.example", role: .viewer, password: "correct horse battery viewer")
            #expect(b.record.tenantID == tenantB && b.record.email == "shared@bank.example")
            let again = await #expect(throws: ProvisioError.self) {
                try await server.services.operators.create(
                    tenantID: tenantA, email: "shared@bank.example", role: .viewer, password: nil)
            }
            #expect(again?.code == .operatorExists)
            // Each signs in to their own tenant with their own password.
            let intoA = try await Self.attempt(server, tenantID: tenantA, email: a.email, password: a.password)
            #expect(intoA.status == 303)
            let crossed = try await Self.attempt(server, tenantID: tenantB, email: a.email, password: a.password)
            #expect(crossed.status == 401 && crossed.header("X-Error-Code") == "sign_in_failed")
            let intoB = try await Self.attempt(server, tenantID: tenantB, email: b.record.email, password: b.password)
            #expect(intoB.status == 303)
        }
    }
}
