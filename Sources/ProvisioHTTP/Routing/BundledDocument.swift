import Foundation

/// A document a service serves as it bundles it (its OpenAPI document, at `/openapi.yaml`): the
/// same bytes its wire code is generated from.
public enum BundledDocument {
    /// The document's text; a package without it is broken, so this stops the process.
    public static func text(_ name: String, extension fileExtension: String, in bundle: Bundle) -> String {
        guard let url = bundle.url(forResource: name, withExtension: fileExtension),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { fatalError("The bundled \(name).\(fileExtension) is missing; the package is broken.") }
        return text
    }
}
