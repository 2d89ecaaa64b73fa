/*
 * Exactly-once checks against a Kafka cluster (meant for the mock cluster of
 * librdkafka-2.0.2-mock-transactions.patch), with the system librdkafka 2.0.2
 * as the client. Build and run:
 *     gcc -O1 -Wall -o txn_check txn_check.c -lrdkafka
 *     ./txn_check BOOTSTRAP              checks A..J, PASS/FAIL per line
 *     ./txn_check --one BOOTSTRAP TOPIC LABEL
 *         one committed transaction (TOPIC, partition 0), checks it is
 *         visible; prints PASS/FAIL LABEL
 *     ./txn_check --seed BOOTSTRAP TOPIC SECS
 *         writes to TOPIC[0]: committed-0..2 (committed), aborted-0..2
 *         (aborted), open-0 (left open for SECS seconds, then committed);
 *         prints "OPEN" once the open transaction is in place.
 * Exit status 0 only if every check passed.
 *
 * Topics, groups and transactional.ids get a random suffix per run; the
 * mock auto-creates topics with 4 partitions (all may get the same leader:
 * check J uses the topic named by env TXN_CHECK_MULTI_TOPIC instead, if set,
 * e.g. one whose partition leaders check.sh spread over the brokers).
 */
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *boot;
static char IN[64], OUT[64], GROUP[64], TXID[64];
static int failures = 0;

static void check(const char *name, int ok, const char *detail) {
        printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, detail ? ": " : "",
               detail ? detail : "");
        if (!ok)
                failures++;
        fflush(stdout);
}

static void die(const char *what, rd_kafka_error_t *e) {
        fprintf(stderr, "FATAL %s: %s (%s) fatal=%d abortable=%d\n", what,
                rd_kafka_error_string(e), rd_kafka_error_name(e),
                rd_kafka_error_is_fatal(e),
                rd_kafka_error_txn_requires_abort(e));
        printf("FAIL %s: %s\n", what, rd_kafka_error_string(e));
        exit(2);
}

static void cset(rd_kafka_conf_t *c, const char *k, const char *v) {
        char err[512];
        if (rd_kafka_conf_set(c, k, v, err, sizeof(err)) != RD_KAFKA_CONF_OK) {
                fprintf(stderr, "conf %s=%s: %s\n", k, v, err);
                exit(2);
        }
}

static rd_kafka_t *mk(rd_kafka_type_t type, const char **kv) {
        char err[512];
        rd_kafka_conf_t *c = rd_kafka_conf_new();
        cset(c, "bootstrap.servers", boot);
        for (; kv && *kv; kv += 2)
                cset(c, kv[0], kv[1]);
        rd_kafka_t *rk = rd_kafka_new(type, c, err, sizeof(err));
        if (!rk) {
                fprintf(stderr, "rd_kafka_new: %s\n", err);
                exit(2);
        }
        if (type == RD_KAFKA_CONSUMER)
                rd_kafka_poll_set_consumer(rk);
        return rk;
}

static rd_kafka_t *txn_producer(const char *txid, const char *timeout_ms) {
        const char *kv[] = {"transactional.id", txid, "transaction.timeout.ms",
                            timeout_ms ? timeout_ms : "60000", NULL};
        rd_kafka_t *p    = mk(RD_KAFKA_PRODUCER, kv);
        rd_kafka_error_t *e;
        if ((e = rd_kafka_init_transactions(p, 15000)))
                die("init_transactions", e);
        return p;
}

/* Read partitions 0..nparts-1 of `topic` from the beginning with the given
 * isolation level for `secs` seconds; returns the count of values with the
 * given prefix (and the total in *total). */
static int read_topic(const char *topic, int nparts, const char *isolation,
                      int secs, const char *prefix, int *total) {
        char grp[80];
        snprintf(grp, sizeof(grp), "reader-%d-%ld", rand(), (long)time(NULL));
        const char *kv[] = {"group.id", grp, "isolation.level", isolation,
                            "enable.auto.commit", "false", NULL};
        rd_kafka_t *c = mk(RD_KAFKA_CONSUMER, kv);
        rd_kafka_topic_partition_list_t *a =
            rd_kafka_topic_partition_list_new(nparts);
        for (int i = 0; i < nparts; i++)
                rd_kafka_topic_partition_list_add(a, topic, i)->offset =
                    RD_KAFKA_OFFSET_BEGINNING;
        rd_kafka_assign(c, a);
        rd_kafka_topic_partition_list_destroy(a);
        int n = 0, t = 0;
        time_t end = time(NULL) + secs;
        printf("  [%s %s] sees:", isolation, topic);
        while (time(NULL) < end) {
                rd_kafka_message_t *m = rd_kafka_consumer_poll(c, 200);
                if (!m)
                        continue;
                if (!m->err) {
                        t++;
                        printf(" %.*s", (int)m->len, (char *)m->payload);
                        if (prefix && m->len >= strlen(prefix) &&
                            !memcmp(m->payload, prefix, strlen(prefix)))
                                n++;
                }
                rd_kafka_message_destroy(m);
        }
        printf("\n");
        rd_kafka_consumer_close(c);
        rd_kafka_destroy(c);
        if (total)
                *total = t;
        return n;
}

static int read_out(const char *isolation, int secs, const char *prefix,
                    int *total) {
        return read_topic(OUT, 1, isolation, secs, prefix, total);
}

static int64_t group_committed(const char *group) {
        const char *kv[] = {"group.id", group, NULL};
        rd_kafka_t *c    = mk(RD_KAFKA_CONSUMER, kv);
        rd_kafka_topic_partition_list_t *l =
            rd_kafka_topic_partition_list_new(1);
        rd_kafka_topic_partition_list_add(l, IN, 0);
        rd_kafka_resp_err_t err = rd_kafka_committed(c, l, 10000);
        int64_t off             = err ? -9999 : l->elems[0].offset;
        rd_kafka_topic_partition_list_destroy(l);
        rd_kafka_consumer_close(c);
        rd_kafka_destroy(c);
        return off;
}

static void produce_to(rd_kafka_t *p, const char *topic, int partition,
                       const char *val) {
        rd_kafka_resp_err_t err = rd_kafka_producev(
            p, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(partition),
            RD_KAFKA_V_VALUE((void *)val, strlen(val)),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
        if (err) {
                fprintf(stderr, "produce: %s\n", rd_kafka_err2str(err));
                exit(2);
        }
}

static void produce(rd_kafka_t *p, const char *topic, const char *val) {
        produce_to(p, topic, 0, val);
}

/* send_offsets_to_transaction(IN[0] = off) with `md`; returns the error. */
static rd_kafka_error_t *
send_offsets_md(rd_kafka_t *p, rd_kafka_consumer_group_metadata_t *md,
                int64_t off) {
        rd_kafka_topic_partition_list_t *l =
            rd_kafka_topic_partition_list_new(1);
        rd_kafka_topic_partition_list_add(l, IN, 0)->offset = off;
        rd_kafka_error_t *e =
            rd_kafka_send_offsets_to_transaction(p, l, md, 10000);
        rd_kafka_topic_partition_list_destroy(l);
        return e;
}

static void send_offsets(rd_kafka_t *p, rd_kafka_t *c, int64_t off) {
        rd_kafka_consumer_group_metadata_t *md =
            rd_kafka_consumer_group_metadata(c);
        rd_kafka_error_t *e = send_offsets_md(p, md, off);
        rd_kafka_consumer_group_metadata_destroy(md);
        if (e)
                die("send_offsets_to_transaction", e);
}

static int assigned_cnt(rd_kafka_t *c) {
        rd_kafka_topic_partition_list_t *a = NULL;
        int n                              = 0;
        if (!rd_kafka_assignment(c, &a) && a) {
                n = a->cnt;
                rd_kafka_topic_partition_list_destroy(a);
        }
        return n;
}

static rd_kafka_t *group_member(const char *group) {
        const char *kv[] = {"group.id",
                            group,
                            "auto.offset.reset",
                            "earliest",
                            "enable.auto.commit",
                            "false",
                            "isolation.level",
                            "read_committed",
                            "session.timeout.ms",
                            "6000",
                            "heartbeat.interval.ms",
                            "500",
                            NULL};
        rd_kafka_t *c    = mk(RD_KAFKA_CONSUMER, kv);
        rd_kafka_topic_partition_list_t *sub =
            rd_kafka_topic_partition_list_new(1);
        rd_kafka_topic_partition_list_add(sub, IN, RD_KAFKA_PARTITION_UA);
        rd_kafka_subscribe(c, sub);
        rd_kafka_topic_partition_list_destroy(sub);
        return c;
}

static void poll_some(rd_kafka_t *c, int ms) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(c, ms);
        if (m)
                rd_kafka_message_destroy(m);
}

/* H. KIP-447: group metadata from before a rebalance is refused. */
static void check_kip447(void) {
        char group[80], txid[80], detail[256];
        rd_kafka_error_t *e;
        snprintf(group, sizeof(group), "%s-kip447", GROUP);
        snprintf(txid, sizeof(txid), "%s-kip447", TXID);

        rd_kafka_t *c1 = group_member(group);
        time_t end     = time(NULL) + 30;
        while (!assigned_cnt(c1) && time(NULL) < end)
                poll_some(c1, 200);
        rd_kafka_consumer_group_metadata_t *md_old =
            rd_kafka_consumer_group_metadata(c1);

        /* A second member joins: the group rebalances to a new generation. */
        rd_kafka_t *c2 = group_member(group);
        end            = time(NULL) + 30;
        while (!assigned_cnt(c2) && time(NULL) < end) {
                poll_some(c1, 100);
                poll_some(c2, 100);
        }
        for (int i = 0; i < 5; i++) {
                poll_some(c1, 100);
                poll_some(c2, 100);
        }

        rd_kafka_t *p = txn_producer(txid, NULL);
        if ((e = rd_kafka_begin_transaction(p)))
                die("kip447 begin", e);
        produce(p, OUT, "kip447-stale");
        e = send_offsets_md(p, md_old, 1);
        rd_kafka_resp_err_t code =
            e ? rd_kafka_error_code(e) : RD_KAFKA_RESP_ERR_NO_ERROR;
        snprintf(detail, sizeof(detail), "stale metadata: %s (abortable=%d)",
                 e ? rd_kafka_error_string(e) : "accepted",
                 e ? rd_kafka_error_txn_requires_abort(e) : 0);
        check("H1 KIP-447 stale group generation refused",
              code == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION ||
                  code == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID,
              detail);
        if (e)
                rd_kafka_error_destroy(e);
        if ((e = rd_kafka_abort_transaction(p, 10000)))
                die("kip447 abort", e);

        if ((e = rd_kafka_begin_transaction(p)))
                die("kip447 begin2", e);
        produce(p, OUT, "kip447-fresh");
        rd_kafka_consumer_group_metadata_t *md_new =
            rd_kafka_consumer_group_metadata(c1);
        e = send_offsets_md(p, md_new, 1);
        snprintf(detail, sizeof(detail), "fresh metadata: %s",
                 e ? rd_kafka_error_string(e) : "accepted");
        check("H2 KIP-447 current group generation accepted", !e, detail);
        if (e) {
                rd_kafka_error_destroy(e);
                rd_kafka_abort_transaction(p, 10000);
        } else if ((e = rd_kafka_commit_transaction(p, 10000)))
                die("kip447 commit", e);
        rd_kafka_consumer_group_metadata_destroy(md_old);
        rd_kafka_consumer_group_metadata_destroy(md_new);
        rd_kafka_consumer_close(c2);
        rd_kafka_destroy(c2);
        rd_kafka_consumer_close(c1);
        rd_kafka_destroy(c1);
        rd_kafka_destroy(p);
}

/* I. A transaction left open past transaction.timeout.ms is aborted by the
 *    coordinator (its data never visible, the LSO released) and its producer
 *    fenced. */
static void check_timeout(void) {
        char topic[80], txid[80], detail[256];
        rd_kafka_error_t *e;
        snprintf(topic, sizeof(topic), "%s-timeout", OUT);
        snprintf(txid, sizeof(txid), "%s-timeout", TXID);

        rd_kafka_t *p = txn_producer(txid, "2000");
        if ((e = rd_kafka_begin_transaction(p)))
                die("timeout begin", e);
        produce(p, topic, "timedout-0");
        rd_kafka_flush(p, 10000);

        /* A plain message after the open transaction's data. */
        rd_kafka_t *plain = mk(RD_KAFKA_PRODUCER, NULL);
        produce(plain, topic, "after-0");
        rd_kafka_flush(plain, 10000);
        rd_kafka_destroy(plain);

        int tot = 0;
        int n   = read_topic(topic, 1, "read_committed", 1, "after-", &tot);
        sleep(3); /* past the 2 s timeout; the reader's requests expire it */
        n = read_topic(topic, 1, "read_committed", 4, "after-", &tot);
        snprintf(detail, sizeof(detail), "%d of 1 after-* and %d other seen", n,
                 tot - n);
        check("I1 timed-out transaction aborted: its data hidden, LSO released",
              n == 1 && tot == 1, detail);

        e = rd_kafka_commit_transaction(p, 10000);
        snprintf(detail, sizeof(detail), "commit after timeout: %s fatal=%d",
                 e ? rd_kafka_error_string(e) : "succeeded",
                 e ? rd_kafka_error_is_fatal(e) : 0);
        check("I2 timed-out producer is fenced", e && rd_kafka_error_is_fatal(e),
              detail);
        if (e)
                rd_kafka_error_destroy(e);
        rd_kafka_destroy_flags(p, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
}

/* J. One transaction over the 4 partitions of a topic (leaders spread over
 *    the brokers): commit shows all, abort hides all. */
static void check_multi_partition(void) {
        char topic[80], txid[80], detail[256], buf[64];
        rd_kafka_error_t *e;
        const rd_kafka_metadata_t *md;
        snprintf(topic, sizeof(topic), "%s-multi", OUT);
        if (getenv("TXN_CHECK_MULTI_TOPIC"))
                snprintf(topic, sizeof(topic), "%s",
                         getenv("TXN_CHECK_MULTI_TOPIC"));
        snprintf(txid, sizeof(txid), "%s-multi", TXID);

        rd_kafka_t *p = txn_producer(txid, NULL);
        for (int round = 0; round < 2; round++) {
                if ((e = rd_kafka_begin_transaction(p)))
                        die("multi begin", e);
                for (int i = 0; i < 4; i++) {
                        snprintf(buf, sizeof(buf), "%s-%d",
                                 round ? "multiaborted" : "multi", i);
                        produce_to(p, topic, i, buf);
                }
                rd_kafka_flush(p, 10000);
                e = round ? rd_kafka_abort_transaction(p, 10000)
                          : rd_kafka_commit_transaction(p, 10000);
                if (e)
                        die("multi end", e);
        }
        char leaders[64] = "";
        rd_kafka_topic_t *rkt = rd_kafka_topic_new(p, topic, NULL);
        if (!rd_kafka_metadata(p, 0, rkt, &md, 5000)) {
                for (int i = 0; md->topic_cnt == 1 &&
                                i < md->topics[0].partition_cnt && i < 8;
                     i++)
                        snprintf(leaders + strlen(leaders),
                                 sizeof(leaders) - strlen(leaders), "%s%d",
                                 i ? "," : "", md->topics[0].partitions[i].leader);
                rd_kafka_metadata_destroy(md);
        }
        rd_kafka_topic_destroy(rkt);
        int tot = 0;
        int n   = read_topic(topic, 4, "read_committed", 4, "multi-", &tot);
        snprintf(detail, sizeof(detail),
                 "partition leaders %s; %d of 4 committed, %d aborted seen",
                 leaders, n, tot - n);
        check("J transaction over partitions on several brokers", n == 4 && tot == 4,
              detail);
        rd_kafka_destroy(p);
}

/* --one: a single committed transaction is visible to read_committed. */
static int one(const char *name, const char *label) {
        char txid[96], val[96];
        rd_kafka_error_t *e;
        snprintf(txid, sizeof(txid), "one-%s-%d", name, rand() % 1000000);
        snprintf(val, sizeof(val), "one-%d", rand() % 1000000);
        rd_kafka_t *p = txn_producer(txid, NULL);
        if ((e = rd_kafka_begin_transaction(p)))
                die("one begin", e);
        produce(p, name, val);
        if ((e = rd_kafka_commit_transaction(p, 30000)))
                die("one commit", e);
        rd_kafka_destroy(p);
        int n = read_topic(name, 1, "read_committed", 4, val, NULL);
        check(label, n == 1, n == 1 ? "committed transaction visible"
                                    : "committed transaction NOT visible");
        return failures ? 1 : 0;
}

/* --seed: committed, aborted and open transactions for other clients. */
static int seed(const char *topic, int secs) {
        char txid[96], buf[64];
        rd_kafka_error_t *e;
        snprintf(txid, sizeof(txid), "seed-%d", rand() % 1000000);
        rd_kafka_t *p = txn_producer(txid, NULL);
        for (int round = 0; round < 3; round++) {
                static const char *names[] = {"committed", "aborted", "open"};
                if ((e = rd_kafka_begin_transaction(p)))
                        die("seed begin", e);
                for (int i = 0; i < (round == 2 ? 1 : 3); i++) {
                        snprintf(buf, sizeof(buf), "%s-%d", names[round], i);
                        produce(p, topic, buf);
                }
                rd_kafka_flush(p, 10000);
                if (round == 0 && (e = rd_kafka_commit_transaction(p, 10000)))
                        die("seed commit", e);
                if (round == 1 && (e = rd_kafka_abort_transaction(p, 10000)))
                        die("seed abort", e);
        }
        printf("OPEN\n");
        fflush(stdout);
        sleep(secs);
        if ((e = rd_kafka_commit_transaction(p, 10000)))
                die("seed commit open", e);
        rd_kafka_destroy(p);
        return 0;
}

int main(int argc, char **argv) {
        char buf[128], detail[256];
        rd_kafka_error_t *e;
        srand(getpid() ^ time(NULL));
        if (argc == 5 && !strcmp(argv[1], "--one")) {
                boot = argv[2];
                return one(argv[3], argv[4]);
        }
        if (argc == 5 && !strcmp(argv[1], "--seed")) {
                boot = argv[2];
                return seed(argv[3], atoi(argv[4]));
        }
        if (argc != 2) {
                fprintf(stderr,
                        "usage: %s BOOTSTRAP | --one BOOTSTRAP TOPIC LABEL | "
                        "--seed BOOTSTRAP TOPIC SECS\n",
                        argv[0]);
                return 2;
        }
        boot    = argv[1];
        int run = rand() % 1000000;
        snprintf(IN, sizeof(IN), "cin-%06d", run);
        snprintf(OUT, sizeof(OUT), "cout-%06d", run);
        snprintf(GROUP, sizeof(GROUP), "cg-%06d", run);
        snprintf(TXID, sizeof(TXID), "ctx-%06d", run);
        printf("librdkafka %s (client), run %06d\n", rd_kafka_version_str(),
               run);

        /* 1. seed 10 plain messages to IN[0] */
        rd_kafka_t *p0 = mk(RD_KAFKA_PRODUCER, NULL);
        for (int i = 0; i < 10; i++) {
                snprintf(buf, sizeof(buf), "req-%d", i);
                produce(p0, IN, buf);
        }
        rd_kafka_flush(p0, 10000);
        rd_kafka_destroy(p0);

        /* 2. a group consumer reads them */
        rd_kafka_t *c = group_member(GROUP);
        int64_t offs[10];
        int got    = 0;
        time_t end = time(NULL) + 30;
        while (got < 10 && time(NULL) < end) {
                rd_kafka_message_t *m = rd_kafka_consumer_poll(c, 500);
                if (!m)
                        continue;
                if (!m->err && m->partition == 0)
                        offs[got++] = m->offset;
                rd_kafka_message_destroy(m);
        }
        printf("consumed %d inputs\n", got);
        if (got < 10) {
                printf("FAIL setup: consumed %d of 10 inputs\n", got);
                return 2;
        }

        /* 3. committed transaction with offsets */
        rd_kafka_t *tp = txn_producer(TXID, NULL);
        if ((e = rd_kafka_begin_transaction(tp)))
                die("begin", e);
        for (int i = 0; i < 5; i++) {
                snprintf(buf, sizeof(buf), "out-%d", i);
                produce(tp, OUT, buf);
        }
        send_offsets(tp, c, offs[4] + 1);
        if ((e = rd_kafka_commit_transaction(tp, 10000)))
                die("commit", e);
        int64_t co = group_committed(GROUP);
        snprintf(detail, sizeof(detail),
                 "group %s committed IN[0]=%lld, want %lld", GROUP,
                 (long long)co, (long long)(offs[4] + 1));
        check("A committed offsets stored by TxnOffsetCommit+EndTxn",
              co == offs[4] + 1, detail);

        /* 4. aborted transaction (flushed first: abort purges queued
         *    messages, which would make C pass for the wrong reason) */
        if ((e = rd_kafka_begin_transaction(tp)))
                die("begin2", e);
        for (int i = 5; i < 10; i++) {
                snprintf(buf, sizeof(buf), "ABORTED-%d", i);
                produce(tp, OUT, buf);
        }
        rd_kafka_flush(tp, 10000);
        send_offsets(tp, c, offs[9] + 1);
        if ((e = rd_kafka_abort_transaction(tp, 10000)))
                die("abort", e);
        co = group_committed(GROUP);
        snprintf(detail, sizeof(detail), "committed IN[0]=%lld, want %lld",
                 (long long)co, (long long)(offs[4] + 1));
        check("B aborted offsets not committed", co == offs[4] + 1, detail);
        int tot = 0;
        int nab = read_out("read_committed", 4, "ABORTED-", &tot);
        snprintf(detail, sizeof(detail), "%d aborted of %d seen", nab, tot);
        check("C read_committed hides aborted messages", nab == 0 && tot == 5,
              detail);
        read_out("read_uncommitted", 3, NULL, NULL);

        /* 5. open transaction */
        if ((e = rd_kafka_begin_transaction(tp)))
                die("begin3", e);
        produce(tp, OUT, "open-1");
        rd_kafka_flush(tp, 10000);
        int nopen = read_out("read_committed", 4, "open-", NULL);
        check("D read_committed hides open transaction (LSO)", nopen == 0,
              NULL);
        if ((e = rd_kafka_commit_transaction(tp, 10000)))
                die("commit3", e);
        nopen = read_out("read_committed", 4, "open-", NULL);
        check("E committed transaction becomes visible", nopen == 1, NULL);

        /* 6. fencing by a second instance with the same transactional.id */
        rd_kafka_t *tp2 = txn_producer(TXID, NULL);
        int fenced      = 0;
        e               = rd_kafka_begin_transaction(tp);
        if (!e) {
                produce(tp, OUT, "zombie");
                e = rd_kafka_commit_transaction(tp, 10000);
        }
        if (e) {
                snprintf(detail, sizeof(detail), "%s: %s fatal=%d",
                         rd_kafka_error_name(e), rd_kafka_error_string(e),
                         rd_kafka_error_is_fatal(e));
                fenced = rd_kafka_error_is_fatal(e);
                rd_kafka_error_destroy(e);
        } else
                snprintf(detail, sizeof(detail),
                         "zombie transaction committed");
        check("F second producer with same transactional.id fences the first",
              fenced, detail);
        if ((e = rd_kafka_begin_transaction(tp2)))
                die("tp2 begin", e);
        produce(tp2, OUT, "new-producer");
        if ((e = rd_kafka_commit_transaction(tp2, 10000)))
                die("tp2 commit", e);
        int nz = read_out("read_committed", 4, "zombie", NULL);
        check("G zombie message not visible to read_committed", nz == 0, NULL);

        rd_kafka_consumer_close(c);
        rd_kafka_destroy(c);
        rd_kafka_destroy(tp2);
        /* tp is in a fatal state; destroy without waiting */
        rd_kafka_destroy_flags(tp, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);

        check_kip447();
        check_timeout();
        check_multi_partition();

        printf("%d checks failed\n", failures);
        return failures ? 1 : 0;
}
