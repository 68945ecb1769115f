import ProvisioMDESIssuerAPI

/// MDES's open enumerations (`anyOf` a known list and any string) as the text MDES sent.
extension Components.Schemas.DeviceInfo.FormFactorPayload {
    var text: String? { value1?.rawValue ?? value2 }
}

extension Components.Schemas.Recommendation {
    var text: String? { value1?.rawValue ?? value2 }
}

extension Components.Schemas.TokenStatus {
    var text: String? { value1?.rawValue ?? value2 }
}

extension Components.Schemas.Suspender {
    var text: String? { value1?.rawValue ?? value2 }
}

extension Components.Schemas.TokenUpdateReason {
    var text: String? { value1?.rawValue ?? value2 }
}

extension Components.Schemas.NotifySuspiciousEventsRequest.EventsPayloadPayload.EventNamePayload {
    var text: String? { value1?.rawValue ?? value2 }
}
