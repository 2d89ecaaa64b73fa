import ChildProcessFixture
import Kafka
import Testing
import WorkerTestSupport

/// `--exactly-once` against the stock embedded cluster (librdkafka 2.0.2's mock, which keeps no transactional
/// offsets) is refused at start with what to use instead, rather than running and answering every request
/// again after a restart.
@Suite("query-worker run: exactly-once needs a cluster that keeps transactions")
struct ExactlyOnceClusterCheckTests {
    @Test func theStockEmbeddedClusterIsRefused() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: WorkerHarness.logger)
        let output = try await CommandRun.run(executable, [
            "run", "--bootstrap-servers", cluster.bootstrapServers, "--exactly-once", "true", "--allowed-hosts", "127.0.0.1",
        ])
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr.contains("is the stock embedded cluster"), "\(output)")
        #expect(output.stderr.contains("scripts/build-transactional-kafka"), "\(output)")
        #expect(output.stdout.contains("exactlyOnce refused: the cluster does not keep transactions"), "\(output)")
        withExtendedLifetime(cluster) {}
    }

    @Test func clusterIdsTellTheBuildsApart() {
        #expect(EmbeddedKafkaCluster.isEmbedded(clusterID: "mockClusterTxn1f2e3d"))
        #expect(EmbeddedKafkaCluster.keepsTransactions(clusterID: "mockClusterTxn1f2e3d"))
        #expect(EmbeddedKafkaCluster.isEmbedded(clusterID: "mockCluster1f2e3d"))
        #expect(!EmbeddedKafkaCluster.keepsTransactions(clusterID: "mockCluster1f2e3d"))
        #expect(!EmbeddedKafkaCluster.keepsTransactions(clusterID: "vQ8n3kqWSZ6W2yQ2xv8xVg"))
    }
}
