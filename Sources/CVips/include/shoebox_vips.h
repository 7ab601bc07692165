// Non-variadic wrappers over the libvips calls Shoebox uses.
//
// Swift cannot call C variadic functions, and most of libvips's API is variadic (optional
// arguments as name/value pairs). Every libvips call Shoebox makes goes through one function
// here. This header deliberately does not include <vips/vips.h>: Swift sees only opaque
// handles and plain C types.
#pragma once

#include <stddef.h>

typedef struct _VipsImage SBImage;
typedef struct _VipsSource SBSource;

/// Initialises libvips once (thread-safe; later calls return the first result).
/// Blocks every loader but the trusted ones Shoebox accepts. Returns 0 on success.
int sb_init(void);

/// glibc's mallopt: blocks of `mmap_threshold` bytes or more mapped on their own (a fixed
/// threshold, no longer raised as blocks are freed), the heap trimmed once `trim_threshold` bytes
/// are free at its top, at most `arena_max` arenas.
void sb_configure_allocator(int mmap_threshold, int trim_threshold, int arena_max);
/// glibc's malloc_trim(0): gives the free memory of every arena back to the system.
void sb_trim_allocator(void);

/// The accumulated libvips error text (clears it). Free with `sb_free`. Never NULL.
char *sb_error_take(void);
void sb_error_clear(void);
/// The length of the pending libvips error text.
size_t sb_error_length(void);
void sb_free(void *pointer);

void sb_image_unref(SBImage *image);
void sb_source_unref(SBSource *source);

// Sources ------------------------------------------------------------------------------
SBSource *sb_source_new_from_file(const char *path);
/// Copies `length` bytes: the source owns its memory and frees it with the last reference.
SBSource *sb_source_new_from_copy(const void *data, size_t length);
int sb_source_rewind(SBSource *source);

// Loading ------------------------------------------------------------------------------
/// Opens the header of an image from a source (pixels stay lazy).
/// `sequential`: 1 for top-to-bottom streaming access, 0 for random access.
/// `fail`: 1 to fail on truncated or corrupt data instead of returning partial pixels.
SBImage *sb_image_new_from_source(SBSource *source, int sequential, int fail);
/// Wraps a copy of 8-bit interleaved pixels.
SBImage *sb_image_new_from_memory_copy(const void *data, size_t length, int width, int height, int bands);

/// Decodes the primary image of a HEIF, HEIC or AVIF file (`path`) or buffer (`data`, `length`;
/// `path` NULL) coded 4:2:0 with libheif to its YCbCr 4:2:0 planes, and returns in `out` a lazy 8-bit sRGB pipeline
/// over them, upright (libheif applies the file's rotation and mirroring) with the file's ICC
/// profile. Returns 0 on success, 1 when this path does not take the image (alpha, more than
/// 8 bits, limited range, an unusual matrix: load it with libvips instead), -1 on failure (libvips's error set).
/// `shrink` > 1 makes the pipeline that many times smaller on each side (rounded down), averaging
/// before the conversion to RGB. The buffer must outlive the call only; the pipeline owns the
/// decoded planes.
int sb_heif_load_ycbcr(const char *path, const void *data, size_t length, int shrink, SBImage **out);

// Camera raw (LibRaw) -------------------------------------------------------------------
/// What LibRaw reads from a raw file's header.
typedef struct {
    /// The sensor's size, margins included.
    int raw_width, raw_height;
    /// The developed picture's size, upright (width and height swapped for a camera held upright).
    int width, height;
    /// LibRaw's flip: bit 0 mirrors left-right, bit 1 top-bottom, bit 2 transposes first (0, 3, 5, 6 in practice).
    int flip;
    int colors;
    unsigned filters;
    int is_dng;
    /// The embedded preview: 0 none (or none Shoebox reads), 1 a JPEG, 2 an 8-bit bitmap; its size as stored
    /// (a JPEG's from its own header).
    int thumbnail_format, thumbnail_width, thumbnail_height;
    unsigned thumbnail_length;
    char make[64], model[64], lens[128];
    double iso, shutter, aperture, focal_length;
    /// Seconds since 1970 of the local wall-clock time the camera recorded, as LibRaw's mktime made it (0: none).
    long long timestamp;
    int has_gps;
    double latitude, longitude, altitude;
} SBRawInfo;

/// Reads a raw file's header: `path`, or `data` of `length` bytes when `path` is NULL. Returns 0,
/// or non-zero with the reason in libvips's error buffer (LibRaw's code when it is LibRaw's).
int sb_raw_probe(const char *path, const void *data, size_t length, SBRawInfo *info);
/// The camera's embedded preview, decoded (a JPEG shrunk by `shrink` while decoding) and turned by
/// `flip`, in memory. Returns 0, or -1 with libvips's error set.
int sb_raw_load_preview(const char *path, const void *data, size_t length, int shrink, int flip, SBImage **out);
/// Unpacks the sensor data without developing it: 0 when every byte reads, -1 (libvips's error
/// set) when it is cut short or damaged. `max_megabytes` bounds LibRaw's allocation (0: its default).
int sb_raw_verify(const char *path, const void *data, size_t length, int max_megabytes);
/// Develops the raw to upright 8-bit sRGB in memory (`half_size`: half each side, no
/// interpolation). Returns 0, or -1 with libvips's error set.
int sb_raw_develop(const char *path, const void *data, size_t length, int half_size, int max_megabytes, SBImage **out);
/// LibRaw's version, e.g. "0.20.2-Release".
const char *sb_raw_version(void);

// Header -------------------------------------------------------------------------------
int sb_image_width(const SBImage *image);
int sb_image_height(const SBImage *image);
int sb_image_bands(const SBImage *image);
/// Bytes per band of one pixel as decoded (1 for 8-bit, 2 for 16-bit, 4 for float).
int sb_image_sample_size(const SBImage *image);
int sb_image_has_alpha(SBImage *image);
/// The EXIF orientation libvips will apply on `sb_autorot` (1 when none).
int sb_image_orientation(SBImage *image);
/// Static string naming the loader ("jpegload_source", …) or NULL.
const char *sb_image_loader(SBImage *image);
/// Borrowed pointer to a metadata blob ("exif-data", "icc-profile-data", …) or NULL.
const void *sb_image_blob(SBImage *image, const char *name, size_t *length);
/// Borrowed pointer to a string metadata field (e.g. "png-comment-0-Software") or NULL.
const char *sb_image_string(SBImage *image, const char *name);
/// 1 when libvips has a saver with that nickname (e.g. "heifsave_buffer").
int sb_operation_exists(const char *nickname);

// Operations (return 0 on success, -1 on error with the text in sb_error_take) ---------
/// vips_thumbnail_source. `size`: 0 both, 1 up only, 2 down only. `crop`: 1 centre crop.
int sb_thumbnail_source(SBSource *source, int width, int height, int size, int crop, int fail, SBImage **out);
/// vips_thumbnail_image (no shrink-on-load).
int sb_thumbnail_image(SBImage *in, int width, int height, int size, int crop, SBImage **out);
int sb_autorot(SBImage *in, SBImage **out);
int sb_extract_area(SBImage *in, int left, int top, int width, int height, SBImage **out);
/// vips_rot: `quarter_turns` clockwise (0…3).
int sb_rotate(SBImage *in, int quarter_turns, SBImage **out);
/// Mirrors left to right.
int sb_flip_horizontal(SBImage *in, SBImage **out);
/// vips_affine (bilinear): `in` turned `degrees` clockwise about its centre, keeping the
/// `width` × `height` area centred on it (edge pixels extend past the picture's edge).
int sb_rotate_centred(SBImage *in, double degrees, int width, int height, SBImage **out);
/// vips_maplut through a 256-entry `table` (every band, 8-bit in and out), then vips_recomb by the
/// row-major 3 × 3 `matrix` (out = matrix × in), rounded to the nearest and clipped to 8 bits.
/// `in` must be 3-band 8-bit.
int sb_tone_and_mix(SBImage *in, const unsigned char *table, const double *matrix, SBImage **out);
int sb_resize(SBImage *in, double hscale, double vscale, SBImage **out);
/// Flattens alpha against an RGB background.
int sb_flatten(SBImage *in, double red, double green, double blue, SBImage **out);
int sb_colourspace_srgb(SBImage *in, SBImage **out);
int sb_cast_uchar(SBImage *in, SBImage **out);
/// Computes every pixel into memory; errors in the data surface here.
int sb_copy_memory(SBImage *in, SBImage **out);
/// A copy whose metadata orientation is `orientation` (1…8), or removed when 0.
int sb_copy_set_orientation(SBImage *in, int orientation, SBImage **out);
/// A copy with a string metadata field set (libvips writes `exif-ifdN-Tag` fields into the EXIF
/// block when saving).
int sb_copy_set_string(SBImage *in, const char *name, const char *value, SBImage **out);
/// A copy without EXIF, XMP, IPTC, ICC and orientation metadata (every saver honours this, where
/// libvips 8.14's webpsave ignores `strip`).
int sb_copy_strip_metadata(SBImage *in, SBImage **out);
/// Interleaved pixels, freed with sb_free. NULL on error.
void *sb_write_to_memory(SBImage *in, size_t *length);

// Saving (buffers are freed with sb_free) ------------------------------------------------
int sb_jpegsave_buffer(SBImage *in, int quality, int strip, int interlace, void **buffer, size_t *length);
/// `interlace`: 1 for Adam7 (interlaced) PNG.
int sb_pngsave_buffer(SBImage *in, int strip, int compression, int interlace, void **buffer, size_t *length);
int sb_webpsave_buffer(SBImage *in, int quality, int lossless, int strip, void **buffer, size_t *length);
int sb_heifsave_buffer(SBImage *in, int quality, int strip, void **buffer, size_t *length);
