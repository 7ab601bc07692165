#include "shoebox_zlib.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

struct sb_inflater {
    z_stream stream;
    int gzip;
    int ended;
    char message[160];
};

sb_inflater *sb_inflater_new(int gzip) {
    sb_inflater *inflater = calloc(1, sizeof(sb_inflater));
    if (inflater == NULL) return NULL;
    inflater->gzip = gzip;
    // 15 + 16: a gzip wrapper; -15: raw DEFLATE, no wrapper.
    if (inflateInit2(&inflater->stream, gzip ? 15 + 16 : -15) != Z_OK) {
        free(inflater);
        return NULL;
    }
    return inflater;
}

int sb_inflater_run(sb_inflater *inflater, const uint8_t *input, size_t input_length, size_t *consumed,
                    uint8_t *output, size_t output_capacity, size_t *produced) {
    z_stream *stream = &inflater->stream;
    size_t used = 0, made = 0;
    int result = 0;
    // A gzip member ended with the last input: what comes now is the next member's.
    if (inflater->ended && inflater->gzip && input_length > 0) {
        inflateReset(stream);
        inflater->ended = 0;
    }
    while (made < output_capacity) {
        size_t in_chunk = input_length - used > 1u << 30 ? 1u << 30 : input_length - used;
        size_t out_chunk = output_capacity - made > 1u << 30 ? 1u << 30 : output_capacity - made;
        stream->next_in = (Bytef *)(input + used);
        stream->avail_in = (uInt)in_chunk;
        stream->next_out = output + made;
        stream->avail_out = (uInt)out_chunk;
        int status = inflate(stream, Z_NO_FLUSH);
        used += in_chunk - stream->avail_in;
        made += out_chunk - stream->avail_out;
        if (status == Z_STREAM_END) {
            // Another gzip member may follow: read it as the same stream.
            if (inflater->gzip && used < input_length) {
                inflateReset(stream);
                continue;
            }
            inflater->ended = 1;
            result = 1;
            break;
        }
        if (status == Z_BUF_ERROR) break;  // needs more input, or more room
        if (status == Z_MEM_ERROR) { result = -2; break; }
        if (status != Z_OK) {
            snprintf(inflater->message, sizeof inflater->message, "%s", stream->msg ? stream->msg : "the compressed data is damaged");
            result = -1;
            break;
        }
        if (used == input_length && stream->avail_out > 0) break;
    }
    *consumed = used;
    *produced = made;
    return result;
}

const char *sb_inflater_message(sb_inflater *inflater) { return inflater->message; }

void sb_inflater_free(sb_inflater *inflater) {
    if (inflater == NULL) return;
    inflateEnd(&inflater->stream);
    free(inflater);
}

uint32_t sb_crc32(uint32_t crc, const uint8_t *data, size_t length) {
    while (length > 0) {
        uInt chunk = length > 1u << 30 ? 1u << 30 : (uInt)length;
        crc = (uint32_t)crc32(crc, data, chunk);
        data += chunk;
        length -= chunk;
    }
    return crc;
}
