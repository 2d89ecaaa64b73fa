import QueryLanguage
import Testing

@Test func moduleLoads() {
    #expect(QueryLanguageModule.name == "QueryLanguage")
}
