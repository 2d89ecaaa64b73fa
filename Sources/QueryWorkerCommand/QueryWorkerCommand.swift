import ArgumentParser

@main
struct QueryWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query-worker",
        abstract: "Runs feature queries from Kafka against ArcGIS and OGC API Features services.",
        subcommands: [RunCommand.self, EmbeddedKafkaCommand.self, DemoCommand.self]
    )
}
