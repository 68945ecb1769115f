import Foundation

/// https://developer.apple.com/documentation/passkit/pkencryptionscheme
public struct PKEncryptionScheme: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// https://developer.apple.com/documentation/passkit/pkencryptionscheme/ecc_v2
    public static let ECC_V2 = PKEncryptionScheme(rawValue: "ECC_V2")
    /// https://developer.apple.com/documentation/passkit/pkencryptionscheme/rsa_v2
    public static let RSA_V2 = PKEncryptionScheme(rawValue: "RSA_V2")
}

/// https://developer.apple.com/documentation/passkit/pkpaymentnetwork
public struct PKPaymentNetwork: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/amex
    public static let amex = PKPaymentNetwork(rawValue: "AmEx")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/chinaunionpay
    public static let chinaUnionPay = PKPaymentNetwork(rawValue: "ChinaUnionPay")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/discover
    public static let discover = PKPaymentNetwork(rawValue: "Discover")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/jcb
    public static let JCB = PKPaymentNetwork(rawValue: "JCB")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/maestro
    public static let maestro = PKPaymentNetwork(rawValue: "Maestro")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/mastercard
    public static let masterCard = PKPaymentNetwork(rawValue: "MasterCard")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/visa
    public static let visa = PKPaymentNetwork(rawValue: "Visa")
}

/// https://developer.apple.com/documentation/passkit/pkpasstype
public enum PKPassType: UInt, Sendable {
    /// https://developer.apple.com/documentation/passkit/pkpasstype/barcode
    case barcode = 0
    /// https://developer.apple.com/documentation/passkit/pkpasstype/secureelement
    case secureElement = 1
    /// https://developer.apple.com/documentation/passkit/pkpasstype/any
    case any = 18_446_744_073_709_551_615
}

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassstyle
public enum PKAddPaymentPassStyle: Int, Sendable {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassstyle/payment
    case payment = 0
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassstyle/access
    case access = 1
}

/// https://developer.apple.com/documentation/passkit/pkpasskiterrordomain
public let PKPassKitErrorDomain: String = "PKPassKitErrorDomain"

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpasserror
public enum PKAddPaymentPassError: Int, Sendable, Equatable {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpasserror/unsupported
    case unsupported = 0
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpasserror/usercancelled
    case userCancelled = 1
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpasserror/systemcancelled
    case systemCancelled = 2
}

/// https://developer.apple.com/documentation/passkit/pkpasskiterror
public struct PKPassKitError: CustomNSError, Hashable, Sendable {
    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/code
    public enum Code: Int, Sendable, Equatable {
        /// https://developer.apple.com/documentation/passkit/pkpasskiterror/code/unknownerror
        case unknownError = -1
        /// https://developer.apple.com/documentation/passkit/pkpasskiterror/code/invaliddataerror
        case invalidDataError = 1
        /// https://developer.apple.com/documentation/passkit/pkpasskiterror/code/unsupportedversionerror
        case unsupportedVersionError = 2
        /// https://developer.apple.com/documentation/passkit/pkpasskiterror/code/invalidsignature
        case invalidSignature = 3
        /// https://developer.apple.com/documentation/passkit/pkpasskiterror/code/notentitlederror
        case notEntitledError = 4
    }

    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/code-swift.property
    public let code: Code

    /// https://developer.apple.com/documentation/passkit/pkpasskiterror
    public init(_ code: Code) { self.code = code }

    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/errordomain
    public static var errorDomain: String { PKPassKitErrorDomain }
    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/errorcode-2opgi
    public var errorCode: Int { code.rawValue }

    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/unknownerror
    public static var unknownError: Code { .unknownError }
    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/invaliddataerror
    public static var invalidDataError: Code { .invalidDataError }
    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/unsupportedversionerror
    public static var unsupportedVersionError: Code { .unsupportedVersionError }
    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/invalidsignature
    public static var invalidSignature: Code { .invalidSignature }
    /// https://developer.apple.com/documentation/passkit/pkpasskiterror/notentitlederror
    public static var notEntitledError: Code { .notEntitledError }
}
