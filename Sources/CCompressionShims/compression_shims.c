#include "CCompressionShims.h"

#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>

struct qw_compressor {
    int kind;
    z_stream zlib;
    ZSTD_CCtx *zstd;
    int ended;
};

qw_compressor *qw_compressor_new(int kind, int level) {
    qw_compressor *compressor = calloc(1, sizeof(qw_compressor));
    if (compressor == NULL) return NULL;
    compressor->kind = kind;
    if (kind == QW_COMPRESSION_GZIP) {
        /* 15 + 16: the largest window, with a gzip header and trailer instead of zlib's. */
        if (deflateInit2(&compressor->zlib, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            free(compressor);
            return NULL;
        }
        return compressor;
    }
    if (kind == QW_COMPRESSION_ZSTD) {
        compressor->zstd = ZSTD_createCCtx();
        if (compressor->zstd == NULL || ZSTD_isError(ZSTD_CCtx_setParameter(compressor->zstd, ZSTD_c_compressionLevel, level))) {
            ZSTD_freeCCtx(compressor->zstd);
            free(compressor);
            return NULL;
        }
        return compressor;
    }
    free(compressor);
    return NULL;
}

/* A valid pointer for an empty input (zlib and zstd both want one). */
static const unsigned char qw_empty = 0;

/* Points a zlib stream at the next input and output (zlib counts in uInt: at most 4 GiB a call; the rest is
   offered on the next call). An empty input still needs a valid pointer. Shared by deflate and inflate. */
static void qw_zlib_window(z_stream *stream, const unsigned char *input, size_t input_length, unsigned char *output,
                           size_t output_capacity) {
    stream->next_in = (Bytef *)(input_length > 0 ? input : &qw_empty);
    stream->avail_in = (uInt)(input_length > 0xFFFFFFFFu ? 0xFFFFFFFFu : input_length);
    stream->next_out = output;
    stream->avail_out = (uInt)(output_capacity > 0xFFFFFFFFu ? 0xFFFFFFFFu : output_capacity);
}

long qw_compressor_run(qw_compressor *compressor, const unsigned char *input, size_t input_length, size_t *consumed,
                       unsigned char *output, size_t output_capacity, int finishing, int *finished) {
    *consumed = 0;
    *finished = compressor->ended;
    if (compressor->ended || output_capacity == 0) return 0;
    if (compressor->kind == QW_COMPRESSION_GZIP) {
        z_stream *stream = &compressor->zlib;
        qw_zlib_window(stream, input, input_length, output, output_capacity);
        size_t offered = stream->avail_in;
        size_t room = stream->avail_out;
        int status = deflate(stream, finishing ? Z_FINISH : Z_NO_FLUSH);
        if (status == Z_STREAM_ERROR) return -1;
        *consumed = offered - stream->avail_in;
        if (status == Z_STREAM_END) compressor->ended = 1;
        *finished = compressor->ended;
        return (long)(room - stream->avail_out);
    }
    ZSTD_inBuffer in = { input_length > 0 ? input : &qw_empty, input_length, 0 };
    ZSTD_outBuffer out = { output, output_capacity, 0 };
    size_t remaining = ZSTD_compressStream2(compressor->zstd, &out, &in, finishing ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(remaining)) return -1;
    *consumed = in.pos;
    if (finishing && remaining == 0 && in.pos == input_length) compressor->ended = 1;
    *finished = compressor->ended;
    return (long)out.pos;
}

void qw_compressor_free(qw_compressor *compressor) {
    if (compressor == NULL) return;
    if (compressor->kind == QW_COMPRESSION_GZIP) deflateEnd(&compressor->zlib);
    if (compressor->kind == QW_COMPRESSION_ZSTD) ZSTD_freeCCtx(compressor->zstd);
    free(compressor);
}

struct qw_decompressor {
    int kind;
    z_stream zlib;
    ZSTD_DCtx *zstd;
    int ended;
};

qw_decompressor *qw_decompressor_new(int kind) {
    qw_decompressor *decompressor = calloc(1, sizeof(qw_decompressor));
    if (decompressor == NULL) return NULL;
    decompressor->kind = kind;
    if (kind == QW_COMPRESSION_GZIP) {
        /* 15 + 16: the largest window, a gzip header and trailer expected (the trailer's CRC-32 is checked). */
        if (inflateInit2(&decompressor->zlib, 15 + 16) != Z_OK) {
            free(decompressor);
            return NULL;
        }
        return decompressor;
    }
    if (kind == QW_COMPRESSION_ZSTD) {
        decompressor->zstd = ZSTD_createDCtx();
        if (decompressor->zstd == NULL) {
            free(decompressor);
            return NULL;
        }
        return decompressor;
    }
    free(decompressor);
    return NULL;
}

long qw_decompressor_run(qw_decompressor *decompressor, const unsigned char *input, size_t input_length, size_t *consumed,
                         unsigned char *output, size_t output_capacity, int *finished) {
    *consumed = 0;
    *finished = decompressor->ended;
    if (decompressor->ended || output_capacity == 0) return 0;
    if (decompressor->kind == QW_COMPRESSION_GZIP) {
        z_stream *stream = &decompressor->zlib;
        qw_zlib_window(stream, input, input_length, output, output_capacity);
        size_t offered = stream->avail_in;
        size_t room = stream->avail_out;
        int status = inflate(stream, Z_NO_FLUSH);
        /* Z_BUF_ERROR only says no progress was possible (no input, or no room): not a broken stream. */
        if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) return -1;
        *consumed = offered - stream->avail_in;
        if (status == Z_STREAM_END) decompressor->ended = 1;
        *finished = decompressor->ended;
        return (long)(room - stream->avail_out);
    }
    ZSTD_inBuffer in = { input_length > 0 ? input : &qw_empty, input_length, 0 };
    ZSTD_outBuffer out = { output, output_capacity, 0 };
    size_t hint = ZSTD_decompressStream(decompressor->zstd, &out, &in);
    if (ZSTD_isError(hint)) return -1;
    *consumed = in.pos;
    /* 0: a frame was completely decoded and flushed. */
    if (hint == 0) decompressor->ended = 1;
    *finished = decompressor->ended;
    return (long)out.pos;
}

void qw_decompressor_free(qw_decompressor *decompressor) {
    if (decompressor == NULL) return;
    if (decompressor->kind == QW_COMPRESSION_GZIP) inflateEnd(&decompressor->zlib);
    if (decompressor->kind == QW_COMPRESSION_ZSTD) ZSTD_freeDCtx(decompressor->zstd);
    free(decompressor);
}
