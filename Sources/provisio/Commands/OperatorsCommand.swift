import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioServer

/// `provisio operators create|list|disable`: the support console's people, from the server's
/// own machine (the first admin of a tenant comes from here; admins add the rest in the
/// console). The password is generated and shown once, or read from standard input.
struct OperatorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operators", abstract: "Create, list and disable the support console's operators.",
        subcommands: [Create.self, List.self, Disable.self])

    struct Options: ParsableArguments {
        @OptionGroup var tenant: TenantOptions

        var tenantID: String { tenant.tenantID }

        func withOperators(_ body: (OperatorService) async throws -> Void) async throws {
            try await tenant.withTenantStore { store in
                try await body(OperatorService(store: store, hasher: BcryptPasswordHasher(), clock: SystemTimeSource()))
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an operator; prints it as JSON with the password when it was generated.")

        @OptionGroup var options: Options
        @Option(name: .long, help: "Their email, which they sign in with.") var email: String
        @Option(name: .long, help: "viewer, support or admin.") var role: String
        @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input instead of generating one.")
        var passwordFromStandardInput = false

        func run() async throws {
            try await options.withOperators { operators in
                let role = try OperatorRole(wire: role)
                var password: String?
                if passwordFromStandardInput {
                    let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                    password = input.trimmingCharacters(in: .newlines)
                }
                let (record, chosen) = try await operators.create(
                    tenantID: options.tenantID, email: email, role: role, password: password)
                var object = OperatorJSON.object(record)
                if !passwordFromStandardInput { object["password"] = chosen }
                print(OperatorJSON.line(object))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tenant's operators, one JSON object per line.")

        @OptionGroup var options: Options

        func run() async throws {
            try await options.withOperators { operators in
                for record in try await operators.operators(tenantID: options.tenantID) {
                    print(OperatorJSON.line(OperatorJSON.object(record)))
                }
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an operator and end their sessions.")

        @OptionGroup var options: Options
        @Argument(help: "The operator's id (op_…).") var operatorID: String

        func run() async throws {
            try await options.withOperators { operators in
                print(
                    OperatorJSON.line(
                        OperatorJSON.object(try await operators.disable(id: operatorID, tenantID: options.tenantID))))
            }
        }
    }
}
