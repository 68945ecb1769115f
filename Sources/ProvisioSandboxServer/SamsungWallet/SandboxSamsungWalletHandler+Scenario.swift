import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxSamsungWalletAPI

/// Test switches: what `getSamsungPayStatus` answers on a device, and whether the cardholder
/// cancels the next adds.
extension SandboxSamsungWalletHandler {
    func setSamsungPayStatus(_ input: Operations.SetSamsungPayStatus.Input) async throws
        -> Operations.SetSamsungPayStatus.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let status = SamsungPayStatus(body.status)
        if status == .ready, body.errorReason != nil {
            throw ProvisioError(.sandboxInvalidRequest, "error_reason goes only with a status other than SPAY_READY.")
        }
        let result = SamsungPayStatusResult(status: status, errorReason: body.errorReason.map(SamsungErrorCode.init))
        let device = input.path.device == .phone ? samsung.phone : samsung.watch
        try await samsung.setSamsungPayStatus(result, on: device)
        return .ok(.init(body: .json(.init(result))))
    }

    func setCardholderCancels(_ input: Operations.SetCardholderCancels.Input) async throws
        -> Operations.SetCardholderCancels.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        await samsung.setCardholderCancels(body.cancels)
        return .ok(.init(body: .json(.init(cancels: body.cancels))))
    }
}
