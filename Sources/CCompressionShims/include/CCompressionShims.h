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

/* Streaming decompression of what the compressor writes (a client reading a stored result): gzip (zlib's inflate
 * expecting a gzip header) and zstd, behind one opaque decompressor. */

typedef struct qw_decompressor qw_decompressor;

/* A decompressor of `kind`; NULL when it cannot be made. */
qw_decompressor *qw_decompressor_new(int kind);

/* Decompresses from `input_length` bytes at `input` into at most `output_capacity` bytes at `output`. Sets
 * `*consumed` to the input bytes taken and `*finished` to 1 once the end of the compressed stream (its trailer
 * checked) was reached. Returns the bytes written, or -1 when the input is not a valid stream. Call again with the
 * rest of the input, and with no new input while output fills the whole capacity. Bytes after the stream's end are
 * not consumed. */
long qw_decompressor_run(qw_decompressor *decompressor, const unsigned char *input, size_t input_length, size_t *consumed,
                         unsigned char *output, size_t output_capacity, int *finished);

void qw_decompressor_free(qw_decompressor *decompressor);

#endif
