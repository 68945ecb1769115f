import Crypto
import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioProcess
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Property-based testing of `provisio serve` against its own OpenAPI document with
/// schemathesis (`PROVISIO_TEST_SCHEMATHESIS` names the executable; `.ci/schemathesis.sh`
/// installs it and prints the path). A real server on a temporary SQLite database, with a
/// tenant, cards, tokens, a webhook endpoint and a delivery, is sent thousands of generated
/// requests, valid and invalid, on every operation and with every credential kind; every answer
/// must be documented (status, content type, headers, body schema), no answer may be a 5xx,
/// and a path's other methods must be 405 with `Allow`.
@Suite struct SchemathesisTests {
    static let executable: String? = {
        let value = ProcessInfo.processInfo.environment["PROVISIO_TEST_SCHEMATHESIS"] ?? ""
        return value.isEmpty ? nil : value
    }()

    /// Bounded and reproducible: a fixed seed, a fixed number of examples per operation, no
    /// example database, no stateful phase.
    static let seed = "20261123"
    static let examplesPerOperation = "25"
    static let checks = [
        "not_a_server_error", "status_code_conformance", "content_type_conformance", "response_headers_conformance",
        "response_schema_conformance", "unsupported_method", "allow_header_conformance", "ignored_auth",
    ]
    /// The run is killed (and the test fails) if it takes longer than this.
    static let timeout: TimeInterval = 300
    /// The only address webhook endpoints and the network connector may be given: loopback, a
    /// port nothing listens on (the discard port), so every call fails at once.
    static let loopbackURL = "http://127.0.0.1:9/hooks"

    @Test func continuousIntegrationRunsSchemathesis() {
        // CI must never skip this silently: .ci/run installs schemathesis and sets the path.
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(
                Self.executable != nil,
                "CI=true but PROVISIO_TEST_SCHEMATHESIS is not set: .ci/run must export it from .ci/schemathesis.sh")
        }
    }

    @Test(.enabled(if: executable != nil), .timeLimit(.minutes(8)))
    func everyAnswerIsTheDocumentedOne() async throws {
        let executable = try #require(Self.executable)
        try #require(
            FileManager.default.isExecutableFile(atPath: executable),
            "PROVISIO_TEST_SCHEMATHESIS=\(executable) is not an executable file (run .ci/schemathesis.sh)")

        let base = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let database = base + "/provisio.sqlite"

        // A tenant with its API key and network key, and the server.
        #expect(try await CLIRunner.run(["keys", "init", "--dir", base + "/keys"]).status == 0)
        try P256.KeyAgreement.PrivateKey().publicKey.pemRepresentation.write(
            toFile: base + "/network.pem", atomically: true, encoding: .utf8)
        let tenant = try await CLIRunner.run(["tenants", "create", "--name", "Schemathesis Bank", "--database", database])
        #expect(tenant.status == 0, "\(tenant.stderr)")
        let created = try #require(try JSONSerialization.jsonObject(with: Data(tenant.stdout.utf8)) as? [String: String])
        let (tenantID, apiKey) = (try #require(created["tenant_id"]), try #require(created["api_key"]))
        let credential = try await CLIRunner.run(["tenants", "network-key", "--tenant-id", tenantID, "--database", database])
        #expect(credential.status == 0, "\(credential.stderr)")
        let networkKey = try #require(
            (try JSONSerialization.jsonObject(with: Data(credential.stdout.utf8)) as? [String: String])?["network_key"])

        let server = try await ServerProcess(
            arguments: ["--database", database, "--keys", base + "/keys", "--network-key", base + "/network.pem"],
            logFile: base + "/server.log")
        try await server.waitUntilListening()

        // Something for the generated requests to find: two cards (the second is the one the
        // close operation may close), a mobile session, a webhook endpoint on a closed loopback
        // port with one delivery, and an approved and a yellow token.
        let api = server.api(apiKey)
        func card(_ pan: String) async throws -> String {
            try await api.createCard(
                body: .json(
                    .init(customerRef: "cust_1", pan: pan, expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane Appleseed"))
            ).created.body.json.id
        }
        let cardID = try await card("4111111111111111")
        let closableCardID = try await card("5555555555554444")
        let session = try await api.createMobileSession(body: .json(.init(customerRef: "cust_1", ttlSeconds: 86_400)))
            .created.body.json.token
        let endpointID = try await api.createWebhookEndpoint(body: .json(.init(url: Self.loopbackURL, events: [.webhook_test])))
            .created.body.json.id
        _ = try await api.sendTestWebhook(path: .init(id: endpointID)).accepted
        let deliveryID = try #require(try await api.listWebhookDeliveries().ok.body.json.data.first?.id)
        var tokenIDs: [String] = []
        for (ref, recommendation) in [
            ("ref-green", Components.Schemas.DecisionOutcome.approve), ("ref-yellow", .requireVerification),
        ] {
            let request = Components.Schemas.NetworkTokenRequest(
                pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030, wallet: .applePay, networkTokenRef: ref,
                tokenLast4: "0001", risk: .init(deviceScore: 5, accountScore: 5, walletRecommendation: recommendation))
            tokenIDs.append(try await server.api(networkKey).requestTokenDecision(body: .json(request)).ok.body.json.tokenId)
        }

        let configuration = base + "/schemathesis.toml"
        try Self.configuration(
            hooks: base + "/hooks.py", apiKey: apiKey, mobileSession: session, networkKey: networkKey,
            ids: [cardID] + tokenIDs + [endpointID, deliveryID], cards: [cardID, closableCardID], closableCardID: closableCardID
        ).write(toFile: configuration, atomically: true, encoding: .utf8)
        try Self.hooks.write(toFile: base + "/hooks.py", atomically: true, encoding: .utf8)

        let arguments = [
            "--config-file", configuration, "run", "http://127.0.0.1:\(server.port)/openapi.yaml",
            "--phases", "examples,coverage,fuzzing", "--checks", Self.checks.joined(separator: ","), "--mode", "all",
            "--max-examples", Self.examplesPerOperation, "--seed", Self.seed, "--generation-database", "none",
            "--workers", "1", "--request-timeout", "30", "--continue-on-failure", "--no-color",
        ]
        let started = Date()
        let run = try await Self.run(executable, arguments, in: base, output: base + "/schemathesis.txt", timeout: Self.timeout)
        let output = (try? String(contentsOfFile: base + "/schemathesis.txt", encoding: .utf8)) ?? ""
        let serverLog = (try? String(contentsOfFile: server.logFile, encoding: .utf8)) ?? ""
        let shown = "\(executable) \(arguments.joined(separator: " "))\n\(output.suffix(20_000))"

        #expect(!run.timedOut, "schemathesis did not finish within \(Int(Self.timeout)) s:\n\(shown)")
        #expect(run.status == 0, "schemathesis exited \(run.status) after \(Int(Date().timeIntervalSince(started))) s:\n\(shown)")
        // It tested every operation of the document, not a subset.
        let selected = output.firstMatch(of: #/Selected: (\d+)/(\d+)/#)
        let tested = output.firstMatch(of: #/Tested: (\d+)/#)
        #expect(
            selected != nil && selected?.output.1 == selected?.output.2 && tested?.output.1 == selected?.output.1,
            "not every operation was tested:\n\(shown)")
        #expect(!serverLog.contains("request failed"), "the server logged a failed request:\n\(serverLog.suffix(5_000))")
        #expect(await server.stop() == 0, "\(serverLog.suffix(5_000))")
    }

    // MARK: The run

    /// Authentication per security scheme of the document, and values the generator mixes into
    /// what it makes up, so that half of the requests reach real cards, tokens, endpoints and
    /// deliveries instead of 404 (and the close operation only the card kept for it).
    ///
    /// Transitions and activations of a real token (the issuer's and the cardholder's) go to the
    /// card network through a connector that is not configured (503) or not listening (502), and a
    /// one-time code to an issuer endpoint that is not there (502): those documented upstream
    /// failures are expected for these five operations; a 500 still fails them, and any 5xx fails
    /// every other one.
    static func configuration(
        hooks: String, apiKey: String, mobileSession: String, networkKey: String, ids: [String], cards: [String],
        closableCardID: String
    ) -> String {
        func list(_ values: [String]) -> String { "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        return """
            hooks = "\(hooks)"

            [auth.openapi.apiKey]
            bearer = "\(apiKey)"
            [auth.openapi.mobileSession]
            bearer = "\(mobileSession)"
            [auth.openapi.networkKey]
            bearer = "\(networkKey)"

            [dictionaries.ids]
            values = \(list(ids))
            [dictionaries.cards]
            values = \(list(cards))
            [dictionaries.refs]
            values = ["ref-green", "ref-yellow"]
            [dictionaries.customers]
            values = ["cust_1"]
            [dictionaries.urls]
            values = \(list([loopbackURL]))
            [dictionaries.pans]
            values = ["4111111111111111", "4111 1111 1111 1111"]
            [dictionaries.years]
            values = [2030, 30]

            [parameters]
            "path.id" = { dictionary = "ids", probability = 0.5 }
            "path.ref" = { dictionary = "refs", probability = 0.5 }
            "query.customer_ref" = { dictionary = "customers", probability = 0.5 }
            "query.card_id" = { dictionary = "cards", probability = 0.5 }
            "query.endpoint_id" = { dictionary = "ids", probability = 0.5 }
            "body.customer_ref" = { dictionary = "customers", probability = 0.5 }
            "body.card_id" = { dictionary = "cards", probability = 0.5 }
            "body.url" = { dictionary = "urls", probability = 0.5 }
            "body.pan" = { dictionary = "pans", probability = 0.5 }
            "body.expiry_year" = { dictionary = "years", probability = 0.5 }

            [[operations]]
            include-operation-id = "closeCard"
            parameters = { "path.id" = "\(closableCardID)" }

            [[operations]]
            include-operation-id = [
                "transitionToken", "activateToken", "relayOneTimeCode", "transitionMobileToken", "activateMobileToken",
            ]
            checks.not_a_server_error.expected-statuses = ["2xx", "3xx", "4xx", "502", "503"]

            """
    }

    /// Runs before every request schemathesis sends, whatever the phase.
    ///
    /// - The server calls the URLs of webhook endpoints and of the network connector. A URL
    ///   with an http(s) scheme is sent only as the loopback one; a generated host (a format,
    ///   an example, a value harvested from an earlier answer) never reaches the server, so the
    ///   run makes no call off this machine. Everything else (no scheme, another scheme, wrong
    ///   type) is sent as drawn: the server refuses it before any call.
    /// - schemathesis draws `Idempotency-Key` like any optional header, so unrelated requests
    ///   share keys and most POSTs would be 422 `idempotency_key_reused` instead of reaching the
    ///   operation. The drawn key gets a digest of the request appended: the same request keeps
    ///   its key (and is replayed), another one gets its own. Keys the server must refuse
    ///   (empty, too long, not visible ASCII) are sent as drawn.
    static let hooks = """
        import hashlib
        import json
        import re

        import schemathesis

        LOOPBACK_URL = "\(loopbackURL)"


        @schemathesis.hook
        def before_call(context, case, kwargs):
            body = case.body
            if isinstance(body, dict):
                url = body.get("url")
                if isinstance(url, str) and url != LOOPBACK_URL and re.match(r"(?i)\\s*https?:", url):
                    body["url"] = LOOPBACK_URL
            headers = case.headers or {}
            key = headers.get("Idempotency-Key")
            if not isinstance(key, str) or not 1 <= len(key) <= 200 or not all(0x21 <= ord(c) <= 0x7E for c in key):
                return
            request = json.dumps([case.method, case.formatted_path, case.query, case.body], sort_keys=True, default=repr)
            headers["Idempotency-Key"] = key + "." + hashlib.sha256(request.encode()).hexdigest()[:16]

        """

    /// Runs the executable with its output in a file; past `timeout` it is stopped (SIGTERM,
    /// then SIGKILL after 10 s).
    static func run(_ executable: String, _ arguments: [String], in directory: String, output: String, timeout: TimeInterval)
        async throws -> (status: Int32, timedOut: Bool)
    {
        let child = try await BackgroundProcess.start(
            executable, arguments: arguments, workingDirectory: directory, logFile: output)
        let timedOut = Locked(false)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(timeout))
            timedOut.withLock { $0 = true }
            await child.stop(grace: .seconds(10))
        }
        let termination = await child.waitForExit()
        watchdog.cancel()
        return (termination.status, timedOut.value)
    }
}
