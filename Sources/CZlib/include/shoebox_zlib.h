// Non-variadic wrappers over the zlib calls Shoebox uses to read archives (a ZIP's deflated
// entries, a .tgz's gzip stream). Swift sees an opaque handle and plain C types only.
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct sb_inflater sb_inflater;

/// A new inflater: `gzip` 1 reads a gzip stream (members one after another, as `cat a.gz b.gz`
/// makes), 0 raw DEFLATE data (a ZIP entry's). NULL when zlib cannot allocate one.
sb_inflater *sb_inflater_new(int gzip);

/// Inflates from `input` into `output`: `*consumed` and `*produced` say how much of each it
/// used. Returns 0 while the stream goes on, 1 at its end (for gzip: the end of the last member
/// given so far), -1 for data that is not what it should be (`sb_inflater_message` says why),
/// -2 when zlib runs out of memory.
int sb_inflater_run(sb_inflater *inflater, const uint8_t *input, size_t input_length, size_t *consumed,
                    uint8_t *output, size_t output_capacity, size_t *produced);

/// zlib's words for the last failure, or "" (owned by the inflater).
const char *sb_inflater_message(sb_inflater *inflater);

void sb_inflater_free(sb_inflater *inflater);

/// CRC-32 (the ZIP's and gzip's) of `length` bytes, continuing `crc` (0 to start).
uint32_t sb_crc32(uint32_t crc, const uint8_t *data, size_t length);
