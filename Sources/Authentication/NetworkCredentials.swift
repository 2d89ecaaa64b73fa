import Credentials
import CurlHTTP
import EngineExecution

/// The credentials libcurl applies itself: HTTP authentication (`password`), a TLS client certificate
/// (`certificate`) and the servers to trust (`serverTrust`), as one `HTTPCredentialRule` for exactly the
/// request's URL, so the rule can't reach another host.
enum NetworkCredentials {
    static func applied(
        _ chosen: [CredentialKind.Role: Credential], url: String, resolver: SecretResolver
    ) throws(AuthenticationFailure) -> AppliedAuthentication {
        var rule = HTTPCredentialRule(match: .prefix(url))
        var used = false
        if let trust = chosen[.serverTrust], case .serverTrust(let settings) = trust.configuration {
            switch settings.anchor {
            case .caFile(let path): rule.caBundlePath = path
            case .pinnedPublicKey(let pins): rule.pinnedPublicKey = pins
            }
            used = true
        }
        if let credential = chosen[.clientCertificate], case .certificate(let settings) = credential.configuration {
            let password = try settings.password.map { reference throws(AuthenticationFailure) in
                try resolver.secret(reference, credential: credential, field: "password").revealed()
            }
            let lowered = settings.path.lowercased()
            if lowered.hasSuffix(".p12") || lowered.hasSuffix(".pfx") {
                rule.clientCertificate = .pkcs12(path: settings.path, password: password)
            } else {
                rule.clientCertificate = .pem(
                    certificatePath: settings.path, keyPath: settings.keyPath ?? settings.path, passphrase: password)
            }
            used = true
        }
        if let credential = chosen[.httpAuthentication], case .password(let settings) = credential.configuration {
            let password = try settings.password.map { reference throws(AuthenticationFailure) in
                try resolver.secret(reference, credential: credential, field: "password").revealed()
            }
            // Negotiate authenticates with the process's Kerberos identity (its keytab); libcurl wants an empty
            // user name and password for it, as `curl --negotiate -u :`.
            rule.authentication = HTTPAuthentication(
                scheme: scheme(settings.scheme), username: settings.username ?? "", password: password ?? "")
            used = true
        }
        return AppliedAuthentication(network: used ? rule : nil)
    }

    private static func scheme(_ scheme: PasswordSettings.Scheme) -> HTTPAuthentication.Scheme {
        switch scheme {
        case .basic: .basic
        case .digest: .digest
        case .ntlm: .ntlm
        case .negotiate: .negotiate
        case .any: .any
        }
    }
}
