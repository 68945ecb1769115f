import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

@Suite struct ServerConfigurationTests {
    @Test func defaultsAreLocalSQLiteInDevelopment() {
        let configuration = ServerConfiguration()
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8080)
        #expect(configuration.database == .sqlite(path: "./provisio.sqlite"))
        #expect(configuration.keysDirectory == "./provisio-keys")
        #expect(!configuration.production && configuration.extraTrustAnchorFiles.isEmpty)
    }

    @Test func environmentIsApplied() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(environment: [
            "PROVISIO_DATABASE_URL": "postgres://app:s3cret@db.internal:6543/provisio?sslmode=require",
            "PROVISIO_TRUST_ANCHORS": "/etc/a.pem, /etc/b.pem", "PROVISIO_KEYS_DIR": "/etc/keys",
            "PROVISIO_NETWORK_KEY": "/etc/net.pem", "PROVISIO_ENV": "production",
        ])
        guard case .postgres(let url) = configuration.database else {
            Issue.record("expected PostgreSQL")
            return
        }
        #expect(url.host == "db.internal" && url.port == 6543 && url.username == "app" && url.password == "s3cret")
        #expect(url.database == "provisio" && url.tls == .require)
        #expect(configuration.extraTrustAnchorFiles == ["/etc/a.pem", "/etc/b.pem"])
        #expect(configuration.keysDirectory == "/etc/keys" && configuration.networkKeyFile == "/etc/net.pem")
        #expect(configuration.production)
        // A printed location never shows the password.
        #expect(!configuration.database.description.contains("s3cret"))
        #expect(configuration.database.description == "postgres://app@db.internal:6543/provisio")
    }

    @Test func thePublicURLIsGivenOrTheListeningAddress() throws {
        var configuration = ServerConfiguration()
        #expect(configuration.resolvedPublicURL == "http://127.0.0.1:8080")
        configuration.tlsCertificateFile = "/etc/tls.pem"
        configuration.host = "::1"
        configuration.port = 8443
        #expect(configuration.resolvedPublicURL == "https://[::1]:8443")
        try configuration.apply(environment: ["PROVISIO_PUBLIC_URL": "https://pay.bank.example"])
        #expect(configuration.resolvedPublicURL == "https://pay.bank.example")
        for refused in ["ftp://bank.example", "https://user:pw@bank.example", "https://bank.example/?a=1", "bank.example"] {
            var other = ServerConfiguration()
            #expect(throws: ProvisioError.self, "\(refused)") {
                try other.apply(environment: ["PROVISIO_PUBLIC_URL": refused])
            }
        }
    }

    @Test func postgreSQLWithoutTLSIsAWarningUnlessOnLoopback() throws {
        let plain = try PostgresURL("postgres://app:s3cret@db.internal:5432/provisio")
        let warning = try #require(DatabaseConnector.transportWarning(plain))
        #expect(warning.contains("sslmode=require") && !warning.contains("s3cret"))
        #expect(DatabaseConnector.transportWarning(try PostgresURL("postgres://app@db.internal/p?sslmode=prefer")) != nil)
        #expect(DatabaseConnector.transportWarning(try PostgresURL("postgres://app@db.internal/p?sslmode=require")) == nil)
        #expect(DatabaseConnector.transportWarning(try PostgresURL("postgres://app@127.0.0.1:54329/p")) == nil)
        #expect(DatabaseConnector.transportWarning(try PostgresURL("postgres://app@localhost/p")) == nil)
    }

    @Test func databaseLocationsAreParsedStrictly() throws {
        #expect(try DatabaseLocation("/var/lib/provisio.sqlite") == .sqlite(path: "/var/lib/provisio.sqlite"))
        guard case .postgres(let url) = try DatabaseLocation("postgresql://u@localhost/db") else {
            Issue.record("expected PostgreSQL")
            return
        }
        #expect(url.port == 5432 && url.tls == .disable && url.password == nil)
        for bad in ["", "postgres://", "postgres://u@h/db?sslmode=sometimes"] {
            let error = #expect(throws: ProvisioError.self) { try DatabaseLocation(bad) }
            #expect(error?.code == .invalidDatabaseURL, "\(bad)")
        }
    }

    @Test func productionRefusesToInventKeys() async throws {
        var configuration = ServerConfiguration()
        configuration.production = true
        configuration.keysDirectory = NSTemporaryDirectory() + "provisio-none-\(UUID().uuidString)"
        let error = await #expect(throws: ProvisioError.self) {
            _ = try await ServerAssembly.assemble(configuration, logger: .init(label: "t"))
        }
        #expect(error?.code == .keysMissing)
        #expect(!FileManager.default.fileExists(atPath: configuration.keysDirectory))
    }

    @Test func developmentCreatesKeysAndTheSandboxNetworkKeyOnce() async throws {
        let directory = NSTemporaryDirectory() + "provisio-dev-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = ServerConfiguration()
        configuration.keysDirectory = directory + "/keys"
        configuration.database = .sqlite(path: directory + "/p.sqlite")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let logs = LogCapture()
        let first = try await ServerAssembly.assemble(configuration, logger: logs.logger())
        await first.handle.shutdown()
        #expect(logs.text.contains("DEVELOPMENT MODE"))
        let networkKey = try String(contentsOfFile: directory + "/keys/sandbox-network-key.pem", encoding: .utf8)
        // A second start reuses everything it created.
        let second = try await ServerAssembly.assemble(configuration, logger: logs.logger())
        await second.handle.shutdown()
        #expect(try String(contentsOfFile: directory + "/keys/sandbox-network-key.pem", encoding: .utf8) == networkKey)

        // The sandbox network key is a secret file like the others: refused once others can read it.
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: directory + "/keys/sandbox-network-key.pem")
        let error = await #expect(throws: ProvisioError.self) {
            _ = try await ServerAssembly.assemble(configuration, logger: logs.logger())
        }
        #expect(error?.code == .keysInsecurePermissions)
    }
}
