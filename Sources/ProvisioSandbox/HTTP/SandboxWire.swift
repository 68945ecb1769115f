/// The sandbox API's objects as Swift values: what `SandboxClient` returns and takes, and what
/// the sandbox's service answers with. Each is built once from the sandbox's own types and
/// converted once to and from the generated wire type (`ProvisioSandboxAPI`, from
/// sandbox-openapi.yaml), which alone says how it looks on the wire. None can carry a PAN: passes
/// and tokens show the last four digits only.
public enum SandboxWire {}
