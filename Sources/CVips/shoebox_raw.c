// Camera raw files through LibRaw (Debian's libraw-dev, the thread-safe libraw_r): what the
// header says, the camera's embedded preview, the sensor data unpacked to prove it reads, and a
// development to 8-bit sRGB. Every result is a libvips image, upright; failures leave their text
// in libvips's error buffer, like every other call in this target.
#include "shoebox_vips.h"

#include <vips/vips.h>
#include <libraw/libraw.h>
#include <string.h>

// One LibRaw instance with the damage its decoders reported.
typedef struct {
    libraw_data_t *raw;
    int data_errors;
    int end_of_file;
} SBRaw;

static void sb_raw_data_error(void *data, const char *file, const int offset) {
    (void)file;
    SBRaw *raw = data;
    raw->data_errors += 1;
    if (offset < 0) raw->end_of_file = 1;
}

static void sb_raw_close(SBRaw *raw) {
    if (raw->raw) libraw_close(raw->raw);
    raw->raw = NULL;
}

// Opens `path`, or `data` of `length` bytes when `path` is NULL (the buffer must outlive the
// instance). `max_megabytes` bounds what LibRaw may allocate for the sensor data.
static int sb_raw_open(SBRaw *raw, const char *path, const void *data, size_t length, int max_megabytes) {
    memset(raw, 0, sizeof *raw);
    raw->raw = libraw_init(0);
    if (!raw->raw) {
        vips_error("rawload", "out of memory");
        return -1;
    }
    libraw_set_dataerror_handler(raw->raw, sb_raw_data_error, raw);
    if (max_megabytes > 0) raw->raw->params.max_raw_memory_mb = (unsigned)max_megabytes;
    int status = path ? libraw_open_file(raw->raw, path) : libraw_open_buffer(raw->raw, (void *)data, length);
    if (status != LIBRAW_SUCCESS) {
        vips_error("rawload", "%s", libraw_strerror(status));
        sb_raw_close(raw);
        return status;
    }
    // What was reported while the header was parsed (a maker note running past the end) is not
    // damage to the picture: count only what unpacking reports.
    raw->data_errors = 0;
    raw->end_of_file = 0;
    return 0;
}

static void sb_copy_text(char *target, size_t capacity, const char *text) {
    if (!text) {
        target[0] = 0;
        return;
    }
    strncpy(target, text, capacity - 1);
    target[capacity - 1] = 0;
}

int sb_raw_probe(const char *path, const void *data, size_t length, SBRawInfo *info) {
    memset(info, 0, sizeof *info);
    SBRaw raw;
    int status = sb_raw_open(&raw, path, data, length, 0);
    if (status != 0) return status;
    libraw_data_t *r = raw.raw;
    info->raw_width = r->sizes.raw_width;
    info->raw_height = r->sizes.raw_height;
    info->flip = r->sizes.flip;
    info->colors = r->idata.colors;
    info->filters = r->idata.filters;
    info->is_dng = r->idata.dng_version != 0;
    sb_copy_text(info->make, sizeof info->make, r->idata.make);
    sb_copy_text(info->model, sizeof info->model, r->idata.model);
    sb_copy_text(info->lens, sizeof info->lens, r->lens.Lens);
    info->iso = r->other.iso_speed;
    info->shutter = r->other.shutter;
    info->aperture = r->other.aperture;
    info->focal_length = r->other.focal_len;
    info->timestamp = (long long)r->other.timestamp;
    if (r->other.parsed_gps.gpsparsed) {
        const libraw_gps_info_t *gps = &r->other.parsed_gps;
        info->has_gps = 1;
        info->latitude = gps->latitude[0] + gps->latitude[1] / 60.0 + gps->latitude[2] / 3600.0;
        if (gps->latref == 'S') info->latitude = -info->latitude;
        info->longitude = gps->longitude[0] + gps->longitude[1] / 60.0 + gps->longitude[2] / 3600.0;
        if (gps->longref == 'W') info->longitude = -info->longitude;
        info->altitude = gps->altref == 1 ? -gps->altitude : gps->altitude;
    }
    // The developed size: LibRaw's sizes after the crop of the sensor's margins, non-square
    // pixels and Fuji's 45° sensors, with width and height swapped for a camera held upright.
    if (libraw_adjust_sizes_info_only(r) == LIBRAW_SUCCESS) {
        info->width = r->sizes.iwidth;
        info->height = r->sizes.iheight;
    }
    if (info->width <= 0 || info->height <= 0) {
        vips_error("rawload", "the raw file declares no picture");
        sb_raw_close(&raw);
        return -1;
    }
    // The preview, read now (a few hundred kilobytes to a few megabytes): LibRaw knows its form
    // only once read, and a JPEG's size only its own header tells (a NEF's records none).
    if (libraw_unpack_thumb(r) == LIBRAW_SUCCESS && r->thumbnail.thumb && r->thumbnail.tlength > 0) {
        const libraw_thumbnail_t *thumbnail = &r->thumbnail;
        if (thumbnail->tformat == LIBRAW_THUMBNAIL_JPEG) {
            VipsImage *header = NULL;
            if (vips_jpegload_buffer(thumbnail->thumb, thumbnail->tlength, &header, "autorotate", FALSE, NULL) == 0) {
                info->thumbnail_format = 1;
                info->thumbnail_width = header->Xsize;
                info->thumbnail_height = header->Ysize;
                g_object_unref(header);
            } else {
                vips_error_clear();
            }
        } else if (thumbnail->tformat == LIBRAW_THUMBNAIL_BITMAP && thumbnail->twidth > 0 && thumbnail->theight > 0 &&
                   (thumbnail->tcolors == 1 || thumbnail->tcolors == 3) &&
                   (size_t)thumbnail->twidth * thumbnail->theight * thumbnail->tcolors <= thumbnail->tlength) {
            info->thumbnail_format = 2;
            info->thumbnail_width = thumbnail->twidth;
            info->thumbnail_height = thumbnail->theight;
        }
        info->thumbnail_length = thumbnail->tlength;
    }
    sb_raw_close(&raw);
    return 0;
}

// LibRaw's flip applied to `in`. LibRaw (as dcraw) finds each output pixel's source by
// transposing the output position (bit 2), then mirroring its row (bit 1) and column (bit 0); the
// picture itself therefore takes the mirrors first and the transpose last (6: a quarter turn
// clockwise, 5: anticlockwise, 3: a half turn).
static int sb_raw_apply_flip(VipsImage *in, int flip, VipsImage **out) {
    VipsImage *current = in;
    g_object_ref(current);
    VipsImage *next = NULL;
    if (flip & 1) {
        if (vips_flip(current, &next, VIPS_DIRECTION_HORIZONTAL, NULL)) goto failed;
        g_object_unref(current);
        current = next;
    }
    if (flip & 2) {
        if (vips_flip(current, &next, VIPS_DIRECTION_VERTICAL, NULL)) goto failed;
        g_object_unref(current);
        current = next;
    }
    if (flip & 4) {
        // A transpose: a quarter turn clockwise, then a left-right mirror.
        VipsImage *turned = NULL;
        if (vips_rot(current, &turned, VIPS_ANGLE_D90, NULL)) goto failed;
        g_object_unref(current);
        current = turned;
        if (vips_flip(current, &next, VIPS_DIRECTION_HORIZONTAL, NULL)) goto failed;
        g_object_unref(current);
        current = next;
    }
    *out = current;
    return 0;
failed:
    g_object_unref(current);
    return -1;
}

int sb_raw_load_preview(const char *path, const void *data, size_t length, int shrink, int flip, SBImage **out) {
    *out = NULL;
    SBRaw raw;
    int status = sb_raw_open(&raw, path, data, length, 0);
    if (status != 0) return status;
    libraw_data_t *r = raw.raw;
    status = libraw_unpack_thumb(r);
    if (status != LIBRAW_SUCCESS) {
        vips_error("rawload", "the embedded preview does not read: %s", libraw_strerror(status));
        sb_raw_close(&raw);
        return -1;
    }
    VipsImage *decoded = NULL;
    const libraw_thumbnail_t *thumbnail = &r->thumbnail;
    if (thumbnail->tformat == LIBRAW_THUMBNAIL_JPEG && thumbnail->thumb && thumbnail->tlength > 0) {
        // The camera's own JPEG, decoded as stored (its EXIF orientation, where it has one, is the
        // raw file's too and applied below), shrunk while decoding.
        VipsImage *lazy = NULL;
        if (vips_jpegload_buffer(thumbnail->thumb, thumbnail->tlength, &lazy, "shrink", shrink > 1 ? shrink : 1,
                                 "autorotate", FALSE, "fail", TRUE, NULL) == 0) {
            // The pixels are copied before LibRaw frees the JPEG.
            decoded = vips_image_copy_memory(lazy);
            g_object_unref(lazy);
        }
    } else if (thumbnail->tformat == LIBRAW_THUMBNAIL_BITMAP && thumbnail->thumb && thumbnail->tcolors > 0 &&
               thumbnail->twidth > 0 && thumbnail->theight > 0 &&
               (size_t)thumbnail->twidth * thumbnail->theight * thumbnail->tcolors <= thumbnail->tlength) {
        decoded = vips_image_new_from_memory_copy(thumbnail->thumb,
                                                  (size_t)thumbnail->twidth * thumbnail->theight * thumbnail->tcolors,
                                                  thumbnail->twidth, thumbnail->theight, thumbnail->tcolors, VIPS_FORMAT_UCHAR);
    } else {
        vips_error("rawload", "the embedded preview is in a form Shoebox does not read");
    }
    sb_raw_close(&raw);
    if (!decoded) return -1;
    int failed = sb_raw_apply_flip(decoded, flip, out);
    g_object_unref(decoded);
    return failed ? -1 : 0;
}

// Unpacks the sensor data; 0 when it all read, else an error in libvips's buffer.
static int sb_raw_unpack(SBRaw *raw) {
    int status = libraw_unpack(raw->raw);
    if (status != LIBRAW_SUCCESS) {
        vips_error("rawload", "the sensor data does not read: %s", libraw_strerror(status));
        return -1;
    }
    if (raw->end_of_file) {
        vips_error("rawload", "the sensor data ends early");
        return -1;
    }
    if (raw->data_errors > 0) {
        vips_error("rawload", "the sensor data is damaged (%d errors)", raw->data_errors);
        return -1;
    }
    return 0;
}

int sb_raw_verify(const char *path, const void *data, size_t length, int max_megabytes) {
    SBRaw raw;
    int status = sb_raw_open(&raw, path, data, length, max_megabytes);
    if (status != 0) return -1;
    status = sb_raw_unpack(&raw);
    sb_raw_close(&raw);
    return status;
}

static void sb_raw_release_processed(VipsImage *image, gpointer data) {
    (void)image;
    libraw_dcraw_clear_mem((libraw_processed_image_t *)data);
}

int sb_raw_develop(const char *path, const void *data, size_t length, int half_size, int max_megabytes, SBImage **out) {
    *out = NULL;
    SBRaw raw;
    if (sb_raw_open(&raw, path, data, length, max_megabytes) != 0) return -1;
    libraw_data_t *r = raw.raw;
    // 8-bit sRGB with its transfer curve, white balance as the camera measured it, LibRaw's
    // default (AHD) interpolation; half size averages each 2×2 block instead of interpolating.
    r->params.output_bps = 8;
    r->params.output_color = 1;
    r->params.use_camera_wb = 1;
    r->params.gamm[0] = 1.0 / 2.4;
    r->params.gamm[1] = 12.92;
    r->params.half_size = half_size ? 1 : 0;
    if (sb_raw_unpack(&raw) != 0) {
        sb_raw_close(&raw);
        return -1;
    }
    int status = libraw_dcraw_process(r);
    if (status != LIBRAW_SUCCESS) {
        vips_error("rawload", "the picture does not develop: %s", libraw_strerror(status));
        sb_raw_close(&raw);
        return -1;
    }
    libraw_processed_image_t *processed = libraw_dcraw_make_mem_image(r, &status);
    // LibRaw's own buffers go before the picture is handed on: only the developed pixels stay.
    sb_raw_close(&raw);
    if (!processed) {
        vips_error("rawload", "the picture does not develop: %s", libraw_strerror(status));
        return -1;
    }
    if (processed->type != LIBRAW_IMAGE_BITMAP || processed->bits != 8 || (processed->colors != 1 && processed->colors != 3) ||
        (size_t)processed->width * processed->height * processed->colors > processed->data_size) {
        libraw_dcraw_clear_mem(processed);
        vips_error("rawload", "the developed picture has an unexpected layout");
        return -1;
    }
    // LibRaw has already turned the picture upright (make_mem_image applies the flip).
    VipsImage *image = vips_image_new_from_memory(processed->data, processed->data_size, processed->width,
                                                  processed->height, processed->colors, VIPS_FORMAT_UCHAR);
    if (!image) {
        libraw_dcraw_clear_mem(processed);
        return -1;
    }
    g_signal_connect(image, "postclose", G_CALLBACK(sb_raw_release_processed), processed);
    image->Type = processed->colors == 1 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    *out = image;
    return 0;
}

const char *sb_raw_version(void) { return libraw_version(); }
