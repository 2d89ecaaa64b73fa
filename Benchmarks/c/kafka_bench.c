/*
 * kafka_bench: the C-client baseline for the Kafka benchmark (Benchmarks/Sources/KafkaBenchmark).
 *
 *   kafka_bench produce BOOTSTRAP TOPIC COUNT SIZE
 *   kafka_bench consume BOOTSTRAP TOPIC COUNT GROUP
 *
 * The producer uses the Swift KafkaProducer's default settings (KafkaProducerConfiguration.swift) and the
 * consumer the Swift KafkaConsumer's (KafkaConsumerConfiguration.swift), including the at-least-once offset
 * store per message, so that both sides do the same work. Each run prints one line:
 *
 *   RESULT op=produce messages=N bytes=B elapsed_s=S rate=R cpu_s=C failed=F librdkafka=VERSION
 *
 * where cpu_s is the process's CPU time (all threads) over the timed window, and exits non-zero if not
 * every message was delivered or read. The producer first sends one untimed
 * warm-up message (key "warmup") and waits for it, so connecting and acquiring the idempotent producer id
 * are not timed; a topic written by `produce N` therefore holds N + 1 messages, and `consume N` reads N.
 *
 * KAFKA_BENCH_DEBUG=CONTEXTS (e.g. fetch) turns on librdkafka's debug log, on standard error;
 * KAFKA_BENCH_CONSUMER_PROPERTIES (NAME=VALUE lines) adds consumer properties.
 *
 * Build: cc -O2 -o Benchmarks/bin/kafka_bench Benchmarks/c/kafka_bench.c -lrdkafka
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <librdkafka/rdkafka.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of the whole process (all its threads, librdkafka's included), in seconds. */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void set(rd_kafka_conf_t *conf, const char *name, const char *value) {
    char err[512];
    if (rd_kafka_conf_set(conf, name, value, err, sizeof err) != RD_KAFKA_CONF_OK) {
        fprintf(stderr, "kafka_bench: %s=%s: %s\n", name, value, err);
        exit(2);
    }
}

static rd_kafka_t *make_client(rd_kafka_type_t type, rd_kafka_conf_t *conf) {
    char err[512];
    const char *debug = getenv("KAFKA_BENCH_DEBUG"); /* librdkafka debug contexts, e.g. "fetch" */
    if (debug && *debug) set(conf, "debug", debug);
    rd_kafka_t *rk = rd_kafka_new(type, conf, err, sizeof err);
    if (!rk) {
        fprintf(stderr, "kafka_bench: rd_kafka_new: %s\n", err);
        exit(2);
    }
    return rk;
}

/* ---- produce ------------------------------------------------------------------------------- */

static long delivered = 0;
static long failed = 0;

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *message, void *opaque) {
    (void)rk;
    (void)opaque;
    if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        delivered++;
    } else {
        if (failed++ < 5) fprintf(stderr, "kafka_bench: delivery failed: %s\n", rd_kafka_err2str(message->err));
    }
}

static int produce(const char *bootstrap, const char *topic, long count, long size) {
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    /* KafkaClientConfiguration + KafkaProducerConfiguration defaults. */
    set(conf, "bootstrap.servers", bootstrap);
    set(conf, "client.id", "kafka-bench-c");
    set(conf, "enable.idempotence", "true");
    set(conf, "compression.codec", "none");
    set(conf, "linger.ms", "5");
    set(conf, "queue.buffering.max.messages", "100000");
    set(conf, "queue.buffering.max.kbytes", "262144");
    set(conf, "message.max.bytes", "1000000");
    set(conf, "message.timeout.ms", "120000");
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    rd_kafka_t *rk = make_client(RD_KAFKA_PRODUCER, conf);

    char *value = malloc((size_t)size);
    for (long i = 0; i < size; i++) value[i] = (char)('a' + i % 26);
    char key[32];

    /* Warm-up, not timed: connect, fetch metadata and acquire the idempotent producer id with one message. */
    rd_kafka_resp_err_t warmup = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                                   RD_KAFKA_V_KEY("warmup", 6), RD_KAFKA_V_VALUE(value, (size_t)size),
                                                   RD_KAFKA_V_END);
    if (warmup != RD_KAFKA_RESP_ERR_NO_ERROR || rd_kafka_flush(rk, 30000) != RD_KAFKA_RESP_ERR_NO_ERROR ||
        delivered != 1) {
        fprintf(stderr, "kafka_bench: warm-up message not delivered: %s\n", rd_kafka_err2str(warmup));
        return 1;
    }
    delivered = 0;

    double start = now_s();
    double cpu_start = cpu_s();
    for (long i = 0; i < count; i++) {
        int key_len = snprintf(key, sizeof key, "key-%ld", i);
        for (;;) {
            rd_kafka_resp_err_t err = rd_kafka_producev(
                rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                RD_KAFKA_V_KEY(key, (size_t)key_len), RD_KAFKA_V_VALUE(value, (size_t)size), RD_KAFKA_V_END);
            if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
            if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
                fprintf(stderr, "kafka_bench: produce: %s\n", rd_kafka_err2str(err));
                return 1;
            }
            rd_kafka_poll(rk, 1); /* queue full: serve delivery reports until there is room */
        }
        rd_kafka_poll(rk, 0);
    }
    while (rd_kafka_flush(rk, 10000) == RD_KAFKA_RESP_ERR__TIMED_OUT && delivered + failed < count) {}
    double elapsed = now_s() - start;
    double cpu = cpu_s() - cpu_start;

    printf("RESULT op=produce messages=%ld bytes=%ld elapsed_s=%.6f rate=%.1f cpu_s=%.6f failed=%ld librdkafka=%s\n",
           delivered, delivered * size, elapsed, (double)delivered / elapsed, cpu, failed, rd_kafka_version_str());
    fflush(stdout);
    rd_kafka_destroy(rk);
    free(value);
    return delivered == count ? 0 : 1;
}

/* ---- consume ------------------------------------------------------------------------------- */

static volatile sig_atomic_t stop = 0;
static void on_signal(int sig) {
    (void)sig;
    stop = 1;
}

static int consume(const char *bootstrap, const char *topic, long count, const char *group) {
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    /* KafkaClientConfiguration + KafkaConsumerConfiguration defaults. */
    set(conf, "bootstrap.servers", bootstrap);
    set(conf, "client.id", "kafka-bench-c");
    set(conf, "group.id", group);
    set(conf, "partition.assignment.strategy", "range");
    set(conf, "auto.offset.reset", "earliest");
    set(conf, "session.timeout.ms", "10000");
    set(conf, "heartbeat.interval.ms", "1000");
    set(conf, "max.poll.interval.ms", "300000");
    set(conf, "enable.auto.commit", "true");
    set(conf, "auto.commit.interval.ms", "1000");
    set(conf, "enable.auto.offset.store", "false");
    set(conf, "enable.partition.eof", "false");
    /* Extra consumer properties from the benchmark (--consumer-property), as NAME=VALUE lines. */
    const char *extra = getenv("KAFKA_BENCH_CONSUMER_PROPERTIES");
    if (extra && *extra) {
        char *copy = strdup(extra), *save = NULL;
        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char *eq = strchr(line, '=');
            if (!eq) continue;
            *eq = '\0';
            set(conf, line, eq + 1);
        }
        free(copy);
    }
    rd_kafka_t *rk = make_client(RD_KAFKA_CONSUMER, conf);
    rd_kafka_poll_set_consumer(rk);

    rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(topics, topic, RD_KAFKA_PARTITION_UA);
    rd_kafka_resp_err_t err = rd_kafka_subscribe(rk, topics);
    rd_kafka_topic_partition_list_destroy(topics);
    if (err) {
        fprintf(stderr, "kafka_bench: subscribe: %s\n", rd_kafka_err2str(err));
        return 1;
    }

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    /* Gives up if the topic holds fewer messages than asked for (the Swift side has the same limit). */
    const double deadline = now_s() + 300;
    long received = 0;
    long bytes = 0;
    unsigned checksum = 0;
    double first = 0, last = 0, cpu_first = 0, cpu_last = 0;
    while (received < count && !stop && now_s() < deadline) {
        rd_kafka_message_t *message = rd_kafka_consumer_poll(rk, 100);
        if (!message) continue;
        if (message->err) {
            if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF)
                fprintf(stderr, "kafka_bench: consume: %s\n", rd_kafka_message_errstr(message));
            rd_kafka_message_destroy(message);
            continue;
        }
        if (received == 0) {
            first = now_s();
            cpu_first = cpu_s();
        }
        received++;
        bytes += (long)message->len;
        if (message->len > 0) checksum += ((const unsigned char *)message->payload)[message->len - 1];

        /* At-least-once, as KafkaConsumer.storeOffset(for:) does: store offset + 1 for this message. */
        rd_kafka_topic_partition_list_t *offsets = rd_kafka_topic_partition_list_new(1);
        rd_kafka_topic_partition_list_add(offsets, rd_kafka_topic_name(message->rkt), message->partition)->offset =
            message->offset + 1;
        err = rd_kafka_offsets_store(rk, offsets);
        if (err || offsets->elems[0].err) {
            fprintf(stderr, "kafka_bench: offsets_store: %s\n", rd_kafka_err2str(err ? err : offsets->elems[0].err));
        }
        rd_kafka_topic_partition_list_destroy(offsets);
        rd_kafka_message_destroy(message);
        last = now_s();
    }
    cpu_last = cpu_s();
    double elapsed = last - first;
    printf("RESULT op=consume messages=%ld bytes=%ld elapsed_s=%.6f rate=%.1f cpu_s=%.6f failed=0 checksum=%u librdkafka=%s\n",
           received, bytes, elapsed, elapsed > 0 ? (double)received / elapsed : 0.0, cpu_last - cpu_first, checksum,
           rd_kafka_version_str());
    fflush(stdout);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    return received == count ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "produce") == 0) {
        return produce(argv[2], argv[3], atol(argv[4]), atol(argv[5]));
    }
    if (argc == 6 && strcmp(argv[1], "consume") == 0) {
        return consume(argv[2], argv[3], atol(argv[4]), argv[5]);
    }
    fprintf(stderr,
            "usage: kafka_bench produce BOOTSTRAP TOPIC COUNT SIZE\n"
            "       kafka_bench consume BOOTSTRAP TOPIC COUNT GROUP\n");
    return 2;
}
