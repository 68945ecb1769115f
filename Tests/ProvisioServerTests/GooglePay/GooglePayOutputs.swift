import ProvisioAPI

// The Google Pay settings operations and Samsung Pay's own refusal, as the test helpers read them.
extension Operations.GetGooglePaySettings.Output: APIOutput {}
extension Operations.SetGooglePaySettings.Output: APIOutput {}
extension Operations.RotateGooglePaySigningKey.Output: APIOutput {}

extension Components.Responses.SamsungPayBadRequest: ErrorAnswer {
    static var status: Int { 400 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}
