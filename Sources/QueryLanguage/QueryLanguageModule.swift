/// The module's version of its limits and formats, for diagnostics.
public enum QueryLanguageModule {
    public static let name = "QueryLanguage"
}
