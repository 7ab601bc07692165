#define _GNU_SOURCE  /* dladdr */
#include "shoebox_vips.h"

#include <dlfcn.h>
#include <gmodule.h>
#include <stdio.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <vips/vips.h>

static pthread_once_t sb_once = PTHREAD_ONCE_INIT;
static int sb_init_result = -1;

static void sb_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/* The HEIF module (libheif through libvips), loaded by itself when libvips was told to load no
 * modules (the shoebox executable sets VIPSHOME to a folder without any: the others — JPEG XL,
 * ImageMagick, OpenSlide, Poppler — are formats Shoebox refuses anyway, and loading them costs
 * every process about 12 ms). Found beside libvips itself, as libvips finds its modules. */
static void sb_load_heif_module(void) {
    if (vips_type_find("VipsOperation", "heifload_source") != 0) return;  /* built in, or loaded */
    if (!g_module_supported()) return;
    Dl_info info;
    if (dladdr((void *)vips_init, &info) == 0 || info.dli_fname == NULL) return;
    char *folder = g_path_get_dirname(info.dli_fname);
    char name[64];
    snprintf(name, sizeof name, "vips-modules-%d.%d", VIPS_MAJOR_VERSION, VIPS_MINOR_VERSION);
    char *path = g_build_filename(folder, name, "vips-heif.so", NULL);
    GModule *module = g_module_open(path, G_MODULE_BIND_LAZY);
    if (module) g_module_make_resident(module);
    g_free(path);
    g_free(folder);
}

static void sb_do_init(void) {
    if (VIPS_INIT("shoebox") != 0) {
        sb_init_result = -1;
        return;
    }
    sb_load_heif_module();
    // Untrusted input: refuse every loader libvips marks as unfuzzed, then every loader that is
    // not one of the formats Shoebox accepts.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    vips_operation_block_set("VipsForeignLoadJpeg", FALSE);
    vips_operation_block_set("VipsForeignLoadPng", FALSE);
    vips_operation_block_set("VipsForeignLoadWebp", FALSE);
    vips_operation_block_set("VipsForeignLoadHeif", FALSE);
    vips_operation_block_set("VipsForeignLoadNsgif", FALSE);
    vips_operation_block_set("VipsForeignLoadTiff", FALSE);
    // No operation cache: it would keep decoded pixels and sources alive between calls, outside
    // the decode memory budget. With no operations kept, the cache's memory and file limits
    // (vips_cache_set_max_mem, vips_cache_set_max_files) never come into play.
    vips_cache_set_max(0);
    // libvips reports recoverable problems (odd EXIF, …) as GLib warnings on stderr. Shoebox
    // surfaces real failures as errors; the warnings would only clutter CLI output.
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE, sb_ignore_log, NULL);
    g_log_set_handler("GLib-GObject", G_LOG_LEVEL_WARNING, sb_ignore_log, NULL);
    sb_init_result = 0;
}

int sb_init(void) {
    pthread_once(&sb_once, sb_do_init);
    return sb_init_result;
}

void sb_configure_allocator(int mmap_threshold, int trim_threshold, int arena_max) {
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    mallopt(M_TRIM_THRESHOLD, trim_threshold);
    mallopt(M_ARENA_MAX, arena_max);
}

void sb_trim_allocator(void) { malloc_trim(0); }

char *sb_error_take(void) {
    char *text = vips_error_buffer_copy();
    return text ? text : g_strdup("");
}

void sb_error_clear(void) { vips_error_clear(); }
size_t sb_error_length(void) { return strlen(vips_error_buffer()); }
void sb_free(void *pointer) { g_free(pointer); }
void sb_image_unref(SBImage *image) { if (image) g_object_unref(image); }
void sb_source_unref(SBSource *source) { if (source) g_object_unref(source); }

SBSource *sb_source_new_from_file(const char *path) { return vips_source_new_from_file(path); }

SBSource *sb_source_new_from_copy(const void *data, size_t length) {
    VipsBlob *blob = vips_blob_copy(data, length);
    if (!blob) return NULL;
    VipsSource *source = vips_source_new_from_blob(blob);
    vips_area_unref(VIPS_AREA(blob));
    return source;
}

int sb_source_rewind(SBSource *source) { return vips_source_rewind(source); }

SBImage *sb_image_new_from_source(SBSource *source, int sequential, int fail) {
    return vips_image_new_from_source(source, "",
        "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM,
        "fail_on", fail ? VIPS_FAIL_ON_ERROR : VIPS_FAIL_ON_NONE,
        NULL);
}

SBImage *sb_image_new_from_memory_copy(const void *data, size_t length, int width, int height, int bands) {
    VipsImage *image = vips_image_new_from_memory_copy(data, length, width, height, bands, VIPS_FORMAT_UCHAR);
    if (!image) return NULL;
    VipsInterpretation interpretation = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    image->Type = interpretation;
    return image;
}

int sb_image_width(const SBImage *image) { return vips_image_get_width(image); }
int sb_image_height(const SBImage *image) { return vips_image_get_height(image); }
int sb_image_bands(const SBImage *image) { return vips_image_get_bands(image); }
int sb_image_sample_size(const SBImage *image) { return (int)vips_format_sizeof(vips_image_get_format(image)); }
int sb_image_has_alpha(SBImage *image) { return vips_image_hasalpha(image) ? 1 : 0; }

int sb_image_orientation(SBImage *image) {
    int orientation = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) &&
        vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation) == 0 &&
        orientation >= 1 && orientation <= 8) {
        return orientation;
    }
    return 1;
}

const char *sb_image_loader(SBImage *image) {
    const char *loader = NULL;
    if (vips_image_get_typeof(image, VIPS_META_LOADER) &&
        vips_image_get_string(image, VIPS_META_LOADER, &loader) == 0) {
        return loader;
    }
    return NULL;
}

const char *sb_image_string(SBImage *image, const char *name) {
    const char *value = NULL;
    if (vips_image_get_typeof(image, name) && vips_image_get_string(image, name, &value) == 0) {
        return value;
    }
    return NULL;
}

const void *sb_image_blob(SBImage *image, const char *name, size_t *length) {
    const void *data = NULL;
    *length = 0;
    if (vips_image_get_typeof(image, name) && vips_image_get_blob(image, name, &data, length) == 0) {
        return data;
    }
    *length = 0;
    return NULL;
}

int sb_operation_exists(const char *nickname) {
    return vips_type_find("VipsOperation", nickname) != 0 ? 1 : 0;
}

int sb_thumbnail_source(SBSource *source, int width, int height, int size, int crop, int fail, SBImage **out) {
    // libvips 8.14 ignores thumbnail's own "fail_on" for sources; the loader option string works.
    return vips_thumbnail_source(source, out, width,
        "option_string", fail ? "fail_on=error" : "",
        "height", height,
        "size", (VipsSize)size,
        "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
        "fail_on", fail ? VIPS_FAIL_ON_ERROR : VIPS_FAIL_ON_NONE,
        NULL);
}

int sb_thumbnail_image(SBImage *in, int width, int height, int size, int crop, SBImage **out) {
    return vips_thumbnail_image(in, out, width,
        "height", height,
        "size", (VipsSize)size,
        "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
        NULL);
}

int sb_autorot(SBImage *in, SBImage **out) { return vips_autorot(in, out, NULL); }

int sb_extract_area(SBImage *in, int left, int top, int width, int height, SBImage **out) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

int sb_rotate(SBImage *in, int quarter_turns, SBImage **out) {
    static const VipsAngle angles[4] = {VIPS_ANGLE_D0, VIPS_ANGLE_D90, VIPS_ANGLE_D180, VIPS_ANGLE_D270};
    return vips_rot(in, out, angles[((quarter_turns % 4) + 4) % 4], NULL);
}

int sb_flip_horizontal(SBImage *in, SBImage **out) { return vips_flip(in, out, VIPS_DIRECTION_HORIZONTAL, NULL); }

int sb_rotate_centred(SBImage *in, double degrees, int width, int height, SBImage **out) {
    double radians = degrees * G_PI / 180.0;
    double c = cos(radians), s = sin(radians);
    VipsArrayInt *area = vips_array_int_newv(4, 0, 0, width, height);
    // Output (x, y) = R × (input − centre) + output centre: y grows downwards, so a positive
    // angle turns clockwise on screen, as a canvas's rotate() does.
    int result = vips_affine(in, out, c, -s, s, c,
        "idx", -in->Xsize / 2.0, "idy", -in->Ysize / 2.0,
        "odx", width / 2.0, "ody", height / 2.0,
        "oarea", area,
        "extend", VIPS_EXTEND_COPY,
        NULL);
    vips_area_unref(VIPS_AREA(area));
    return result;
}

int sb_tone_and_mix(SBImage *in, const unsigned char *table, const double *matrix, SBImage **out) {
    VipsImage *lut = vips_image_new_from_memory_copy(table, 256, 256, 1, 1, VIPS_FORMAT_UCHAR);
    VipsImage *mix = vips_image_new_matrix_from_array(3, 3, matrix, 9);
    VipsImage *mapped = NULL, *mixed = NULL, *rounded = NULL;
    int result = -1;
    if (lut && mix
        && vips_maplut(in, &mapped, lut, NULL) == 0
        && vips_recomb(mapped, &mixed, mix, NULL) == 0
        && vips_rint(mixed, &rounded, NULL) == 0
        && vips_cast_uchar(rounded, out, NULL) == 0) {
        result = 0;
    }
    if (lut) g_object_unref(lut);
    if (mix) g_object_unref(mix);
    if (mapped) g_object_unref(mapped);
    if (mixed) g_object_unref(mixed);
    if (rounded) g_object_unref(rounded);
    return result;
}

int sb_resize(SBImage *in, double hscale, double vscale, SBImage **out) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

int sb_flatten(SBImage *in, double red, double green, double blue, SBImage **out) {
    double background[3] = {red, green, blue};
    VipsArrayDouble *array = vips_array_double_new(background, 3);
    int result = vips_flatten(in, out, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

int sb_colourspace_srgb(SBImage *in, SBImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

int sb_cast_uchar(SBImage *in, SBImage **out) { return vips_cast_uchar(in, out, NULL); }

int sb_copy_memory(SBImage *in, SBImage **out) {
    VipsImage *copy = vips_image_copy_memory(in);
    if (!copy) return -1;
    *out = copy;
    return 0;
}

int sb_copy_set_orientation(SBImage *in, int orientation, SBImage **out) {
    if (vips_copy(in, out, NULL) != 0) return -1;
    if (orientation >= 1 && orientation <= 8) {
        vips_image_set_int(*out, VIPS_META_ORIENTATION, orientation);
    } else {
        vips_image_remove(*out, VIPS_META_ORIENTATION);
    }
    return 0;
}

void *sb_write_to_memory(SBImage *in, size_t *length) { return vips_image_write_to_memory(in, length); }

int sb_jpegsave_buffer(SBImage *in, int quality, int strip, int interlace, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(in, buffer, length,
        "Q", quality, "strip", strip ? TRUE : FALSE, "interlace", interlace ? TRUE : FALSE,
        "optimize_coding", TRUE, NULL);
}

int sb_pngsave_buffer(SBImage *in, int strip, int compression, int interlace, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length,
        "strip", strip ? TRUE : FALSE, "compression", compression, "interlace", interlace ? TRUE : FALSE, NULL);
}

int sb_webpsave_buffer(SBImage *in, int quality, int lossless, int strip, void **buffer, size_t *length) {
    return vips_webpsave_buffer(in, buffer, length,
        "Q", quality, "lossless", lossless ? TRUE : FALSE, "strip", strip ? TRUE : FALSE, NULL);
}

int sb_heifsave_buffer(SBImage *in, int quality, int strip, void **buffer, size_t *length) {
    return vips_heifsave_buffer(in, buffer, length,
        "Q", quality, "strip", strip ? TRUE : FALSE,
        "compression", VIPS_FOREIGN_HEIF_COMPRESSION_HEVC, NULL);
}

int sb_copy_set_string(SBImage *in, const char *name, const char *value, SBImage **out) {
    if (vips_copy(in, out, NULL)) return -1;
    vips_image_set_string(*out, name, value);
    return 0;
}

int sb_copy_strip_metadata(SBImage *in, SBImage **out) {
    if (vips_copy(in, out, NULL) != 0) return -1;
    gchar **fields = vips_image_get_fields(*out);
    for (int i = 0; fields[i]; i++) {
        const char *name = fields[i];
        if (vips_isprefix("exif-", name) || vips_isprefix("xmp-", name) || vips_isprefix("iptc-", name) ||
            vips_isprefix("icc-", name) || vips_isprefix("ipct-", name) || strcmp(name, VIPS_META_ORIENTATION) == 0) {
            vips_image_remove(*out, name);
        }
    }
    g_strfreev(fields);
    return 0;
}
