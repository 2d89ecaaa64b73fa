#ifndef C_KAFKA_SHIMS_H
#define C_KAFKA_SHIMS_H

#include <librdkafka/rdkafka.h>
#include <stddef.h>
#include <stdint.h>

/// Enqueues one message through rd_kafka_producev, which Swift cannot call (it is variadic).
/// `headers` may be NULL; on success librdkafka owns it, on failure the caller still does.
/// `timestamp` is the message's CreateTime in milliseconds since the epoch; 0 stamps it now.
rd_kafka_resp_err_t qw_kafka_produce(rd_kafka_t *rk,
                                     const char *topic,
                                     int32_t partition,
                                     const void *key, size_t key_len,
                                     const void *value, size_t value_len,
                                     rd_kafka_headers_t *headers,
                                     int64_t timestamp,
                                     void *opaque);

/// Pushes one (no error, `rtt_ms` delay) entry onto a mock broker's error stack for `api_key`, through
/// rd_kafka_mock_broker_push_request_error_rtts, which Swift cannot call (it is variadic). `mcluster` is an
/// rd_kafka_mock_cluster_t: untyped here so that this header need not include rdkafka_mock.h, whose
/// declarations Swift already sees through CRDKafka.
rd_kafka_resp_err_t qw_kafka_mock_push_response_delay(void *mcluster,
                                                      int32_t broker_id,
                                                      int16_t api_key,
                                                      int rtt_ms);

#endif
