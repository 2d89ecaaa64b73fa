#ifndef C_COMPRESSION_SHIMS_H
#define C_COMPRESSION_SHIMS_H

#include <stddef.h>

/* Streaming compression for stored results: gzip (zlib's deflate with a gzip header) and zstd, behind one
 * opaque compressor, so that only plain C types cross into Swift and zlib's macros (deflateInit2) stay here. */

typedef struct qw_compressor qw_compressor;

enum qw_compression_kind {
    QW_COMPRESSION_GZIP = 1,
    QW_COMPRESSION_ZSTD = 2,
};

/* A compressor of `kind` at `level` (zlib 1-9, zstd 1-19); NULL when it cannot be made. */
qw_compressor *qw_compressor_new(int kind, int level);

/* Compresses `input_length` bytes at `input` (with `finishing`: and ends the stream) into at most `output_capacity`
 * bytes at `output`. Sets `*consumed` to the input bytes taken and `*finished` to 1 once the whole stream, its
 * trailer included, is written. Returns the bytes written, or -1 on an error. Call again with the rest of the input
 * (and, when finishing, until `*finished`). */
long qw_compressor_run(qw_compressor *compressor, const unsigned char *input, size_t input_length, size_t *consumed,
                       unsigned char *output, size_t output_capacity, int finishing, int *finished);

void qw_compressor_free(qw_compressor *compressor);

#endif
