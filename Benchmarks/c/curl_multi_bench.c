/*
 * libcurl alone: the same closed-loop GET load as http-benchmark's Swift clients, from one thread driving one
 * multi handle, with no Swift in the way. The reference for how much of CurlHTTP's cost is libcurl's own.
 *
 *   curl_multi_bench URL CONCURRENCY SECONDS WARMUP_SECONDS LOOP HANDLES EXPECTED_BODY_BYTES
 *
 * LOOP:    perform  curl_multi_perform + curl_multi_poll (the reference of issue 32's goal 3)
 *          socket   curl_multi_socket_action + epoll (CurlHTTP's loop, Sources/CurlHTTP/Curl/CurlMultiLoop.swift)
 * HANDLES: reset    curl_easy_reset and every option set again for each request
 *          reuse    the easy handle keeps its options from one request to the next (as CurlHTTP's pooled
 *                   handles do for repeated plain GETs)
 *
 * The options are CurlHTTP's (Sources/CurlHTTP/Curl/CurlTransfer.swift, configure) for a plain GET.
 * Prints one line: RESULT requests=N elapsed_s=S p50_ms=X p99_ms=Y cpu_s=C libcurl=VERSION
 * Exits 1 on any failed request, wrong status or body length.
 */
#include <curl/curl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

struct slot {
    CURL *easy;
    int64_t started;
    long bytes;
};

static const char *url;
static struct curl_slist *headers;
static char error_buffer[CURL_ERROR_SIZE];
static int epoll_fd = -1;
static long timer_ms = -1;

static int64_t now_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static size_t on_body(char *data, size_t size, size_t count, void *opaque) {
    (void)data;
    ((struct slot *)opaque)->bytes += (long)(size * count);
    return size * count;
}

static size_t on_header(char *data, size_t size, size_t count, void *opaque) {
    (void)data;
    (void)opaque;
    return size * count;
}

static void configure(struct slot *slot) {
    CURL *e = slot->easy;
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PRIVATE, slot);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, slot);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, slot);
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "query-worker");
    curl_easy_setopt(e, CURLOPT_DNS_CACHE_TIMEOUT, 60L);
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, 0L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 120000L);
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)512 * 1024 * 1024);
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
}

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
    timer_ms = timeout_ms;
    return 0;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double percentile_ms(const int64_t *sorted, size_t count, double p) {
    if (count == 0) return 0;
    size_t rank = (size_t)ceil(p * (double)count);
    if (rank < 1) rank = 1;
    if (rank > count) rank = count;
    return (double)sorted[rank - 1] / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s URL CONCURRENCY SECONDS WARMUP_SECONDS perform|socket reset|reuse EXPECTED_BODY_BYTES\n", argv[0]);
        return 2;
    }
    url = argv[1];
    int concurrency = atoi(argv[2]);
    double seconds = atof(argv[3]), warmup = atof(argv[4]);
    int socket_loop = strcmp(argv[5], "socket") == 0;
    int reset = strcmp(argv[6], "reset") == 0;
    long expected = atol(argv[7]);
    if (concurrency < 1 || seconds <= 0 || (!socket_loop && strcmp(argv[5], "perform") != 0) ||
        (!reset && strcmp(argv[6], "reuse") != 0)) {
        fprintf(stderr, "curl_multi_bench: bad arguments\n");
        return 2;
    }

    curl_global_init(CURL_GLOBAL_ALL);
    headers = curl_slist_append(NULL, "Expect:");
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)(concurrency > 256 ? concurrency : 256));
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)(concurrency > 64 ? concurrency : 64));
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, (long)(concurrency > 256 ? concurrency : 256));
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    if (socket_loop) {
        epoll_fd = epoll_create1(0);
        curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
        curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
    }

    size_t capacity = 1 << 20, count = 0;
    int64_t *latencies = malloc(capacity * sizeof *latencies);
    struct slot *slots = calloc((size_t)concurrency, sizeof *slots);
    int64_t start = now_ns(CLOCK_MONOTONIC);
    int64_t measure_from = start + (int64_t)(warmup * 1e9);
    int64_t end = measure_from + (int64_t)(seconds * 1e9);
    int64_t cpu_start = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    int measuring = warmup <= 0;
    if (measuring) start = measure_from;
    for (int i = 0; i < concurrency; i++) {
        slots[i].easy = curl_easy_init();
        configure(&slots[i]);
        slots[i].started = now_ns(CLOCK_MONOTONIC);
        curl_multi_add_handle(multi, slots[i].easy);
    }

    int running = 0, failed = 0, kick = 1;
    while (!failed) {
        if (socket_loop) {
            if (kick) curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
            kick = 0;
            struct epoll_event events[256];
            int ready = epoll_wait(epoll_fd, events, 256, timer_ms < 0 ? 1000 : (int)timer_ms);
            if (ready == 0) curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
            for (int i = 0; i < ready; i++) {
                int mask = (events[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                           (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                           (events[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
                curl_multi_socket_action(multi, events[i].data.fd, mask, &running);
            }
        } else {
            curl_multi_perform(multi, &running);
        }
        int64_t now = now_ns(CLOCK_MONOTONIC);
        if (!measuring && now >= measure_from) {
            measuring = 1;
            count = 0;
            start = now;
            end = now + (int64_t)(seconds * 1e9);
            cpu_start = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        }
        int stop = now >= end;
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            struct slot *slot = NULL;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
            long status = 0;
            curl_easy_getinfo(slot->easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK || status != 200 || slot->bytes != expected) {
                fprintf(stderr, "curl_multi_bench: %s, status %ld, %ld body bytes (expected 200, %ld) %s\n",
                        curl_easy_strerror(message->data.result), status, slot->bytes, expected, error_buffer);
                failed = 1;
                break;
            }
            if (count == capacity) {
                capacity *= 2;
                latencies = realloc(latencies, capacity * sizeof *latencies);
            }
            latencies[count++] = now - slot->started;
            curl_multi_remove_handle(multi, slot->easy);
            if (stop) continue;
            if (reset) {
                curl_easy_reset(slot->easy);
                configure(slot);
            }
            slot->bytes = 0;
            slot->started = now_ns(CLOCK_MONOTONIC);
            curl_multi_add_handle(multi, slot->easy);
            kick = 1;
        }
        if (stop) break;
        if (!socket_loop) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    if (failed) return 1;
    double elapsed = (double)(now_ns(CLOCK_MONOTONIC) - start) / 1e9;
    double cpu = (double)(now_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_start) / 1e9;
    qsort(latencies, count, sizeof *latencies, compare);
    printf("RESULT requests=%zu elapsed_s=%.6f p50_ms=%.6f p99_ms=%.6f cpu_s=%.6f libcurl=%s\n", count, elapsed,
           percentile_ms(latencies, count, 0.50), percentile_ms(latencies, count, 0.99), cpu,
           curl_version_info(CURLVERSION_NOW)->version);
    return 0;
}
