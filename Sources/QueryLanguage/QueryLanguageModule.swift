/// The module's name, for diagnostics.
public enum QueryLanguageModule {
    public static let name = "QueryLanguage"
}
