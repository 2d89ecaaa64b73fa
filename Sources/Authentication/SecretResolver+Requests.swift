import Credentials
import EngineExecution

extension SecretResolver {
    /// A secret read for a request: a file that went away since start (or an unset variable) fails the request
    /// with `credential_unavailable`, naming the credential and field, not the worker.
    func secret(
        _ reference: SecretReference, credential: Credential, field: String
    ) throws(AuthenticationFailure) -> Secret {
        do {
            return try resolve(reference, credential: credential.name, field: field)
        } catch {
            throw AuthenticationFailure(.credentialUnavailable, error.message, credential: credential.name)
        }
    }
}
