import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// The support console over HTTP: its cookies, its CSRF defence, sign-in throttling, sessions
/// that end, tenants that stay apart, and every role against every action.
@Suite struct ConsoleTests {
    @Test(arguments: [true, false])
    func cookiesAreHttpOnlyStrictAndSecureOutsideDevelopment(_ secure: Bool) async throws {
        try await TestServer.run(.sqlite, secureConsoleCookies: secure) { server in
            let (tenantID, _) = try await server.makeTenant()
            let admin = try await server.makeOperator(tenantID: tenantID, role: .admin)
            let browser = ConsoleSession(raw: server.raw)
            let signedIn = try await browser.signIn(tenantID: tenantID, email: admin.email, password: admin.password)
            #expect(signedIn.status == 303 && signedIn.header("Location") == "/console")
            // Secure cookies are `__Host-` cookies (Path=/); plain ones stay under /console.
            let name = secure ? "__Host-provisio_console=" : "provisio_console="
            let cookie = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix(name) })
            for flag in ["HttpOnly", "SameSite=Strict", secure ? "Path=/;" : "Path=/console", "Max-Age=28800"] {
                #expect(cookie.contains(flag), "\(cookie)")
            }
            #expect(cookie.contains("Secure") == secure, "\(cookie)")
            let page = try await browser.get("/console")
            #expect(page.status == 200 && page.text.contains(admin.email))
            #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            #expect(page.header("X-Frame-Options") == "DENY" && page.header("Cache-Control") == "no-store")
        }
    }

    @Test func everyFormNeedsItsCSRFToken() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, _) = try await server.makeTenant()
            let admin = try await server.makeOperator(tenantID: tenantID, role: .admin)
            let browser = ConsoleSession(raw: server.raw)
            // Sign-in: the form's token must match its own cookie.
            _ = try await browser.get("/console/sign-in")
            let forged = try await browser.post(
                "/console/sign-in",
                [("csrf", "0000"), ("tenant", tenantID), ("email", admin.email), ("password", admin.password)])
            #expect(forged.status == 403 && forged.header("X-Error-Code") == "csrf_token_invalid")
            _ = try await browser.signIn(tenantID: tenantID, email: admin.email, password: admin.password)
            let csrf = try await browser.csrf()
            for (path, form) in Self.adminForms {
                for token in [nil, "wrong", csrf.uppercased()] {
                    var fields = form
                    if let token { fields.append(("csrf", token)) }
                    let answer = try await browser.post(path, fields)
                    #expect(answer.status == 403 && answer.header("X-Error-Code") == "csrf_token_invalid", "\(path)")
                }
            }
            // Nothing changed: no second key, the settings as they were.
            #expect(try await server.services.access.apiKeys(tenantID: tenantID).count == 1)
            // Signing out needs it too; with it, the session is over.
            #expect(try await browser.post("/console/sign-out", []).status == 403)
            #expect(try await browser.post("/console/sign-out", [("csrf", csrf)]).status == 303)
            #expect(try await browser.get("/console").header("Location") == "/console/sign-in")
        }
    }

    /// Forms an admin may post (with harmless values).
    static let adminForms: [(String, [(String, String)])] = [
        ("/console/api-keys", [("name", "ops"), ("scope", "read_only")]),
        ("/console/settings/decisioning", [("minimum_device_score", "2"), ("reason", "tuning for test")]),
        ("/console/operators", [("email", "new@bank.example"), ("role", "viewer")]),
    ]

    @Test func wrongPasswordsLockTheAccountForAWhile() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, _) = try await server.makeTenant()
            let support = try await server.makeOperator(tenantID: tenantID, role: .support)
            let browser = ConsoleSession(raw: server.raw)
            for _ in 0..<OperatorService.failuresBeforeLock {
                let wrong = try await browser.signIn(tenantID: tenantID, email: support.email, password: "not the password")
                #expect(wrong.status == 401 && wrong.header("X-Error-Code") == "sign_in_failed")
                #expect(!wrong.text.contains("not the password"))
            }
            let locked = try await browser.signIn(tenantID: tenantID, email: support.email, password: support.password)
            #expect(locked.status == 429 && locked.header("X-Error-Code") == "sign_in_locked")
            // An unknown email fails exactly like a wrong password.
            let unknown = try await browser.signIn(tenantID: tenantID, email: "nobody@bank.example", password: "whatever it is")
            #expect(unknown.status == 401 && unknown.header("X-Error-Code") == "sign_in_failed")
            server.clock.advance(by: OperatorService.lockDuration)
            #expect(try await browser.signIn(tenantID: tenantID, email: support.email, password: support.password).status == 303)
            let audit = try await server.services.audit.events(
                tenantID: tenantID, filter: AuditFilter(targetType: "operator", targetID: support.id), cursor: nil, limit: 10)
            #expect(audit.items.map(\.action).prefix(2) == ["operator.signed_in", "operator.locked"])
        }
    }

    @Test func sessionsEndWhenIdleExpiredOrDisabled() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, _) = try await server.makeTenant()
            let viewer = try await server.makeOperator(tenantID: tenantID, role: .viewer)
            let browser = ConsoleSession(raw: server.raw)
            _ = try await browser.signIn(tenantID: tenantID, email: viewer.email, password: viewer.password)
            server.clock.advance(by: OperatorService.idleTimeout - 60)
            #expect(try await browser.get("/console").status == 200)
            server.clock.advance(by: OperatorService.idleTimeout)
            #expect(try await browser.get("/console").header("Location") == "/console/sign-in")

            _ = try await browser.signIn(tenantID: tenantID, email: viewer.email, password: viewer.password)
            // Used every 50 minutes, it still ends 8 hours after sign-in.
            for _ in 0..<9 {
                server.clock.advance(by: 3000)
                #expect(try await browser.get("/console").status == 200)
            }
            server.clock.advance(by: 3000)
            #expect(try await browser.get("/console").header("Location") == "/console/sign-in", "the 8 hour limit")

            _ = try await browser.signIn(tenantID: tenantID, email: viewer.email, password: viewer.password)
            #expect(try await browser.get("/console").status == 200)
            _ = try await server.services.operators.disable(id: viewer.id, tenantID: tenantID)
            #expect(try await browser.get("/console").header("Location") == "/console/sign-in")
            #expect(try await browser.signIn(tenantID: tenantID, email: viewer.email, password: viewer.password).status == 401)
        }
    }

    @Test func anOperatorSeesOnlyTheirTenant() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantA, keyA) = try await server.makeTenant("A")
            let (tenantB, _) = try await server.makeTenant("B")
            let card = try await server.makeCard(apiKey: keyA, customerRef: "cust_a")
            _ = tenantA
            let other = try await server.makeOperator(tenantID: tenantB, role: .admin)
            let browser = ConsoleSession(raw: server.raw)
            _ = try await browser.signIn(tenantID: tenantB, email: other.email, password: other.password)
            let page = try await browser.get("/console/cards/\(card.id)")
            #expect(page.status == 404 && page.header("X-Error-Code") == "card_not_found")
            let search = try await browser.get("/console/cards?customer_ref=cust_a")
            #expect(search.status == 200 && !search.text.contains(card.id) && search.text.contains("Nothing matches"))
            #expect(!(try await browser.get("/console/audit").text.contains(card.id)))
        }
    }

    @Test func cardProductsAreListedForTheirTenantOnly() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantA, keyA) = try await server.makeTenant("A")
            let (tenantB, _) = try await server.makeTenant("B")
            let product = try await server.api(keyA).createCardProduct(
                body: .json(CardProductTests.everything(isDefault: true))
            ).created.body.json
            _ = try await server.api(keyA).setCardProductArt(
                path: .init(id: product.id),
                body: .json(.init(contentType: .imagePng, data: TestCardArt.valid.base64EncodedString()))
            ).ok
            let reader = try await server.makeOperator(tenantID: tenantA, role: .viewer)
            let browser = ConsoleSession(raw: server.raw)
            _ = try await browser.signIn(tenantID: tenantA, email: reader.email, password: reader.password)
            let page = try await browser.get("/console/card-products")
            #expect(page.status == 200 && page.text.contains(product.id) && page.text.contains("(default)"))
            #expect(page.text.contains("A1B2C3D4E5.com.demobank.app") && page.text.contains("2026-11"))
            #expect(page.text.contains("<img src=\"/v1/card-art/"))
            let other = try await server.makeOperator(tenantID: tenantB, role: .admin)
            let otherBrowser = ConsoleSession(raw: server.raw)
            _ = try await otherBrowser.signIn(tenantID: tenantB, email: other.email, password: other.password)
            let otherPage = try await otherBrowser.get("/console/card-products")
            #expect(
                otherPage.status == 200 && !otherPage.text.contains(product.id) && otherPage.text.contains("No card products"))
        }
    }

    /// Every role against every action: allowed, or 403 `operator_role_insufficient` with
    /// nothing changed.
    @Test func everyRoleAgainstEveryAction() async throws {
        try await TestServer.run(.sqlite) { server in
            try await SandboxNetworkHarness.run(
                server, defaultRisk: RiskAssessment(deviceScore: 2, accountScore: 5, walletRecommendation: .approve)
            ) { h in
                // Two pending tokens: the viewer is refused the first, support activates it, the
                // admin activates the second.
                var tokens: [String] = []
                for device in [SandboxDeviceKind.phone, .watch] {
                    tokens.append(
                        try #require(await h.network.outcome(sessionID: try await h.add(on: device).sessionID)).issuerTokenID)
                }
                let endpoint = try await server.services.webhooks.createEndpoint(
                    tenantID: h.tenantID, url: "http://127.0.0.1:9/hook", events: ["*"]
                ).endpoint
                let event = try await server.services.webhooks.sendTestEvent(endpointID: endpoint.id, tenantID: h.tenantID)
                let delivery = try #require(
                    try await server.services.webhooks.deliveries(tenantID: h.tenantID, endpointID: nil, cursor: nil, limit: 10)
                        .items.first { $0.eventID == event.id })
                let key = try await server.services.access.createAPIKey(tenantID: h.tenantID, name: "spare", scope: .full).key

                struct Action {
                    let path: String
                    let form: [(String, String)]
                    let needs: OperatorRole
                }
                for role in OperatorRole.allCases {
                    let person = try await server.makeOperator(tenantID: h.tenantID, role: role)
                    let victim = try await server.makeOperator(tenantID: h.tenantID, role: .viewer)
                    let browser = ConsoleSession(raw: server.raw)
                    _ = try await browser.signIn(tenantID: h.tenantID, email: person.email, password: person.password)
                    let csrf = try await browser.csrf()
                    let token = role == .admin ? tokens[1] : tokens[0]
                    let actions = [
                        Action(
                            path: "/console/tokens/\(token)/actions", form: [("action", "activate"), ("reason", "called in")],
                            needs: .support),
                        Action(path: "/console/webhook-deliveries/\(delivery.id)/replay", form: [], needs: .support),
                        Action(
                            path: "/console/settings/decisioning",
                            form: [("webhook_timeout_ms", "1500"), ("reason", "slower hook")], needs: .admin),
                        Action(
                            path: "/console/api-keys", form: [("name", "by \(role.rawValue)"), ("scope", "read_only")],
                            needs: .admin),
                        Action(path: "/console/api-keys/\(key.id)/revoke", form: [], needs: .admin),
                        Action(
                            path: "/console/operators",
                            form: [("email", "made-by-\(role.rawValue)@bank.example"), ("role", "viewer")], needs: .admin),
                        Action(path: "/console/operators/\(victim.id)/disable", form: [], needs: .admin),
                    ]
                    for action in actions {
                        let before = try await server.services.audit.events(
                            tenantID: h.tenantID, filter: AuditFilter(actorType: .operator, actorID: person.id), cursor: nil,
                            limit: 100
                        ).items.count
                        let answer = try await browser.post(action.path, action.form + [("csrf", csrf)])
                        let after = try await server.services.audit.events(
                            tenantID: h.tenantID, filter: AuditFilter(actorType: .operator, actorID: person.id), cursor: nil,
                            limit: 100
                        ).items.count
                        if role >= action.needs {
                            #expect(
                                [200, 303].contains(answer.status),
                                "\(role) \(action.path): \(answer.status) \(answer.header("X-Error-Code") ?? "")")
                            #expect(after > before, "\(role) \(action.path) left no audit entry")
                        } else {
                            #expect(
                                answer.status == 403 && answer.header("X-Error-Code") == "operator_role_insufficient",
                                "\(role) \(action.path): \(answer.status)")
                            #expect(after == before, "\(role) \(action.path) changed something")
                        }
                    }
                    // Reading is everyone's.
                    for page in [
                        "/console", "/console/tokens/\(token)", "/console/cards/\(h.cardID)", "/console/webhook-deliveries",
                        "/console/webhook-deliveries/\(delivery.id)", "/console/settings", "/console/audit", "/console/api-keys",
                        "/console/operators", "/console/card-products",
                    ] {
                        let answer = try await browser.get(page)
                        #expect(answer.status == 200, "\(role) GET \(page): \(answer.status)")
                        #expect(!answer.text.contains(SandboxNetworkHarness.pan), "\(page) shows the PAN")
                    }
                }
            }
        }
    }
}
