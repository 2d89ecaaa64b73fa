#include "CKafkaShims.h"

#include <librdkafka/rdkafka_mock.h>

rd_kafka_resp_err_t qw_kafka_produce(rd_kafka_t *rk,
                                     const char *topic,
                                     int32_t partition,
                                     const void *key, size_t key_len,
                                     const void *value, size_t value_len,
                                     rd_kafka_headers_t *headers,
                                     int64_t timestamp,
                                     void *opaque) {
    if (headers != NULL) {
        return rd_kafka_producev(rk,
                                 RD_KAFKA_V_TOPIC(topic),
                                 RD_KAFKA_V_PARTITION(partition),
                                 RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                 RD_KAFKA_V_KEY(key, key_len),
                                 RD_KAFKA_V_VALUE((void *)value, value_len),
                                 RD_KAFKA_V_HEADERS(headers),
                                 RD_KAFKA_V_TIMESTAMP(timestamp),
                                 RD_KAFKA_V_OPAQUE(opaque),
                                 RD_KAFKA_V_END);
    }
    return rd_kafka_producev(rk,
                             RD_KAFKA_V_TOPIC(topic),
                             RD_KAFKA_V_PARTITION(partition),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                             RD_KAFKA_V_KEY(key, key_len),
                             RD_KAFKA_V_VALUE((void *)value, value_len),
                             RD_KAFKA_V_TIMESTAMP(timestamp),
                             RD_KAFKA_V_OPAQUE(opaque),
                             RD_KAFKA_V_END);
}

rd_kafka_resp_err_t qw_kafka_mock_push_response_delay(void *mcluster,
                                                      int32_t broker_id,
                                                      int16_t api_key,
                                                      int rtt_ms) {
    return rd_kafka_mock_broker_push_request_error_rtts(mcluster, broker_id, api_key, 1,
                                                        RD_KAFKA_RESP_ERR_NO_ERROR, rtt_ms);
}
