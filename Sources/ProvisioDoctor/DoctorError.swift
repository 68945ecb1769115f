/// Input the doctor cannot examine at all (exit status 2): a path that does not exist, an .ipa,
/// a folder without a single Info.plist. Findings are for projects it *can* examine.
public struct DoctorError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: DoctorCode
    public let message: String

    public init(_ code: DoctorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
