package import Credentials
import EngineExecution
import Logging
import Synchronization

extension CredentialAuthenticator {
    /// Swaps in a reloaded configuration. New requests use it at once; requests holding a token finish with
    /// it. Tokens of credentials that changed or were removed are dropped: requests waiting for a token call of
    /// a changed credential get a new call made with the new settings, those of a removed one fail with
    /// `unknown_credential`. An `oauthUser` credential removed from the file is signed out (its refresh token
    /// revoked, its file deleted): the SDKs' sign-out.
    package func replace(store new: CredentialStore) async {
        let now = clock.now
        let (restarts, orphans, signOuts, sizes) = state.withLock {
            state -> ([Refresh], [(String, TokenSlot.Waiter)], [Credential], CredentialCacheSizes) in
            let old = state.store
            state.store = new
            state.urls.reset()
            var restarts: [Refresh] = []
            var orphans: [(String, TokenSlot.Waiter)] = []
            for (key, var slot) in state.tokens {
                let updated = new.credential(named: key.credential)
                guard updated != slot.credential else { continue }
                let action = slot.machine.credentialChanged(now: now)
                if let updated, case .startRefresh(let ticket) = action {
                    slot.credential = updated
                    state.tokens[key] = slot
                    state.statistics[key.credential, default: AuthenticatorStatistics()].tokenCalls += 1
                    restarts.append(Refresh(ticket: ticket, key: key, credential: updated, audience: slot.audience))
                } else {
                    orphans += slot.takeWaiters().map { (key.credential, $0) }
                    state.tokens[key] = nil
                }
            }
            let signOuts = old.all.filter { $0.kind == .oauthUser && new.credential(named: $0.name) == nil }
            return (restarts, orphans, signOuts, state.cacheSizes)
        }
        metrics.cacheEntries(sizes)
        for (name, waiter) in orphans {
            waiter.resume(
                throwing: AuthenticationFailure(
                    .unknownCredential, "the credential \"\(name)\" was removed from the credentials file", credential: name))
        }
        for refresh in restarts { start(refresh) }
        for credential in signOuts {
            logger.notice("signing out a removed OAuth user credential", metadata: ["credential": "\(credential.name)"])
            await issuer.signOut(credential)
        }
    }
}
