/*
 * How much librdkafka's high-level consumer fetches ahead of an application that holds off, by configuration:
 * evidence for the worker's read-ahead settings (docs/performance/README.md, "Memory").
 *
 * A mock cluster in this process holds COUNT messages of 400 bytes on PARTITIONS partitions (at most 5 MiB
 * each: the mock keeps about that much per partition). For each configuration a consumer in a new group
 * subscribes, takes one message and then takes no more for 4 s, as the worker does with max-in-flight requests
 * running; then the consumer queue's length (messages fetched ahead) and this process's RSS growth are printed.
 *
 *   cc -O2 Benchmarks/memory/librdkafka_prefetch.c -o /tmp/librdkafka_prefetch -lrdkafka
 *   /tmp/librdkafka_prefetch [PARTITIONS (32)] [COUNT (100000)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static long rss_kib(void) {
    FILE *file = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (!file) return -1;
    while (fgets(line, sizeof line, file))
        if (!strncmp(line, "VmRSS:", 6)) kib = atol(line + 6);
    fclose(file);
    return kib;
}

static int set(rd_kafka_conf_t *conf, const char *name, const char *value) {
    char error[512];
    if (rd_kafka_conf_set(conf, name, value, error, sizeof error) == RD_KAFKA_CONF_OK) return 0;
    fprintf(stderr, "%s=%s: %s\n", name, value, error);
    return -1;
}

static const char *effective(rd_kafka_t *rk, const char *name, char *buffer, size_t size) {
    if (rd_kafka_conf_get(rd_kafka_conf(rk), name, buffer, &size) != RD_KAFKA_CONF_OK) snprintf(buffer, 8, "?");
    return buffer;
}

/* Produces `count` messages round robin over `partitions` partitions of topic "t" on the mock cluster. */
static rd_kafka_t *fill(int partitions, int count, char *bootstraps, size_t size) {
    char error[512], payload[400];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    if (set(conf, "test.mock.num.brokers", "1")) return NULL;
    rd_kafka_t *producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
    if (!producer) { fprintf(stderr, "producer: %s\n", error); return NULL; }
    rd_kafka_mock_cluster_t *cluster = rd_kafka_handle_mock_cluster(producer);
    if (!cluster || rd_kafka_mock_topic_create(cluster, "t", partitions, 1)) return NULL;
    snprintf(bootstraps, size, "%s", rd_kafka_mock_cluster_bootstraps(cluster));
    memset(payload, 'x', sizeof payload);
    for (int i = 0; i < count; i++) {
        while (rd_kafka_producev(producer, RD_KAFKA_V_TOPIC("t"), RD_KAFKA_V_PARTITION(i % partitions),
                                 RD_KAFKA_V_VALUE(payload, sizeof payload), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                 RD_KAFKA_V_END))
            rd_kafka_poll(producer, 10);
    }
    if (rd_kafka_flush(producer, 60000)) { fprintf(stderr, "flush timed out\n"); return NULL; }
    return producer;
}

/* One consumer with `properties` (name, value pairs, NULL-terminated): takes one message, holds off 4 s. */
static int measure(const char *label, const char *bootstraps, int group, const char **properties) {
    char error[512], name[32], fetch[32];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    snprintf(name, sizeof name, "g%d", group);
    if (set(conf, "bootstrap.servers", bootstraps) || set(conf, "group.id", name) ||
        set(conf, "auto.offset.reset", "earliest"))
        return -1;
    for (const char **property = properties; property && *property; property += 2)
        if (set(conf, property[0], property[1])) return -1;
    long before = rss_kib();
    rd_kafka_t *consumer = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error);
    if (!consumer) { fprintf(stderr, "consumer: %s\n", error); return -1; }
    rd_kafka_poll_set_consumer(consumer);
    rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(topics, "t", RD_KAFKA_PARTITION_UA);
    rd_kafka_subscribe(consumer, topics);
    rd_kafka_topic_partition_list_destroy(topics);
    rd_kafka_message_t *message = NULL;
    while (!(message = rd_kafka_consumer_poll(consumer, 100)) || message->err)
        if (message) rd_kafka_message_destroy(message);
    rd_kafka_message_destroy(message);
    rd_kafka_queue_t *queue = rd_kafka_queue_get_consumer(consumer);
    sleep(4);
    printf("%-58s %6zu messages fetched ahead, RSS +%4ld MiB (fetch.max.bytes %s)\n", label,
           rd_kafka_queue_length(queue), (rss_kib() - before) / 1024, effective(consumer, "fetch.max.bytes", fetch, sizeof fetch));
    rd_kafka_queue_destroy(queue);
    rd_kafka_consumer_close(consumer);
    rd_kafka_destroy(consumer);
    return 0;
}

int main(int argc, char **argv) {
    int partitions = argc > 1 ? atoi(argv[1]) : 32, count = argc > 2 ? atoi(argv[2]) : 100000;
    char bootstraps[256];
    if (partitions < 1 || count < 1) { fprintf(stderr, "usage: %s [PARTITIONS] [COUNT]\n", argv[0]); return 2; }
    rd_kafka_t *producer = fill(partitions, count, bootstraps, sizeof bootstraps);
    if (!producer) return 1;
    printf("librdkafka %s: %d messages of 400 B on %d partitions; a consumer takes one and holds off 4 s\n",
           rd_kafka_version_str(), count, partitions);
    /* librdkafka's defaults first: later consumers reuse the heap it freed, so their RSS growth reads low. */
    const char *defaults[] = {NULL};
    const char *messages[] = {"queued.min.messages", "1000", NULL};
    const char *bytes[] = {"queued.max.messages.kbytes", "1024", NULL};
    const char *both[] = {"queued.min.messages", "1000", "queued.max.messages.kbytes", "1024", NULL};
    int failed = measure("librdkafka defaults (100000 messages, 65536 KiB)", bootstraps, 0, defaults)
        || measure("queued.min.messages=1000", bootstraps, 1, messages)
        || measure("queued.max.messages.kbytes=1024", bootstraps, 2, bytes)
        || measure("both (the worker's defaults)", bootstraps, 3, both);
    rd_kafka_destroy(producer);
    return failed ? 1 : 0;
}
