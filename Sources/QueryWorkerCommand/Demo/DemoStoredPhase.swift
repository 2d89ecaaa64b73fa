import FeatureQueryClient
import Foundation
import Kafka
import Logging
import QueryOutcomes
import SampleFeatureServer

/// The demo's stored result (contract 1.3, issue 31's claim check), played when moto is installed
/// (``DemoObjectStore``): every parcel in the seed extent with its geometry, asked with `delivery: store` as
/// zstd-compressed NDJSON. The result carries the object's location instead of the features; the demo fetches
/// the object through the client library's reader (its size and SHA-256 checked against the location, the
/// stream decompressed) and checks that it holds exactly the ground truth's parcels, each once.
struct DemoStoredPhase {
    static let requestId = "stored-parcels"
    let server: SampleFeatureServer
    let producer: KafkaProducer
    let topic: String
    let logger: Logger

    /// The request and the ids it must store.
    static func request(server: SampleFeatureServer) throws -> (job: QueryJob, truth: [Int]) {
        let truth = try server.dataset.groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
        var job = DemoPlan.job(
            requestId, targets: [.arcgis(url: server.layerURL(.parcels))],
            query: Query(extent: Query.Extent(DemoPlan.seedExtent), returnGeometry: true, result: .features))
        job.delivery = .store
        job.format = .ndjson
        job.compression = .zstd
        return (job, truth)
    }

    func play(into report: inout DemoReport, from stream: inout OutcomeStream) async throws {
        let (job, truth) = try Self.request(server: server)
        printLine("")
        printLine(
            "Results of any size (contract 1.3): the \(OutcomeText.grouped(truth.count)) parcels in view with geometry, "
                + "delivered to the object store as zstd NDJSON, then fetched back through the presigned URL:")
        let message = KafkaProducerMessage(topic: topic, key: Array(job.key.utf8), value: try job.messageValue())
        for result in await producer.send([message]) { _ = try result.get() }
        var outcome: Outcome?
        while let completed = try await stream.next() {
            if completed.outcome.requestId == Self.requestId {
                outcome = completed.outcome
                break
            }
        }
        guard let outcome else {
            report.record(Self.requestId, status: nil, problems: ["no outcome arrived"])
            return
        }
        let problems = await check(outcome, truth: truth)
        report.record(Self.requestId, status: outcome.status, problems: problems)
        if problems.isEmpty, let location = outcome.layers?.first?.location {
            printLine(
                "  ok    \(DemoReport.padded(Self.requestId, 26)) \(DemoReport.padded(outcome.status, 11)) parcels: "
                    + "\(OutcomeText.grouped(location.features ?? 0)) features in \(OutcomeText.grouped(location.bytes)) bytes at "
                    + "\(location.url); fetched back: size and SHA-256 as the location says, ids = ground truth")
        }
    }

    /// What is wrong with the stored outcome: its status and location, then the object read back.
    private func check(_ outcome: Outcome, truth: [Int]) async -> [String] {
        guard outcome.status == "succeeded", let layer = outcome.layers?.first else {
            return ["expected succeeded with one layer, got \(outcome.status)"]
        }
        guard let contract = layer.location else { return ["the layer carries no location (the features came inline)"] }
        guard contract.features == truth.count else {
            return ["the location counts \(contract.features ?? 0) features, the ground truth \(truth.count)"]
        }
        let reader = StoredResultReader(logger: logger)
        let read = await Self.ids(of: contract, layer: layer.url, reader: reader)
        await reader.shutdown()
        let ids: [Int]
        switch read {
        case .success(let stored): ids = stored
        case .failure(let problem): return [problem.description]
        }
        guard ids.sorted() == truth.sorted() else {
            return ["the object holds \(ids.count) features (\(Set(ids).count) distinct), not the ground truth's \(truth.count)"]
        }
        return []
    }

    /// The ids of the stored features, read through the client library (size, SHA-256 and decompression its own).
    private static func ids(of contract: Outcome.Location, layer: String, reader: StoredResultReader) async -> Result<[Int], ReadProblem> {
        var ids: [Int] = []
        do {
            let location = try StoredResultLocation(contract, layer: layer)
            for try await item in reader.items(of: location) {
                guard let feature = try? JSONDecoder().decode(StoredFeatureID.self, from: item) else {
                    return .failure(ReadProblem(description: "a stored line is not a feature with an id: \(String(decoding: item.prefix(120), as: UTF8.self))"))
                }
                ids.append(feature.id)
            }
        } catch {
            return .failure(ReadProblem(description: "the stored object could not be read back: \(error)"))
        }
        return .success(ids)
    }

    private struct ReadProblem: Error, CustomStringConvertible {
        var description: String
    }

    /// A stored feature's `id` (its object id), the one member the check reads.
    private struct StoredFeatureID: Decodable {
        var id: Int
    }
}
