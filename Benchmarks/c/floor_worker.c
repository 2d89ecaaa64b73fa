/*
 * The floor of `worker-benchmark cpu` (issue 14, item 1; issue 32: all three kinds): the leanest C program that
 * does the `count`, `ids` and `features` jobs of the worker (and of Benchmarks/python/peer_worker.py) with the
 * two system libraries the worker's design fixes, librdkafka and libcurl. What it costs per request is what
 * those libraries cost on this machine, plus a few microseconds of plain C: the lower bound of any worker built
 * on them.
 *
 *   floor_worker --bootstrap-servers HOST:PORT --group-id G --requests-topic R --results-topic S
 *                [--max-in-flight 64] [--worker-id c-floor] [--fetch-wait-max-ms 2] [--loop socket|perform]
 *
 * One thread (librdkafka has its own): request messages from a consumer group, for each its first target's
 * layer URL, `where`, `extent`, `result`, `maxFeatures` and `returnGeometry` (the contract, docs/contract/), and
 * the GETs of LAYER/query the worker's engine sends for the kind (ArcGISEngine's QueryParameters and
 * LayerQueryRunner), each with f, where, geometry, geometryType, inSR and spatialRel (encoded as aiohttp/yarl
 * encodes them, as the Python peer sends them):
 *   count     returnCountOnly=true;
 *   ids       returnIdsOnly=true and returnCountOnly=true, at once;
 *   features  returnCountOnly=true, then, when it matched any, one page of min(count, maxFeatures) features:
 *             outFields=*, returnGeometry, outSR=4326, orderByFields=OID ASC, resultOffset=0, resultRecordCount.
 * The requests go on a libcurl multi handle (keep-alive, at most --max-in-flight Kafka requests at once and as
 * many connections to the host; a slot is given back once the outcome is handed to the producer, as the
 * worker's InFlightGate does). A `succeeded` result (the contract's fields) is produced to the results topic
 * (zstd, linger 5 ms, idempotent, message.max.bytes 1 MiB + 16 KiB: the worker's producer settings): `count`,
 * `complete` (and `incompleteReason` when false); for ids also `objectIds`, ascending and distinct; for
 * features `objectIds` and a GeoJSON FeatureCollection transcoded from the server's Esri JSON in one pass over
 * the page, as the worker's GeoJSONPageTranscoder does (attributes copied as `properties`, coordinates as their
 * number text, Z and M dropped, a polygon's one ring counter-clockwise, an exterior and its holes turned
 * around). One JSON log line per state change (received,
 * started, succeeded once delivered) on buffered stdout, and each partition's offset stored up to the first
 * request whose outcome is not yet delivered (librdkafka's auto commit, every second: the worker's consumer
 * settings). A layer's metadata (id, name, objectIdField, maxRecordCount) is read once, blocking.
 *
 * The JSON is hand-scanned, not parsed with a library: the messages and the server's answers have a fixed
 * shape, a scanner over the bytes as they are is what a lean C program would do, and it adds no prerequisite.
 *
 * Not a product: one target per request (the first); default outFields only, one page of features; polygons
 * and points only (several exterior rings, lines or multipoints stop it); no validation, cancellation,
 * supersession, timeouts, retries, errors topic, redaction, credentials or host policy: another kind, a failed
 * query or delivery stops it with status 1. --loop socket (the default): curl_multi_socket_action on epoll,
 * which holds libcurl's sockets and an eventfd librdkafka writes when the consumer's or the producer's queue
 * gets events; --loop perform: curl_multi_perform + curl_multi_poll on the same eventfd (CurlHTTP's loop).
 * SIGTERM: stops taking requests, finishes the ones in flight (up to 5 s), flushes, commits, exits 0 (1 if
 * closing takes over 10 s). At exit it prints its loop turns per request to standard error.
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <librdkafka/rdkafka.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
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
    long max_record_count; /* the largest page the layer serves */
};

/* A growable byte buffer, kept NUL-terminated (the scanner's strtol and strtod stop at the NUL). */
struct buffer {
    char *p;
    size_t n, cap;
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

enum kind { KIND_COUNT, KIND_IDS, KIND_FEATURES };
enum role { ROLE_COUNT, ROLE_IDS, ROLE_PAGE };

/* One HTTP request of a query, on its own easy handle (set up once) and body buffer. */
struct transfer {
    CURL *easy;
    struct request *owner;
    enum role role;
    struct buffer body;
};

/* One of --max-in-flight slots: taken when a request is received, given back when its outcome is handed to the
 * producer (as the worker's InFlightGate does: holding it until the delivery report would cap the rate at
 * max-in-flight per linger + produce round trip). A query is one HTTP request (count) or two: transfers[0]
 * always asks the count, transfers[1] the ids (at the same time) or the page of features (once the count is
 * known: its size depends on it). */
struct request {
    int busy;
    enum kind kind;
    struct transfer transfers[2];
    int outstanding; /* transfers on the multi handle */
    struct pending *pending;
    struct span url;
    struct layer *layer;
    struct buffer query; /* LAYER/query?f=json&where=...: what every transfer of the query shares */
    long count, max_features; /* max_features: -1 for all */
    int geometry;             /* features: returnGeometry */
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

/* --- growable buffers: response bodies, the outcome being written ------------------------------------ */

static void reserve(struct buffer *b, size_t more) {
    if (b->n + more + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + more + 1) cap *= 2;
    char *grown = realloc(b->p, cap);
    if (!grown) die("out of memory", NULL);
    b->p = grown;
    b->cap = cap;
}

static void put(struct buffer *b, const char *p, size_t n) {
    reserve(b, n);
    memcpy(b->p + b->n, p, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void put_text(struct buffer *b, const char *text) { put(b, text, strlen(text)); }

static void put_span(struct buffer *b, struct span s) { put(b, s.p, s.n); }

/* Formatted into the room there is, and formatted again only when that was too little. */
static __attribute__((format(printf, 2, 3))) void put_format(struct buffer *b, const char *format, ...) {
    reserve(b, 256);
    va_list args;
    va_start(args, format);
    int n = vsnprintf(b->p + b->n, b->cap - b->n, format, args);
    va_end(args);
    if (n < 0) die("a format", format);
    if ((size_t)n >= b->cap - b->n) {
        reserve(b, (size_t)n);
        va_start(args, format);
        vsnprintf(b->p + b->n, b->cap - b->n, format, args);
        va_end(args);
    }
    b->n += (size_t)n;
}

/* An integer's digits without printf's machinery: ids come 20,000 to an outcome. */
static void put_integer(struct buffer *b, int64_t value) {
    char digits[24];
    int i = sizeof digits;
    uint64_t v = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    do digits[--i] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    if (value < 0) digits[--i] = '-';
    put(b, digits + i, sizeof digits - (size_t)i);
}

/* --- a JSON field scanner: enough for the contract's request and the server's answers ------------------ */

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

/* The end of the JSON value at p (just past it), or NULL when it is cut off. */
static const char *value_end(const char *p, const char *end) {
    if (p >= end) return NULL;
    if (*p == '"') {
        const char *close = string_end(p, end);
        return close ? close + 1 : NULL;
    }
    if (*p != '{' && *p != '[') { /* a number, true, false or null */
        while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') p++;
        return p;
    }
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '"') {
            p = string_end(p, end);
            if (!p) return NULL;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if ((*p == '}' || *p == ']') && --depth == 0) {
            return p + 1;
        }
    }
    return NULL;
}

/* An object or array value's whole text, from its opening bracket to the matching closing one. */
static int composite_member(const char *p, const char *end, const char *key, struct span *out) {
    const char *value = find_member(p, end, key);
    if (!value || value >= end || (*value != '{' && *value != '[')) return 0;
    const char *after = value_end(value, end);
    if (!after) return 0;
    *out = (struct span){value, (size_t)(after - value)};
    return 1;
}

/* The value of the member `key` of the object `object` itself (not of an object nested in it): for the
 * server's features, whose attributes may hold any name. */
static int own_member(struct span object, const char *key, struct span *out) {
    const char *p = object.p, *end = object.p + object.n;
    size_t key_len = strlen(key);
    if (p >= end || *p != '{') return 0;
    p = skip_space(p + 1, end);
    while (p < end && *p == '"') {
        const char *close = string_end(p, end);
        if (!close) return 0;
        const char *value = skip_space(close + 1, end);
        if (value >= end || *value != ':') return 0;
        value = skip_space(value + 1, end);
        const char *after = value_end(value, end);
        if (!after) return 0;
        if ((size_t)(close - p - 1) == key_len && memcmp(p + 1, key, key_len) == 0) {
            *out = (struct span){value, (size_t)(after - value)};
            return 1;
        }
        p = skip_space(after, end);
        if (p < end && *p == ',') p = skip_space(p + 1, end);
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

/* libcurl's write callback: the body appended to the transfer's buffer (opaque). */
static size_t on_body(char *data, size_t size, size_t count, void *opaque) {
    put(opaque, data, size * count);
    return size * count;
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
    struct buffer body = {0};
    CURL *easy = curl_easy_init();
    snprintf(url_buffer, sizeof url_buffer, "%s?f=json", url);
    curl_easy_setopt(easy, CURLOPT_URL, url_buffer);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &body);
    long status = 0;
    CURLcode code = curl_easy_perform(easy);
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(easy);
    if (code != CURLE_OK || status != 200 || !body.p) die("the layer's metadata", url);
    const char *end = body.p + body.n;
    struct layer *layer = &layers[layer_count++];
    layer->url = strdup(url);
    if (!integer_member(body.p, end, "id", &layer->id)) layer->id = 0;
    layer->name = copy_member(body.p, end, "name", "");
    layer->oid = copy_member(body.p, end, "objectIdField", "OBJECTID");
    if (!integer_member(body.p, end, "maxRecordCount", &layer->max_record_count)) layer->max_record_count = 1000;
    free(body.p);
    return layer;
}

/* --- outcomes: ids ascending and distinct; features transcoded from Esri JSON to GeoJSON ------------- */

static int64_t *ids; /* the outcome's object ids, as read */
static size_t id_count, id_capacity;

static void add_id(int64_t id) {
    if (id_count == id_capacity) {
        id_capacity = id_capacity ? id_capacity * 2 : 32768;
        ids = realloc(ids, id_capacity * sizeof *ids);
        if (!ids) die("out of memory", NULL);
    }
    ids[id_count++] = id;
}

/* A JSON integer at p (an object id: ArcGIS writes them as integers), and where it ends. */
static const char *read_integer(const char *p, const char *end, int64_t *out) {
    int negative = p < end && *p == '-';
    if (negative) p++;
    if (p >= end || *p < '0' || *p > '9') die("an object id that is not an integer", NULL);
    int64_t value = 0;
    while (p < end && *p >= '0' && *p <= '9') value = value * 10 + (*p++ - '0');
    *out = negative ? -value : value;
    return p;
}

/* The ids of a returnIdsOnly answer ("objectIds": an array, or null when nothing matched). */
static void read_ids(const struct buffer *body) {
    const char *end = body->p + body->n, *p = find_member(body->p, end, "objectIds");
    if (!p || p >= end || *p != '[') return;
    p = skip_space(p + 1, end);
    while (p < end && *p != ']') {
        int64_t id;
        p = skip_space(read_integer(p, end, &id), end);
        add_id(id);
        if (p < end && *p == ',') p = skip_space(p + 1, end);
    }
}

static int compare_ids(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Ascending and distinct, as the worker publishes them; the server mostly sends them sorted already. */
static void sort_unique_ids(void) {
    size_t i = 1;
    while (i < id_count && ids[i - 1] < ids[i]) i++;
    if (i >= id_count) return;
    qsort(ids, id_count, sizeof *ids, compare_ids);
    size_t kept = 1;
    for (i = 1; i < id_count; i++)
        if (ids[i] != ids[kept - 1]) ids[kept++] = ids[i];
    id_count = kept;
}

static void put_ids(struct buffer *b) {
    put_text(b, ",\"objectIds\":[");
    for (size_t i = 0; i < id_count; i++) {
        if (i) put(b, ",", 1);
        put_integer(b, ids[i]);
    }
    put(b, "]", 1);
}

/* The features of a page are transcoded in one pass over its bytes: each feature's members are walked once,
 * its geometry read into `positions` and `rings` as it goes (a polygon's winding decides the order its vertices
 * are written in, so they are written once the ring is read), its attributes kept as a span and copied. */

/* Stops at anything a page of the floor's queries does not hold: the floor is not the engine's fallbacks. */
static const char *expect(const char *p, const char *end, char c) {
    p = skip_space(p, end);
    if (p >= end || *p != c) die("an answer the floor does not read", c == '[' ? "an array expected" : NULL);
    return skip_space(p + 1, end);
}

/* A member's key (p at its opening quote) and where its value starts. */
static const char *read_key(const char *p, const char *end, struct span *key) {
    const char *close = string_end(p, end);
    if (!close) die("a JSON string cut off", NULL);
    *key = (struct span){p + 1, (size_t)(close - p - 1)};
    return expect(close + 1, end, ':');
}

static int is_key(struct span key, const char *name) { return key.n == strlen(name) && memcmp(key.p, name, key.n) == 0; }

/* After an element or member: past its ',' (and white space), or at the closing bracket. */
static const char *after_item(const char *p, const char *end) {
    p = skip_space(p, end);
    return p < end && *p == ',' ? skip_space(p + 1, end) : p;
}

static const char *number_end(const char *p, const char *end) {
    while (p < end && ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == '.' || *p == 'e' || *p == 'E')) p++;
    return p;
}

/* One vertex: its coordinates' number text (copied as it is) and values (for the ring's winding). */
struct position {
    struct span x, y;
    double xv, yv;
};
struct ring {
    size_t start, count;
    double area; /* signed: > 0 counter-clockwise */
};
static struct position *positions;
static size_t position_count, position_capacity;
static struct ring *rings;
static size_t ring_count, ring_capacity;
static struct position point; /* a point geometry's */

/* A coordinate's value, enough for a winding: plain decimals by hand (strtod costs more than the rest of the
 * transcoding), anything with an exponent through strtod. */
static double coordinate(struct span s) {
    const char *p = s.p, *end = s.p + s.n;
    int negative = p < end && *p == '-';
    if (negative) p++;
    double value = 0, scale = 1;
    for (; p < end && *p >= '0' && *p <= '9'; p++) value = value * 10 + (*p - '0');
    if (p < end && *p == '.')
        for (p++; p < end && *p >= '0' && *p <= '9'; p++) value += (*p - '0') * (scale *= 0.1);
    if (p < end) return strtod(s.p, NULL); /* an exponent */
    return negative ? -value : value;
}

/* [x, y, ...] at p: x and y kept (Z and M dropped, as the worker drops them); returns what follows it. */
static const char *read_vertex(const char *p, const char *end) {
    struct position v;
    p = expect(p, end, '[');
    v.x = (struct span){p, (size_t)(number_end(p, end) - p)};
    p = expect(v.x.p + v.x.n, end, ',');
    v.y = (struct span){p, (size_t)(number_end(p, end) - p)};
    if (!v.x.n || !v.y.n) die("a vertex without numbers", NULL);
    for (p = skip_space(v.y.p + v.y.n, end); p < end && *p == ','; p = skip_space(p, end))
        p = number_end(skip_space(p + 1, end), end); /* Z, M */
    v.xv = coordinate(v.x);
    v.yv = coordinate(v.y);
    if (position_count == position_capacity) {
        position_capacity = position_capacity ? position_capacity * 2 : 1024;
        positions = realloc(positions, position_capacity * sizeof *positions);
        if (!positions) die("out of memory", NULL);
    }
    positions[position_count++] = v;
    return expect(p, end, ']');
}

/* The shoelace sum around the first vertex (as the worker's RingWinding computes it). */
static double signed_area(size_t start, size_t count) {
    double sum = 0, px = 0, py = 0;
    for (size_t i = start + 1; i < start + count; i++) {
        double x = positions[i].xv - positions[start].xv, y = positions[i].yv - positions[start].yv;
        sum += px * y - x * py;
        px = x;
        py = y;
    }
    return sum / 2;
}

/* `rings`' value at p: every ring's vertices into `positions`, each ring closed (its last vertex its first, as
 * the worker asks); returns what follows it. */
static const char *read_rings(const char *p, const char *end) {
    p = expect(p, end, '[');
    while (p < end && *p == '[') {
        size_t start = position_count;
        p = skip_space(p + 1, end);
        while (p < end && *p == '[') p = after_item(read_vertex(p, end), end);
        p = expect(p, end, ']');
        size_t count = position_count - start;
        if (count < 4 || positions[start].xv != positions[start + count - 1].xv ||
            positions[start].yv != positions[start + count - 1].yv)
            die("a ring not closed or too short", NULL);
        if (ring_count == ring_capacity) {
            ring_capacity = ring_capacity ? ring_capacity * 2 : 16;
            rings = realloc(rings, ring_capacity * sizeof *rings);
            if (!rings) die("out of memory", NULL);
        }
        rings[ring_count++] = (struct ring){start, count, signed_area(start, count)};
        p = after_item(p, end);
    }
    if (ring_count == 0) die("a polygon without rings", NULL);
    return expect(p, end, ']');
}

enum shape { SHAPE_NONE, SHAPE_POLYGON, SHAPE_POINT };

/* A feature's `geometry` value at p: a polygon's rings, a point's x and y (into `point`), or null. */
static const char *read_geometry(const char *p, const char *end, enum shape *shape) {
    *shape = SHAPE_NONE;
    position_count = ring_count = 0;
    point = (struct position){0};
    if (*p != '{') return value_end(p, end); /* null */
    p = skip_space(p + 1, end);
    while (p < end && *p == '"') {
        struct span key;
        p = read_key(p, end, &key);
        const char *after = NULL;
        if (is_key(key, "rings")) {
            after = read_rings(p, end);
            *shape = SHAPE_POLYGON;
        } else if (is_key(key, "x") || is_key(key, "y")) {
            after = value_end(p, end);
            if (!after) die("a JSON value cut off", NULL);
            *(key.p[0] == 'x' ? &point.x : &point.y) = (struct span){p, (size_t)(after - p)};
        } else if (is_key(key, "paths") || is_key(key, "points") || is_key(key, "curveRings")) {
            die("a geometry the floor does not transcode (polygons and points only)", NULL);
        } else if (!(after = value_end(p, end))) {
            die("a JSON value cut off", NULL);
        }
        p = after_item(after, end);
    }
    /* x null or "NaN" is an empty point: no geometry, as the worker writes it. */
    if (*shape == SHAPE_NONE && point.x.n && point.y.n && *point.x.p != 'n' && *point.x.p != '"') *shape = SHAPE_POINT;
    return expect(p, end, '}');
}

static void put_ring(struct buffer *b, const struct ring *ring, int reversed) {
    put(b, "[", 1);
    for (size_t k = 0; k < ring->count; k++) {
        const struct position *v = &positions[ring->start + (reversed ? ring->count - 1 - k : k)];
        put(b, k ? ",[" : "[", k ? 2 : 1);
        put_span(b, v->x);
        put(b, ",", 1);
        put_span(b, v->y);
        put(b, "]", 1);
    }
    put(b, "]", 1);
}

/* Esri rings as a GeoJSON Polygon with RFC 7946's winding, as the worker writes it: one ring is the exterior
 * whatever its winding (made counter-clockwise); several are one clockwise exterior (Esri's) and its holes,
 * every ring turned around, the exterior first. Several exteriors (a MultiPolygon) are not the floor's. */
static void put_polygon(struct buffer *b) {
    put_text(b, "{\"type\":\"Polygon\",\"coordinates\":[");
    if (ring_count == 1) {
        put_ring(b, &rings[0], rings[0].area < 0);
    } else {
        size_t exterior = ring_count;
        for (size_t i = 0; i < ring_count; i++) {
            if (rings[i].area >= 0) continue;
            if (exterior != ring_count) die("a polygon with several exterior rings", NULL);
            exterior = i;
        }
        if (exterior == ring_count) die("a polygon without an exterior ring", NULL);
        put_ring(b, &rings[exterior], 1);
        for (size_t i = 0; i < ring_count; i++) {
            if (i == exterior) continue;
            put(b, ",", 1);
            put_ring(b, &rings[i], 1);
        }
    }
    put_text(b, "]}");
}

static void put_shape(struct buffer *b, enum shape shape) {
    if (shape == SHAPE_POLYGON) {
        put_polygon(b);
    } else if (shape == SHAPE_POINT) {
        put_text(b, "{\"type\":\"Point\",\"coordinates\":[");
        put_span(b, point.x);
        put(b, ",", 1);
        put_span(b, point.y);
        put_text(b, "]}");
    } else {
        put_text(b, "null");
    }
}

/* One Esri feature at p as {"type":"Feature","id":OID,"geometry":...,"properties":ATTRIBUTES}, its object id
 * into `ids`; returns what follows it. The page was asked for in object-id order, and the worker publishes
 * features in that order, each once. */
static const char *put_feature(struct buffer *b, const char *p, const char *end, const char *oid) {
    struct span attributes = {0}, key, id_text;
    enum shape shape = SHAPE_NONE;
    p = expect(p, end, '{');
    while (p < end && *p == '"') {
        p = read_key(p, end, &key);
        const char *after;
        if (is_key(key, "geometry")) {
            after = read_geometry(p, end, &shape);
        } else if (!(after = value_end(p, end))) {
            die("a JSON value cut off", NULL);
        } else if (is_key(key, "attributes")) {
            attributes = (struct span){p, (size_t)(after - p)};
        }
        p = after_item(after, end);
    }
    int64_t id;
    if (!attributes.n || !own_member(attributes, oid, &id_text)) die("a feature without its object id", oid);
    read_integer(id_text.p, id_text.p + id_text.n, &id);
    if (id_count && id <= ids[id_count - 1]) die("a page not in ascending object-id order", NULL);
    add_id(id);
    put_text(b, id_count > 1 ? ",{\"type\":\"Feature\",\"id\":" : "{\"type\":\"Feature\",\"id\":");
    put_integer(b, id);
    put_text(b, ",\"geometry\":");
    put_shape(b, shape);
    put_text(b, ",\"properties\":");
    put_span(b, attributes);
    put(b, "}", 1);
    return expect(p, end, '}');
}

/* A page's features as GeoJSON Features, comma-separated, into `b`. */
static void put_features(struct buffer *b, const struct buffer *page, const char *oid) {
    const char *end = page->p + page->n, *p = find_member(page->p, end, "features");
    if (!p) die("a page without features", NULL);
    for (p = expect(p, end, '['); p < end && *p != ']'; p = after_item(p, end)) p = put_feature(b, p, end, oid);
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

/* The request's kind (the contract's `result`, `ids` when absent). */
static enum kind kind_of(struct span query) {
    struct span result;
    if (!string_member(query.p, query.p + query.n, "result", &result)) return KIND_IDS;
    if (result.n == 5 && memcmp(result.p, "count", 5) == 0) return KIND_COUNT;
    if (result.n == 3 && memcmp(result.p, "ids", 3) == 0) return KIND_IDS;
    if (result.n == 8 && memcmp(result.p, "features", 8) == 0) return KIND_FEATURES;
    die("the floor runs count, ids and features queries only", NULL);
    return KIND_COUNT;
}

/* r->query: LAYER/query?f=json&where=...&geometry=...&geometryType=esriGeometryEnvelope&inSR=W&spatialRel=...,
 * the fields every request of the query shares (the engine's QueryParameters.base). */
static void write_base_query(struct request *r, const char *layer_url, struct span query) {
    struct span where, extent;
    if (!string_member(query.p, query.p + query.n, "where", &where)) where = (struct span){"1=1", 3};
    int has_extent = composite_member(query.p, query.p + query.n, "extent", &extent);
    char *text = malloc(where.n + 1);
    if (!text) die("out of memory", NULL);
    size_t text_len = unescape(where, text);
    r->query.n = 0;
    put_text(&r->query, layer_url);
    put_text(&r->query, "/query?f=json&where=");
    reserve(&r->query, 3 * (text_len + (has_extent ? extent.n : 0)) + 256); /* an encoded byte is at most 3 */
    r->query.n = (size_t)(put_encoded(r->query.p + r->query.n, text, text_len, 0) - r->query.p);
    r->query.p[r->query.n] = 0;
    free(text);
    if (has_extent) {
        long wkid = 4326;
        integer_member(extent.p, extent.p + extent.n, "wkid", &wkid);
        r->query.n = (size_t)(stpcpy(r->query.p + r->query.n, "&geometry=") - r->query.p);
        r->query.n = (size_t)(put_encoded(r->query.p + r->query.n, extent.p, extent.n, 1) - r->query.p);
        r->query.p[r->query.n] = 0;
        put_format(&r->query, "&geometryType=esriGeometryEnvelope&inSR=%ld&spatialRel=esriSpatialRelIntersects", wkid);
    }
}

/* One GET of the query: the shared fields and `fields`, on the transfer's easy handle. */
static void send_transfer(CURLM *multi, struct request *r, struct transfer *t, enum role role, const char *fields) {
    size_t n = strlen(fields);
    if (r->query.n + n + 1 > sizeof url_buffer) die("a query too long", NULL);
    memcpy(url_buffer, r->query.p, r->query.n);
    memcpy(url_buffer + r->query.n, fields, n + 1);
    curl_easy_setopt(t->easy, CURLOPT_URL, url_buffer); /* libcurl copies it */
    t->role = role;
    t->body.n = 0;
    r->outstanding++;
    curl_multi_add_handle(multi, t->easy);
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
    struct span query, url_span, unused;
    if (!p || !string_member(p, end, "requestId", &record->request_id) || !string_member(p, end, "taskId", &record->task_id) ||
        !string_member(p, end, "url", &url_span) || !composite_member(p, end, "query", &query))
        die("a request without requestId, taskId, a target url or a query", NULL);
    r->kind = kind_of(query);
    if (composite_member(query.p, query.p + query.n, "outFields", &unused))
        die("the floor takes the default outFields only", NULL);
    if (!integer_member(query.p, query.p + query.n, "maxFeatures", &r->max_features)) r->max_features = -1;
    const char *geometry = find_member(query.p, query.p + query.n, "returnGeometry");
    r->geometry = geometry && *geometry == 't';
    r->busy = 1;
    r->url = url_span;
    r->count = 0;
    r->transfers[1].body.n = 0; /* a features query that matches nothing sends no page */
    in_flight++;
    next_offset[message->partition] = message->offset + 1;
    log_line("received", record, "\"targets\":\"1\",");
    log_line("started", record, "");

    char *layer_url = malloc(url_span.n + 1);
    if (!layer_url) die("out of memory", NULL);
    unescape(url_span, layer_url);
    r->layer = layer_for(layer_url);
    write_base_query(r, layer_url, query);
    free(layer_url);
    send_transfer(multi, r, &r->transfers[0], ROLE_COUNT, "&returnCountOnly=true");
    if (r->kind == KIND_IDS) send_transfer(multi, r, &r->transfers[1], ROLE_IDS, "&returnIdsOnly=true");
}

/* A features query's one page, once its count is known: min(count, maxFeatures) features from offset 0 in
 * object-id order (the engine's page with maxFeatures set: no paging past the wanted features). */
static void send_page(CURLM *multi, struct request *r) {
    long wanted = r->max_features >= 0 && r->max_features < r->count ? r->max_features : r->count;
    if (wanted == 0) return;
    if (wanted > r->layer->max_record_count) die("more features than one page: the floor fetches one", NULL);
    char oid[3 * 256 + 1], fields[1024];
    size_t oid_len = strlen(r->layer->oid);
    if (oid_len > 256) die("an object-id field name too long", NULL);
    *put_encoded(oid, r->layer->oid, oid_len, 0) = 0;
    snprintf(fields, sizeof fields,
             "&outFields=*&returnGeometry=%s&outSR=4326&orderByFields=%s+ASC&resultOffset=0&resultRecordCount=%ld",
             r->geometry ? "true" : "false", oid, wanted);
    send_transfer(multi, r, &r->transfers[1], ROLE_PAGE, fields);
}

static struct buffer outcome, geojson; /* reused for every outcome */

/* The outcome's layer members after `count`: `complete`, and the ids and features of the kind. */
static void put_selection(struct request *r) {
    id_count = 0;
    if (r->kind == KIND_COUNT) {
        put_text(&outcome, ",\"complete\":true");
        return;
    }
    geojson.n = 0;
    if (r->kind == KIND_IDS) {
        read_ids(&r->transfers[1].body);
        sort_unique_ids();
    } else if (r->transfers[1].body.n) { /* features: no page when nothing matched */
        put_features(&geojson, &r->transfers[1].body, r->layer->oid);
    }
    /* Why it is incomplete, as the worker says it (Completeness.reason): cut at maxFeatures, or rows lost. */
    if ((long)id_count >= r->count) put_text(&outcome, ",\"complete\":true");
    else if (r->kind == KIND_FEATURES && r->max_features >= 0 && r->max_features < r->count)
        put_text(&outcome, ",\"complete\":false,\"incompleteReason\":\"max_features\"");
    else put_text(&outcome, ",\"complete\":false,\"incompleteReason\":\"rows_lost\"");
    put_ids(&outcome);
    if (r->kind == KIND_FEATURES) {
        put_text(&outcome, ",\"features\":{\"type\":\"FeatureCollection\",\"features\":[");
        put(&outcome, geojson.p ? geojson.p : "", geojson.n);
        put_text(&outcome, "]}");
    }
}

/* The `succeeded` result, handed to the producer (which copies it); the slot is free again. */
static void produce_outcome(struct request *r) {
    struct pending *record = r->pending;
    int64_t finished_ms = now_ms();
    char received_at[32], finished_at[32];
    outcome.n = 0;
    put_format(&outcome,
               "{\"requestId\":\"%.*s\",\"taskId\":\"%.*s\",\"status\":\"succeeded\",\"part\":1,\"parts\":1,"
               "\"receivedAt\":\"%s\",\"finishedAt\":\"%s\",\"durationMs\":%lld,\"worker\":\"%s\",\"layers\":[{"
               "\"url\":\"%.*s\",\"layerId\":%ld,\"name\":\"%s\",\"status\":\"succeeded\",\"objectIdField\":\"%s\","
               "\"count\":%ld",
               (int)record->request_id.n, record->request_id.p, (int)record->task_id.n, record->task_id.p,
               stamp(record->received_ms, received_at), stamp(finished_ms, finished_at),
               (long long)(finished_ms - record->received_ms), worker_id, (int)r->url.n, r->url.p, r->layer->id,
               r->layer->name, r->layer->oid, r->count);
    put_selection(r);
    put_text(&outcome, "}]}");
    record->count = r->count;
    while (rd_kafka_produce(results_topic, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, outcome.p, outcome.n,
                            record->task_id.p, record->task_id.n, record) != 0) {
        if (rd_kafka_last_error() != RD_KAFKA_RESP_ERR__QUEUE_FULL) die("produce", rd_kafka_err2str(rd_kafka_last_error()));
        rd_kafka_poll(producer, 10);
    }
    r->pending = NULL;
    r->busy = 0;
    in_flight--;
}

/* A transfer is done: its answer checked (and a count read), a features query's page sent once its count is
 * known, and the outcome produced when the query's last transfer is in. */
static void finished(CURLM *multi, CURLMsg *done) {
    struct transfer *t = NULL;
    CURLcode result = done->data.result; /* `done` does not survive the handle's removal */
    curl_easy_getinfo(done->easy_handle, CURLINFO_PRIVATE, (char **)&t);
    curl_multi_remove_handle(multi, t->easy);
    struct request *r = t->owner;
    long status = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    const char *body = t->body.p, *end = body ? body + t->body.n : NULL;
    /* An error's member comes first in ArcGIS's answers: a look at the head, not a scan of a whole page. */
    if (result != CURLE_OK || status != 200 || !body || find_member(body, body + (t->body.n < 64 ? t->body.n : 64), "error") ||
        (t->role == ROLE_COUNT && !integer_member(body, end, "count", &r->count))) {
        fprintf(stderr, "floor_worker: %s, HTTP %ld: %.*s\n", curl_easy_strerror(result), status,
                (int)(t->body.n > 500 ? 500 : t->body.n), body ? body : "");
        die("a query failed", NULL);
    }
    if (t->role == ROLE_COUNT && r->kind == KIND_FEATURES) send_page(multi, r);
    if (--r->outstanding == 0) produce_outcome(r);
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
    /* maxResultBytes (1 MiB) + messageOverhead (16 KiB): an ids or features outcome is larger than a count's. */
    set(conf, "message.max.bytes", "1064960");
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
    for (int i = 0; i < max_in_flight; i++) {
        for (int k = 0; k < 2; k++) { /* options set once: only the URL changes per request */
            struct transfer *t = &requests[i].transfers[k];
            CURL *e = t->easy = curl_easy_init();
            t->owner = &requests[i];
            curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
            curl_easy_setopt(e, CURLOPT_PRIVATE, t);
            curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
            curl_easy_setopt(e, CURLOPT_WRITEDATA, &t->body);
            curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
            curl_easy_setopt(e, CURLOPT_USERAGENT, "floor-worker");
            curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
        }
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
        for (int k = 0; k < 2; k++) {
            curl_easy_cleanup(requests[i].transfers[k].easy);
            free(requests[i].transfers[k].body.p);
        }
        free(requests[i].query.p);
    }
    free(outcome.p);
    free(geojson.p);
    free(ids);
    free(positions);
    free(rings);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    fprintf(stderr, "floor_worker: %lld requests in %lld loop turns (%.2f turns per request)\n", taken, turns,
            taken ? (double)turns / (double)taken : 0.0);
    close(wake);
    if (epoll_fd >= 0) close(epoll_fd);
    fflush(stdout);
    return 0;
}
