// iOS only (UIKit screen, LocalAuthentication): not part of the Linux build of IssuerAppExampleExtensions. The part
// that talks to Wallet and ProvisioKit is WalletAuthorizationViewController, which is.
import LocalAuthentication
import UIKit

/// The Wallet authorization (UI) extension's principal class (`NSExtensionPrincipalClass`:
/// `$(PRODUCT_MODULE_NAME).AuthorizationViewController`): Face ID / Touch ID when a device
/// credential is stored (tried once as the sheet appears, and from its button), and always the
/// username / password form, over `WalletAuthorizationViewController`, which stores the session
/// and answers Wallet.
final class AuthorizationViewController: WalletAuthorizationViewController {
    private let usernameField = UITextField()
    private let passwordField = UITextField()
    private let signInButton = UIButton(type: .system)
    private let biometricButton = UIButton(type: .system)
    private var triedBiometrics = false
    private let cancelButton = UIButton(type: .system)
    private let messageLabel = UILabel()
    private let spinner = UIActivityIndicatorView(style: .medium)

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground

        let title = UILabel()
        title.text = "Sign in to add your card"
        title.font = .preferredFont(forTextStyle: .title2)
        title.adjustsFontForContentSizeCategory = true
        title.numberOfLines = 0

        usernameField.placeholder = "Username"
        usernameField.textContentType = .username
        usernameField.autocapitalizationType = .none
        usernameField.autocorrectionType = .no
        usernameField.borderStyle = .roundedRect
        passwordField.placeholder = "Password"
        passwordField.textContentType = .password
        passwordField.isSecureTextEntry = true
        passwordField.borderStyle = .roundedRect

        signInButton.setTitle("Sign In", for: .normal)
        signInButton.addTarget(self, action: #selector(signInTapped), for: .touchUpInside)
        biometricButton.addTarget(self, action: #selector(biometricTapped), for: .touchUpInside)
        switch availableBiometry {
        case .faceID?: biometricButton.setTitle("Sign In with Face ID", for: .normal)
        case .touchID?: biometricButton.setTitle("Sign In with Touch ID", for: .normal)
        default: biometricButton.isHidden = true
        }
        cancelButton.setTitle("Cancel", for: .normal)
        cancelButton.addTarget(self, action: #selector(cancelTapped), for: .touchUpInside)

        messageLabel.numberOfLines = 0
        messageLabel.font = .preferredFont(forTextStyle: .footnote)
        messageLabel.textColor = .secondaryLabel
        spinner.hidesWhenStopped = true

        let stack = UIStackView(arrangedSubviews: [
            title, biometricButton, usernameField, passwordField, signInButton, spinner, messageLabel, cancelButton,
        ])
        stack.axis = .vertical
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        let margins = view.layoutMarginsGuide
        NSLayoutConstraint.activate([
            stack.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 24),
            stack.leadingAnchor.constraint(equalTo: margins.leadingAnchor),
            stack.trailingAnchor.constraint(equalTo: margins.trailingAnchor),
        ])

        // A misconfigured extension (no ProvisioExtension dictionary, no keychain group) says so
        // instead of taking a password it could not use.
        if setupError != nil { show(Self.unavailableMessage, formEnabled: false) }
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        // Offer biometrics once on appearing; the form stays for the password.
        if !triedBiometrics, !biometricButton.isHidden {
            triedBiometrics = true
            biometricTapped()
        }
    }

    @objc private func biometricTapped() {
        setBusy(true)
        Task {
            let outcome = await signInWithBiometrics()
            setBusy(false)
            handle(outcome)
        }
    }

    @objc private func signInTapped() {
        setBusy(true)
        let (username, password) = (usernameField.text ?? "", passwordField.text ?? "")
        Task {
            let outcome = await signIn(username: username, password: password)
            setBusy(false)
            handle(outcome)
        }
    }

    private func handle(_ outcome: WalletSignInOutcome) {
        switch outcome {
        case .authorized:
            show("Signed in.", formEnabled: false)  // Wallet closes the sheet.
        case .tryAgain(let message):
            passwordField.text = ""
            show(message, formEnabled: true)
        case .ended(let message):
            show(message, formEnabled: false)
        }
    }

    @objc private func cancelTapped() {
        cancel()
    }

    private func setBusy(_ busy: Bool) {
        busy ? spinner.startAnimating() : spinner.stopAnimating()
        signInButton.isEnabled = !busy
        biometricButton.isEnabled = !busy
    }

    private func show(_ message: String, formEnabled: Bool) {
        messageLabel.text = message
        let controls: [UIControl] = [usernameField, passwordField, signInButton, biometricButton]
        for control in controls { control.isEnabled = formEnabled }
    }
}
