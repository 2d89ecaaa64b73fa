import Testing

@Suite("Authentication module")
struct AuthenticationModuleTests {}
