import Foundation
import ProvisioProcess
import Testing

/// The P-256 table on every code path BoringSSL may pick, and in a build without BoringSSL.
///
/// BoringSSL chooses its `_adx`/`_nohw` and `_avx2`/`_nohw` functions from the CPU once per
/// process, so the in-process tests only ever see the host's choice. Here `provisio
/// p256-table-check` runs in child processes: once as the host runs it, once with
/// `OPENSSL_ia32cap` masking ADX, BMI2 and AVX2 off.
@Suite struct P256TableVariantTests {
    /// BoringSSL's second `OPENSSL_ia32cap` word is CPUID leaf 7's EBX (low half): "~" clears the
    /// bits given, here BMI2 (8), ADX (19) and AVX2 (5). The first word ("~0") stays as probed.
    static let withoutADXBMI2AVX2 = "~0:~0x80120"

    static let tablesExist: Bool = {
        #if os(Linux) && arch(x86_64)
            return true
        #else
            return false
        #endif
    }()

    struct Report: Decodable {
        var available: Bool
        var arithmetic: String?
        var select: String?
        var tableBuilt: Bool
        var multiplications: Int
        var mismatches: Int
    }

    @Test(.enabled(if: tablesExist))
    func theHostsVariantAgreesWithSwiftCrypto() async throws {
        let report = try await check(ia32cap: nil)
        let flags = try Self.cpuFlags()
        #expect(report.arithmetic == (flags.contains("adx") && flags.contains("bmi2") ? "adx" : "nohw"))
        #expect(report.select == (flags.contains("avx2") ? "avx2" : "nohw"))
    }

    @Test(.enabled(if: tablesExist))
    func theNoHWVariantsAgreeWithSwiftCrypto() async throws {
        let report = try await check(ia32cap: Self.withoutADXBMI2AVX2)
        #expect(report.arithmetic == "nohw")
        #expect(report.select == "nohw")
    }

    /// The table's C source linked into a program with no BoringSSL at all: the weak references
    /// stay unresolved, so it must still link, run, and say the table is unavailable.
    @Test func theTableLinksAndStandsDownWithoutBoringSSL() async throws {
        let directory = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CProvisioP256")
        let program = """
            #include <stdio.h>
            #include "CProvisioP256.h"
            static const uint8_t x[32] = {0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6,
                0xe5, 0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1,
                0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96};
            static const uint8_t y[32] = {0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb,
                0x4a, 0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce, 0xcb, 0xb6,
                0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5};
            int main(void) {
                printf("available=%d variant=%d table=%s\\n", provisio_p256_table_available(),
                       provisio_p256_table_variant(), provisio_p256_table_create(x, y) ? "built" : "none");
                return 0;
            }
            """
        try program.write(toFile: directory + "/main.c", atomically: true, encoding: .utf8)
        let clang = try #require(Self.clang(), "clang (part of the Swift toolchain) is not on PATH")
        let built = try await ChildProcess.run(
            clang,
            arguments: [
                "-O2", "-I", sources.appendingPathComponent("include").path, directory + "/main.c",
                sources.appendingPathComponent("p256_table.c").path, "-o", directory + "/standalone",
            ])
        #expect(built.status == 0, "\(built.standardError)")
        guard built.status == 0 else { return }
        let ran = try await ChildProcess.run(directory + "/standalone")
        #expect(ran.status == 0)
        #expect(ran.standardOutput == "available=0 variant=-1 table=none\n")
    }

    private func check(ia32cap: String?) async throws -> Report {
        let completed = try await ChildProcess.run(
            CLIRunner.executable.path, arguments: ["p256-table-check", "--multiplications", "300"],
            environment: ["OPENSSL_ia32cap": ia32cap])
        #expect(completed.status == 0, "\(completed.standardError)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let report = try decoder.decode(Report.self, from: Data(completed.standardOutput.utf8))
        #expect(report.available && report.tableBuilt)
        #expect(report.multiplications == 303)
        #expect(report.mismatches == 0)
        return report
    }

    /// The CPU's feature flags as the kernel reports them (what BoringSSL's CPUID probe sees, less
    /// what the kernel disabled — which BoringSSL clears too, for AVX2 through XCR0).
    private static func cpuFlags() throws -> Set<String> {
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("flags") })
        return Set(line.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: " ").map(String.init) } ?? [])
    }

    private static func clang() -> String? {
        ProgramLookup.find("clang")
    }
}
