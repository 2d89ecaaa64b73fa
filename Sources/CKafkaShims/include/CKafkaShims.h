#ifndef C_KAFKA_SHIMS_H
#define C_KAFKA_SHIMS_H

#include <librdkafka/rdkafka.h>
#include <stddef.h>
#include <stdint.h>

/// Enqueues one message through rd_kafka_producev, which Swift cannot call (it is variadic).
/// `headers` may be NULL; on success librdkafka owns it, on failure the caller still does.
rd_kafka_resp_err_t qw_kafka_produce(rd_kafka_t *rk,
                                     const char *topic,
                                     int32_t partition,
                                     const void *key, size_t key_len,
                                     const void *value, size_t value_len,
                                     rd_kafka_headers_t *headers,
                                     void *opaque);

#endif
