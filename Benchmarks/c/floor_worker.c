/*
 * The floor of `worker-benchmark cpu` (issue 14, item 1): the leanest C program that does the `count` job of
 * Benchmarks/python/peer_worker.py with the two system libraries the worker's design fixes, librdkafka and
 * libcurl. What it costs per request is what those libraries cost on this machine, plus a few microseconds of
 * plain C: the lower bound of any worker built on them.
 *
 *   floor_worker --bootstrap-servers HOST:PORT --group-id G --requests-topic R --results-topic S
 *                [--max-in-flight 64] [--worker-id c-floor] [--fetch-wait-max-ms 2] [--loop socket|perform]
 *
 * One thread (librdkafka has its own): request messages from a consumer group, for each its first target's
 * layer URL, `where` and `extent` (the contract, docs/contract/), one GET of LAYER/query with the peer's query
 * parameters (f, where, geometry, geometryType, inSR, spatialRel, returnCountOnly; encoded as aiohttp/yarl
 * encodes them) on a libcurl multi handle (keep-alive, at most --max-in-flight at once, as many connections to
 * the host; a slot is given back once the outcome is handed to the producer, as the worker's InFlightGate
 * does), `count` read from the response, a `succeeded` result (the contract's fields) produced to the
 * results topic (zstd, linger 5 ms, idempotent: the worker's producer settings), one JSON log line per state
 * change (received, started, succeeded once delivered) on buffered stdout, and each partition's offset stored
 * up to the first request whose outcome is not yet delivered (librdkafka's auto commit, every second: the
 * worker's consumer settings). A layer's metadata (id, name, objectIdField) is read once, blocking.
 *
 * Not a product: `count` only (another kind, a failed query or delivery stops it with status 1); one target per
 * request (the first); no validation, cancellation, supersession, timeouts, retries, errors topic, redaction,
 * credentials or host policy. --loop socket (the default): curl_multi_socket_action on epoll, which holds
 * libcurl's sockets and an eventfd librdkafka writes when the consumer's or the producer's queue gets events;
 * --loop perform: curl_multi_perform + curl_multi_poll on the same eventfd (CurlHTTP's loop). SIGTERM: stops
 * taking requests, finishes the ones in flight (up to 5 s), flushes, commits, exits 0 (1 if closing takes over
 * 10 s). At exit it prints its loop turns per request to standard error.
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <librdkafka/rdkafka.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_PARTITIONS 1024
#define MAX_LAYERS 16

/* A piece of the message's JSON text, as written (escapes kept). */
struct span {
    const char *p;
    size_t n;
};

struct layer {
    char *url; /* unescaped */
    long id;
    char *name; /* JSON string contents, escaped as the server wrote them */
    char *oid;
};

/* A request from its message to its outcome's delivery report: what the log lines, the outcome and the stored
 * offsets need. Recycled through a free list (no allocation per request once enough exist). */
struct pending {
    int used;
    rd_kafka_message_t *message; /* kept until the outcome is delivered: the spans point into it */
    struct span request_id, task_id;
    int64_t received_ms;
    long count;
    struct pending *next_free;
};

/* One of --max-in-flight HTTP slots: taken when a request is received, given back when its outcome is handed
 * to the producer (as the worker's InFlightGate does: holding it until the delivery report would cap the rate
 * at max-in-flight per linger + produce round trip). */
struct request {
    int busy;
    CURL *easy;
    struct pending *pending;
    struct span url;
    struct layer *layer;
    char *body;
    size_t body_len, body_cap;
};

static volatile sig_atomic_t stopping;
static const char *worker_id = "c-floor";
static struct request *requests;
static int max_in_flight = 64, in_flight;
static struct pending **all_pending, *free_pending; /* every record made, and the free ones */
static size_t pending_count, pending_capacity, undelivered;
static struct layer layers[MAX_LAYERS];
static int layer_count;
static rd_kafka_t *consumer, *producer;
static rd_kafka_topic_t *results_topic;
static const char *requests_topic_name;
static int64_t next_offset[MAX_PARTITIONS]; /* per partition: the offset after the last one taken; -1 before */
static int64_t stored_offset[MAX_PARTITIONS];
static int offsets_dirty;
static long long turns, taken; /* loop turns and requests taken, printed at exit: wake-ups per request */
static char url_buffer[16384];
static int epoll_fd = -1;
static int64_t timer_deadline = -1; /* libcurl's timer (socket loop), CLOCK_MONOTONIC ms; -1: none */

static void die(const char *what, const char *detail) {
    fflush(stdout);
    fprintf(stderr, "floor_worker: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ISO 8601 UTC with milliseconds; the date and time part is formatted once a second. */
static const char *stamp(int64_t ms, char out[32]) {
    static int64_t cached_second = -1;
    static char prefix[24];
    int64_t second = ms / 1000;
    if (second != cached_second) {
        time_t t = (time_t)second;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(prefix, sizeof prefix, "%Y-%m-%dT%H:%M:%S", &tm);
        cached_second = second;
    }
    snprintf(out, 32, "%s.%03dZ", prefix, (int)(ms % 1000));
    return out;
}

/* --- a JSON field scanner: enough for the contract's request and the server's small answers ----------- */

static const char *skip_space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* The end of the string whose opening quote is at p (the closing quote), or NULL. */
static const char *string_end(const char *p, const char *end) {
    for (p++; p < end; p++) {
        if (*p == '\\') p++;
        else if (*p == '"') return p;
    }
    return NULL;
}

/* The value of the first member named `key` at any depth (a member: a string followed by a colon), or NULL. */
static const char *find_member(const char *p, const char *end, const char *key) {
    size_t key_len = strlen(key);
    while (p < end) {
        if (*p != '"') {
            p++;
            continue;
        }
        const char *close = string_end(p, end);
        if (!close) return NULL;
        const char *after = skip_space(close + 1, end);
        if (after < end && *after == ':' && (size_t)(close - p - 1) == key_len && memcmp(p + 1, key, key_len) == 0)
            return skip_space(after + 1, end);
        p = close + 1;
    }
    return NULL;
}

/* A string member's contents (escapes kept). */
static int string_member(const char *p, const char *end, const char *key, struct span *out) {
    const char *value = find_member(p, end, key);
    if (!value || value >= end || *value != '"') return 0;
    const char *close = string_end(value, end);
    if (!close) return 0;
    out->p = value + 1;
    out->n = (size_t)(close - value - 1);
    return 1;
}

/* An object or array value's whole text, from its opening bracket to the matching closing one. */
static int composite_member(const char *p, const char *end, const char *key, struct span *out) {
    const char *value = find_member(p, end, key);
    if (!value || value >= end || (*value != '{' && *value != '[')) return 0;
    int depth = 0;
    for (const char *q = value; q < end; q++) {
        if (*q == '"') {
            q = string_end(q, end);
            if (!q) return 0;
        } else if (*q == '{' || *q == '[') {
            depth++;
        } else if ((*q == '}' || *q == ']') && --depth == 0) {
            out->p = value;
            out->n = (size_t)(q - value + 1);
            return 1;
        }
    }
    return 0;
}

static int integer_member(const char *p, const char *end, const char *key, long *out) {
    const char *value = find_member(p, end, key);
    if (!value || value >= end || (*value != '-' && (*value < '0' || *value > '9'))) return 0;
    *out = strtol(value, NULL, 10);
    return 1;
}

static void put_utf8(char **o, unsigned code) {
    char *w = *o;
    if (code < 0x80) *w++ = (char)code;
    else if (code < 0x800) {
        *w++ = (char)(0xC0 | code >> 6);
        *w++ = (char)(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        *w++ = (char)(0xE0 | code >> 12);
        *w++ = (char)(0x80 | (code >> 6 & 0x3F));
        *w++ = (char)(0x80 | (code & 0x3F));
    } else {
        *w++ = (char)(0xF0 | code >> 18);
        *w++ = (char)(0x80 | (code >> 12 & 0x3F));
        *w++ = (char)(0x80 | (code >> 6 & 0x3F));
        *w++ = (char)(0x80 | (code & 0x3F));
    }
    *o = w;
}

static unsigned hex4(const char *p) {
    char digits[5] = {p[0], p[1], p[2], p[3], 0};
    return (unsigned)strtoul(digits, NULL, 16);
}

/* A JSON string's contents unescaped into out (at least s.n + 1 bytes: unescaping never grows the text). */
static size_t unescape(struct span s, char *out) {
    char *o = out;
    const char *p = s.p, *end = s.p + s.n;
    while (p < end) {
        if (*p != '\\' || p + 1 >= end) {
            *o++ = *p++;
            continue;
        }
        p++;
        switch (*p) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u':
            if (end - p >= 5) {
                unsigned code = hex4(p + 1);
                p += 4;
                if (code >= 0xD800 && code < 0xDC00 && end - p >= 7 && p[1] == '\\' && p[2] == 'u') {
                    code = 0x10000 + ((code - 0xD800) << 10) + (hex4(p + 3) - 0xDC00);
                    p += 6;
                }
                put_utf8(&o, code);
            }
            break;
        default: *o++ = *p; break; /* " \ / */
        }
        p++;
    }
    *o = 0;
    return (size_t)(o - out);
}

/* --- the query string, encoded as aiohttp's yarl encodes query parameters ---------------------------- */

static char *put_encoded(char *o, const char *p, size_t n, int compact_json) {
    static const char hex[] = "0123456789ABCDEF";
    int in_string = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (compact_json) { /* json.dumps(separators=(",", ":")): no white space outside strings */
            if (c == '"' && (i == 0 || p[i - 1] != '\\')) in_string = !in_string;
            else if (!in_string && (c == ' ' || c == '\n' || c == '\t' || c == '\r')) continue;
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~!$'()*,/:?@", c))
            *o++ = (char)c;
        else if (c == ' ')
            *o++ = '+';
        else {
            *o++ = '%';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 15];
        }
    }
    return o;
}

/* --- layers: metadata read once per layer URL, blocking ----------------------------------------------- */

static size_t on_body(char *data, size_t size, size_t count, void *opaque) {
    struct request *r = opaque;
    size_t n = size * count;
    if (r->body_len + n + 1 > r->body_cap) {
        size_t cap = r->body_cap ? r->body_cap : 1024;
        while (cap < r->body_len + n + 1) cap *= 2;
        char *grown = realloc(r->body, cap);
        if (!grown) return 0;
        r->body = grown;
        r->body_cap = cap;
    }
    memcpy(r->body + r->body_len, data, n);
    r->body_len += n;
    r->body[r->body_len] = 0;
    return n;
}

static char *copy_member(const char *body, const char *end, const char *key, const char *fallback) {
    struct span s;
    if (!string_member(body, end, key, &s)) return strdup(fallback);
    return strndup(s.p, s.n);
}

static struct layer *layer_for(const char *url) {
    for (int i = 0; i < layer_count; i++)
        if (strcmp(layers[i].url, url) == 0) return &layers[i];
    if (layer_count == MAX_LAYERS) die("too many layers", NULL);
    struct request scratch = {0};
    CURL *easy = curl_easy_init();
    snprintf(url_buffer, sizeof url_buffer, "%s?f=json", url);
    curl_easy_setopt(easy, CURLOPT_URL, url_buffer);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &scratch);
    long status = 0;
    CURLcode code = curl_easy_perform(easy);
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(easy);
    if (code != CURLE_OK || status != 200 || !scratch.body) die("the layer's metadata", url);
    const char *end = scratch.body + scratch.body_len;
    struct layer *layer = &layers[layer_count++];
    layer->url = strdup(url);
    if (!integer_member(scratch.body, end, "id", &layer->id)) layer->id = 0;
    layer->name = copy_member(scratch.body, end, "name", "");
    layer->oid = copy_member(scratch.body, end, "objectIdField", "OBJECTID");
    free(scratch.body);
    return layer;
}

/* --- one request: received -> started (GET on the multi handle) -> produced -> delivered ----------- */

/* A state change's line, members in key order as the worker writes them; `extra` goes between requestId and taskId. */
static void log_line(const char *message, const struct pending *r, const char *extra) {
    char ts[32];
    printf("{\"ts\":\"%s\",\"level\":\"info\",\"label\":\"floor-worker\",\"message\":\"%s\",\"offset\":\"%lld\","
           "\"partition\":\"%d\",\"requestId\":\"%.*s\",%s\"taskId\":\"%.*s\"}\n",
           stamp(now_ms(), ts), message, (long long)r->message->offset, (int)r->message->partition,
           (int)r->request_id.n, r->request_id.p, extra, (int)r->task_id.n, r->task_id.p);
}

static struct pending *take_pending(void) {
    struct pending *record = free_pending;
    if (record) {
        free_pending = record->next_free;
    } else {
        if (pending_count == pending_capacity) {
            pending_capacity = pending_capacity ? pending_capacity * 2 : 256;
            all_pending = realloc(all_pending, pending_capacity * sizeof *all_pending);
            if (!all_pending) die("out of memory", NULL);
        }
        record = calloc(1, sizeof *record);
        if (!record) die("out of memory", NULL);
        all_pending[pending_count++] = record;
    }
    record->used = 1;
    undelivered++;
    return record;
}

static void start(CURLM *multi, rd_kafka_message_t *message) {
    struct request *r = NULL;
    for (int i = 0; i < max_in_flight && !r; i++)
        if (!requests[i].busy) r = &requests[i];
    if (!r) die("no free request slot", NULL);
    struct pending *record = r->pending = take_pending();
    record->received_ms = now_ms();
    record->message = message;
    const char *p = message->payload, *end = p + message->len;
    struct span query, where, extent, result, url_span;
    if (!p || !string_member(p, end, "requestId", &record->request_id) || !string_member(p, end, "taskId", &record->task_id) ||
        !string_member(p, end, "url", &url_span) || !composite_member(p, end, "query", &query))
        die("a request without requestId, taskId, a target url or a query", NULL);
    if (!string_member(query.p, query.p + query.n, "result", &result) || result.n != 5 || memcmp(result.p, "count", 5) != 0)
        die("the floor runs count queries only", NULL);
    if (!string_member(query.p, query.p + query.n, "where", &where)) where = (struct span){"1=1", 3};
    int has_extent = composite_member(query.p, query.p + query.n, "extent", &extent);
    r->busy = 1;
    r->url = url_span;
    r->body_len = 0;
    in_flight++;
    next_offset[message->partition] = message->offset + 1;
    log_line("received", record, "\"targets\":\"1\",");
    log_line("started", record, "");

    /* LAYER/query?f=json&where=...&geometry=...&geometryType=esriGeometryEnvelope&inSR=W&spatialRel=...&returnCountOnly=true */
    char scratch[8192];
    if (url_span.n + 1 > sizeof scratch || where.n + 1 > sizeof scratch) die("a url or where clause too long", NULL);
    unescape(url_span, scratch);
    r->layer = layer_for(scratch);
    size_t base = strlen(scratch);
    if (base + 3 * (where.n + (has_extent ? extent.n : 0)) + 256 > sizeof url_buffer) die("a query too long", NULL);
    char *o = url_buffer;
    memcpy(o, scratch, base);
    o += base;
    o = stpcpy(o, "/query?f=json&where=");
    size_t where_len = unescape(where, scratch);
    o = put_encoded(o, scratch, where_len, 0);
    if (has_extent) {
        long wkid = 4326;
        integer_member(extent.p, extent.p + extent.n, "wkid", &wkid);
        o = stpcpy(o, "&geometry=");
        o = put_encoded(o, extent.p, extent.n, 1);
        o += sprintf(o, "&geometryType=esriGeometryEnvelope&inSR=%ld&spatialRel=esriSpatialRelIntersects", wkid);
    }
    stpcpy(o, "&returnCountOnly=true");
    curl_easy_setopt(r->easy, CURLOPT_URL, url_buffer);
    curl_multi_add_handle(multi, r->easy);
}

static void finished(CURLM *multi, CURLMsg *done) {
    struct request *r = NULL;
    CURLcode result = done->data.result; /* `done` does not survive the handle's removal */
    curl_easy_getinfo(done->easy_handle, CURLINFO_PRIVATE, (char **)&r);
    curl_multi_remove_handle(multi, r->easy);
    long status = 0, count = 0;
    curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &status);
    const char *end = r->body ? r->body + r->body_len : NULL;
    if (result != CURLE_OK || status != 200 || !r->body || find_member(r->body, end, "error") ||
        !integer_member(r->body, end, "count", &count)) {
        fprintf(stderr, "floor_worker: %s, HTTP %ld: %.*s\n", curl_easy_strerror(result), status,
                (int)(r->body_len > 500 ? 500 : r->body_len), r->body ? r->body : "");
        die("a query failed", NULL);
    }
    struct pending *record = r->pending;
    int64_t finished_ms = now_ms();
    char received_at[32], finished_at[32], value[4096];
    int n = snprintf(value, sizeof value,
                     "{\"requestId\":\"%.*s\",\"taskId\":\"%.*s\",\"status\":\"succeeded\",\"part\":1,\"parts\":1,"
                     "\"receivedAt\":\"%s\",\"finishedAt\":\"%s\",\"durationMs\":%lld,\"worker\":\"%s\",\"layers\":[{"
                     "\"url\":\"%.*s\",\"layerId\":%ld,\"name\":\"%s\",\"status\":\"succeeded\",\"objectIdField\":\"%s\","
                     "\"count\":%ld,\"complete\":true}]}",
                     (int)record->request_id.n, record->request_id.p, (int)record->task_id.n, record->task_id.p,
                     stamp(record->received_ms, received_at), stamp(finished_ms, finished_at),
                     (long long)(finished_ms - record->received_ms), worker_id, (int)r->url.n, r->url.p, r->layer->id,
                     r->layer->name, r->layer->oid, count);
    if (n < 0 || (size_t)n >= sizeof value) die("a result too long", NULL);
    record->count = count;
    while (rd_kafka_produce(results_topic, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, value, (size_t)n,
                            record->task_id.p, record->task_id.n, record) != 0) {
        if (rd_kafka_last_error() != RD_KAFKA_RESP_ERR__QUEUE_FULL) die("produce", rd_kafka_err2str(rd_kafka_last_error()));
        rd_kafka_poll(producer, 10);
    }
    r->pending = NULL;
    r->busy = 0;
    in_flight--;
}

static void delivered(rd_kafka_t *rk, const rd_kafka_message_t *outcome, void *opaque) {
    (void)rk;
    (void)opaque;
    struct pending *r = outcome->_private;
    if (outcome->err) die("an outcome was not delivered", rd_kafka_err2str(outcome->err));
    char ts[32];
    printf("{\"ts\":\"%s\",\"level\":\"info\",\"label\":\"floor-worker\",\"message\":\"succeeded\",\"counts\":[\"%ld\"],"
           "\"durationMs\":\"%lld\",\"offset\":\"%lld\",\"partition\":\"%d\",\"requestId\":\"%.*s\",\"status\":\"succeeded\","
           "\"taskId\":\"%.*s\"}\n",
           stamp(now_ms(), ts), r->count, (long long)(now_ms() - r->received_ms), (long long)r->message->offset,
           (int)r->message->partition, (int)r->request_id.n, r->request_id.p, (int)r->task_id.n, r->task_id.p);
    rd_kafka_message_destroy(r->message);
    r->message = NULL;
    r->used = 0;
    r->next_free = free_pending;
    free_pending = r;
    undelivered--;
    offsets_dirty = 1;
}

/* Each partition's offset stored up to its first request whose outcome is not delivered yet (or all it took). */
static void store_offsets(void) {
    offsets_dirty = 0;
    int64_t first[MAX_PARTITIONS];
    for (int p = 0; p < MAX_PARTITIONS; p++) first[p] = next_offset[p];
    for (size_t i = 0; i < pending_count; i++) {
        const rd_kafka_message_t *m = all_pending[i]->message;
        if (all_pending[i]->used && m->offset < first[m->partition]) first[m->partition] = m->offset;
    }
    rd_kafka_topic_partition_list_t *list = NULL;
    for (int p = 0; p < MAX_PARTITIONS; p++) {
        if (first[p] < 0 || first[p] == stored_offset[p]) continue;
        if (!list) list = rd_kafka_topic_partition_list_new(4);
        rd_kafka_topic_partition_list_add(list, requests_topic_name, p)->offset = first[p];
        stored_offset[p] = first[p];
    }
    if (list) {
        rd_kafka_offsets_store(consumer, list); /* a partition no longer assigned is refused: its next owner reads it again */
        rd_kafka_topic_partition_list_destroy(list);
    }
}

/* --- the socket loop: libcurl tells which sockets to watch, one epoll set holds them and the eventfd ---- */

static int on_socket(CURL *easy, curl_socket_t fd, int what, void *user, void *socket_data) {
    (void)easy;
    (void)user;
    (void)socket_data;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, NULL);
        return 0;
    }
    struct epoll_event event = {0};
    event.data.fd = fd;
    event.events = (what & CURL_POLL_IN ? EPOLLIN : 0) | (what & CURL_POLL_OUT ? EPOLLOUT : 0);
    if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, fd, &event) != 0) epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
    return 0;
}

static int on_timer(CURLM *multi, long timeout_ms, void *user) {
    (void)multi;
    (void)user;
    timer_deadline = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;
    return 0;
}

/* Drives libcurl until nothing is due, then waits (at most 100 ms) for a socket, libcurl's timer or the eventfd. */
static void socket_turn(CURLM *multi, int wake) {
    int running = 0;
    if (timer_deadline >= 0 && monotonic_ms() >= timer_deadline) {
        timer_deadline = -1;
        curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    int64_t wait = 100;
    if (timer_deadline >= 0) {
        int64_t left = timer_deadline - monotonic_ms();
        wait = left < 0 ? 0 : left < wait ? left : wait;
    }
    struct epoll_event events[128];
    int ready = epoll_wait(epoll_fd, events, 128, (int)wait);
    for (int i = 0; i < ready; i++) {
        if (events[i].data.fd == wake) {
            uint64_t drained;
            if (read(wake, &drained, sizeof drained) < 0 && errno != EAGAIN) die("eventfd", strerror(errno));
            continue;
        }
        int mask = (events[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) | (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                   (events[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
        curl_multi_socket_action(multi, events[i].data.fd, mask, &running);
    }
    if (timer_deadline >= 0 && monotonic_ms() >= timer_deadline) {
        timer_deadline = -1;
        curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
}

/* --- set-up ------------------------------------------------------------------------------------------ */

static void set(rd_kafka_conf_t *conf, const char *name, const char *value) {
    char error[512];
    if (rd_kafka_conf_set(conf, name, value, error, sizeof error) != RD_KAFKA_CONF_OK) die(name, error);
}

static void on_term(int signal) {
    (void)signal;
    stopping = 1;
}

/* librdkafka's consumer close has no timeout of its own (with the cluster gone it waits forever). */
static void on_alarm(int signal) {
    (void)signal;
    static const char message[] = "floor_worker: closing took over 10 s; exiting without it\n";
    if (write(2, message, sizeof message - 1) < 0) _exit(1);
    _exit(1);
}

int main(int argc, char **argv) {
    const char *bootstrap = NULL, *group = NULL, *results_name = NULL, *fetch_wait = "2";
    int socket_loop = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--bootstrap-servers")) bootstrap = argv[i + 1];
        else if (!strcmp(argv[i], "--group-id")) group = argv[i + 1];
        else if (!strcmp(argv[i], "--requests-topic")) requests_topic_name = argv[i + 1];
        else if (!strcmp(argv[i], "--results-topic")) results_name = argv[i + 1];
        else if (!strcmp(argv[i], "--max-in-flight")) max_in_flight = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--worker-id")) worker_id = argv[i + 1];
        else if (!strcmp(argv[i], "--fetch-wait-max-ms")) fetch_wait = argv[i + 1];
        else if (!strcmp(argv[i], "--loop")) socket_loop = strcmp(argv[i + 1], "perform") != 0;
        else die("unknown option", argv[i]);
    }
    if (!bootstrap || !group || !requests_topic_name || !results_name || max_in_flight < 1) {
        fprintf(stderr, "usage: floor_worker --bootstrap-servers B --group-id G --requests-topic R --results-topic S "
                        "[--max-in-flight 64] [--worker-id ID] [--fetch-wait-max-ms 2] [--loop socket|perform]\n");
        return 2;
    }
    static char stdout_buffer[1 << 16];
    setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
    struct sigaction action = {0};
    action.sa_handler = on_term;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    /* A parent may start it with these blocked (the Swift driver's Process does): SIGTERM would stay pending. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    sigprocmask(SIG_UNBLOCK, &stop_signals, NULL);
    for (int p = 0; p < MAX_PARTITIONS; p++) next_offset[p] = stored_offset[p] = -1;

    /* The worker's consumer and producer settings (Sources/Kafka/Configuration, Sources/QueryWorker/Settings). */
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    set(conf, "bootstrap.servers", bootstrap);
    set(conf, "client.id", worker_id);
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
    set(conf, "queued.min.messages", "10000");
    set(conf, "queued.max.messages.kbytes", "4096");
    set(conf, "fetch.wait.max.ms", fetch_wait);
    char error[512];
    if (!(consumer = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error))) die("consumer", error);
    rd_kafka_poll_set_consumer(consumer);
    rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(topics, requests_topic_name, RD_KAFKA_PARTITION_UA);
    rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer, topics);
    rd_kafka_topic_partition_list_destroy(topics);
    if (err) die("subscribe", rd_kafka_err2str(err));

    conf = rd_kafka_conf_new();
    set(conf, "bootstrap.servers", bootstrap);
    set(conf, "client.id", worker_id);
    set(conf, "enable.idempotence", "true");
    set(conf, "compression.codec", "zstd");
    set(conf, "linger.ms", "5");
    set(conf, "queue.buffering.max.messages", "10000");
    set(conf, "queue.buffering.max.kbytes", "32768");
    set(conf, "message.timeout.ms", "120000");
    rd_kafka_conf_set_dr_msg_cb(conf, delivered);
    if (!(producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error))) die("producer", error);
    results_topic = rd_kafka_topic_new(producer, results_name, NULL);

    /* librdkafka writes to this eventfd when either queue gets something: the loop sleeps in curl_multi_poll. */
    int wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake < 0) die("eventfd", strerror(errno));
    static const uint64_t one = 1;
    rd_kafka_queue_t *consumer_queue = rd_kafka_queue_get_consumer(consumer);
    rd_kafka_queue_t *producer_queue = rd_kafka_queue_get_main(producer);
    rd_kafka_queue_io_event_enable(consumer_queue, wake, &one, sizeof one);
    rd_kafka_queue_io_event_enable(producer_queue, wake, &one, sizeof one);

    curl_global_init(CURL_GLOBAL_ALL);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)max_in_flight);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, (long)max_in_flight);
    if (socket_loop) {
        epoll_fd = epoll_create1(EPOLL_CLOEXEC);
        struct epoll_event event = {.events = EPOLLIN, .data.fd = wake};
        if (epoll_fd < 0 || epoll_ctl(epoll_fd, EPOLL_CTL_ADD, wake, &event) != 0) die("epoll", strerror(errno));
        curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
        curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
    }
    requests = calloc((size_t)max_in_flight, sizeof *requests);
    if (!requests) die("out of memory", NULL);
    for (int i = 0; i < max_in_flight; i++) { /* options set once: only the URL changes per request */
        CURL *e = requests[i].easy = curl_easy_init();
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(e, CURLOPT_PRIVATE, &requests[i]);
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, &requests[i]);
        curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
        curl_easy_setopt(e, CURLOPT_USERAGENT, "floor-worker");
        curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    }

    int64_t drain_until = 0;
    for (;;) {
        if (stopping && !drain_until) drain_until = now_ms() + 5000;
        if (drain_until && ((in_flight == 0 && undelivered == 0) || now_ms() > drain_until)) break;
        /* Delivery reports first: they free slots, which the consumer then fills in the same turn (librdkafka
         * writes the eventfd once per stretch between polls of a queue, so a turn must not leave them waiting). */
        rd_kafka_poll(producer, 0);
        if (offsets_dirty) store_offsets();
        while (!stopping && in_flight < max_in_flight) {
            rd_kafka_message_t *message = rd_kafka_consumer_poll(consumer, 0);
            if (!message) break;
            if (message->err) {
                fprintf(stderr, "floor_worker: consumer: %s\n", rd_kafka_message_errstr(message));
                rd_kafka_message_destroy(message);
                continue;
            }
            if (message->partition < 0 || message->partition >= MAX_PARTITIONS) die("a partition number too high", NULL);
            start(multi, message);
            taken++;
        }
        turns++;
        CURLMsg *done;
        int left;
        if (socket_loop) {
            socket_turn(multi, wake);
        } else {
            int running = 0;
            curl_multi_perform(multi, &running);
        }
        while ((done = curl_multi_info_read(multi, &left)))
            if (done->msg == CURLMSG_DONE) finished(multi, done);
        if (!socket_loop) {
            struct curl_waitfd extra = {.fd = wake, .events = CURL_WAIT_POLLIN, .revents = 0};
            curl_multi_poll(multi, &extra, 1, 100, NULL);
            uint64_t drained;
            if (extra.revents && read(wake, &drained, sizeof drained) < 0 && errno != EAGAIN) die("eventfd", strerror(errno));
        }
    }

    signal(SIGALRM, on_alarm);
    alarm(10);
    rd_kafka_flush(producer, 5000);
    if (offsets_dirty) store_offsets();
    fflush(stdout);
    rd_kafka_queue_destroy(consumer_queue);
    rd_kafka_queue_destroy(producer_queue);
    rd_kafka_consumer_close(consumer); /* commits the stored offsets */
    rd_kafka_destroy(consumer);
    rd_kafka_topic_destroy(results_topic);
    rd_kafka_destroy(producer);
    for (int i = 0; i < max_in_flight; i++) {
        curl_easy_cleanup(requests[i].easy);
        free(requests[i].body);
    }
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    fprintf(stderr, "floor_worker: %lld requests in %lld loop turns (%.2f turns per request)\n", taken, turns,
            taken ? (double)turns / (double)taken : 0.0);
    close(wake);
    if (epoll_fd >= 0) close(epoll_fd);
    fflush(stdout);
    return 0;
}
