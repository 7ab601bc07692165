// HEIF, HEIC and AVIF decoded to their own YCbCr planes, with the conversion to RGB left to a
// lazy libvips pipeline.
//
// libvips's heifload asks libheif for interleaved RGB: libheif holds the decoder's YCbCr planes
// and a whole RGB copy at once (3 bytes a pixel on top of 1.5), and libvips then reads from that
// copy. Decoding to the planes alone and converting a tile at a time as libvips asks for rows
// keeps 1.5 bytes a pixel (an 8192 × 8192 single-frame HEIC: 451 → 319 MB peak for a thumbnail).
#include "shoebox_vips.h"

#include <vips/vips.h>
#include <libheif/heif.h>
#include <string.h>

// The decoded image, freed when the last plane's libvips image closes.
typedef struct {
    struct heif_image *image;
    gint references;
} SBHeifPlanes;

static void sb_heif_planes_release(VipsImage *image, gpointer data) {
    (void)image;
    SBHeifPlanes *planes = data;
    if (g_atomic_int_dec_and_test(&planes->references)) {
        heif_image_release(planes->image);
        g_free(planes);
    }
}

// One plane as a one-band libvips image over libheif's memory (no copy), cut to its width.
static VipsImage *sb_heif_plane(SBHeifPlanes *planes, enum heif_channel channel) {
    int stride = 0;
    const uint8_t *data = heif_image_get_plane_readonly(planes->image, channel, &stride);
    int width = heif_image_get_width(planes->image, channel);
    int height = heif_image_get_height(planes->image, channel);
    if (!data || width <= 0 || height <= 0 || stride < width) {
        vips_error("heif", "a plane of the decoded image is missing");
        return NULL;
    }
    VipsImage *rows = vips_image_new_from_memory(data, (size_t)stride * (size_t)height, stride, height, 1, VIPS_FORMAT_UCHAR);
    if (!rows) return NULL;
    g_atomic_int_inc(&planes->references);
    g_signal_connect(rows, "close", G_CALLBACK(sb_heif_planes_release), planes);
    if (stride == width) return rows;
    VipsImage *cut = NULL;
    int failed = vips_extract_area(rows, &cut, 0, 0, width, height, NULL);
    g_object_unref(rows);
    return failed ? NULL : cut;
}

// Kr and Kb of a matrix_coefficients value (ITU-T H.273), as libheif reads them; 0 when this
// path does not convert that matrix (libvips's own loader then does).
static int sb_heif_coefficients(int matrix, double *kr, double *kb) {
    switch (matrix) {
    case 1: *kr = 0.2126; *kb = 0.0722; return 1;                    // BT.709
    case 2: case 5: case 6: *kr = 0.299; *kb = 0.114; return 1;      // unspecified, BT.470 B/G, BT.601
    case 4: *kr = 0.30; *kb = 0.11; return 1;                        // FCC
    case 7: *kr = 0.212; *kb = 0.087; return 1;                      // SMPTE 240M
    case 9: *kr = 0.2627; *kb = 0.0593; return 1;                    // BT.2020 non-constant luminance
    default: return 0;
    }
}

// Y, Cb and Cr (4:2:0 chroma upsampled by repetition, as libheif 1.15 does) to 8-bit sRGB-interpreted
// RGB, lazily.
static int sb_heif_to_rgb(VipsImage *y, VipsImage *cb, VipsImage *cr, double kr, double kb, int shrink, VipsImage **out) {
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **)vips_object_local_array(scope, 11);
    int width = y->Xsize, height = y->Ysize;
    int xfactor = (width + cb->Xsize - 1) / cb->Xsize, yfactor = (height + cb->Ysize - 1) / cb->Ysize;
    int failed =
        vips_zoom(cb, &t[0], xfactor, yfactor, NULL) ||
        vips_zoom(cr, &t[1], xfactor, yfactor, NULL) ||
        vips_extract_area(t[0], &t[2], 0, 0, width, height, NULL) ||
        vips_extract_area(t[1], &t[3], 0, 0, width, height, NULL) ||
        vips_bandjoin((VipsImage *[]){ y, t[2], t[3] }, &t[9], 3, NULL) ||
        // A thumbnail's first, whole-factor shrink on the 8-bit YCbCr (the conversion is linear,
        // so averaging first gives the same colours), so the arithmetic runs on the small image.
        (shrink > 1 ? vips_shrink(t[9], &t[4], shrink, shrink, NULL) : vips_copy(t[9], &t[4], NULL));
    if (!failed) {
        // Full range (the only range this path takes): chroma is centred on 128.
        double scale[3] = { 1.0, 1.0, 1.0 };
        double offset[3] = { 0.0, -128.0, -128.0 };
        double kg = 1.0 - kr - kb;
        VipsImage *matrix = vips_image_new_matrixv(3, 3,
            1.0, 0.0, 2.0 * (1.0 - kr),
            1.0, -2.0 * kb * (1.0 - kb) / kg, -2.0 * kr * (1.0 - kr) / kg,
            1.0, 2.0 * (1.0 - kb), 0.0);
        vips_object_local(scope, matrix);
        failed =
            vips_linear(t[4], &t[5], scale, offset, 3, NULL) ||
            vips_recomb(t[5], &t[6], matrix, NULL) ||
            vips_round(t[6], &t[7], VIPS_OPERATION_ROUND_RINT, NULL) ||
            vips_cast_uchar(t[7], &t[8], NULL) ||
            vips_copy(t[8], out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    }
    g_object_unref(scope);
    return failed ? -1 : 0;
}

// The colour profile libvips's loader would attach: an ICC profile's bytes as icc-profile-data.
static void sb_heif_attach_icc(const struct heif_image_handle *handle, VipsImage *image) {
    enum heif_color_profile_type type = heif_image_handle_get_color_profile_type(handle);
    if (type != heif_color_profile_type_prof && type != heif_color_profile_type_rICC) return;
    size_t length = heif_image_handle_get_raw_color_profile_size(handle);
    if (length == 0) return;
    void *bytes = g_malloc(length);
    if (heif_image_handle_get_raw_color_profile(handle, bytes).code != heif_error_Ok) {
        g_free(bytes);
        return;
    }
    vips_image_set_blob(image, VIPS_META_ICC_NAME, (VipsCallbackFn)g_free, bytes, length);
}

int sb_heif_load_ycbcr(const char *path, const void *data, size_t length, int shrink, SBImage **out) {
    *out = NULL;
    struct heif_context *context = heif_context_alloc();
    if (!context) { vips_error("heif", "out of memory"); return -1; }
    struct heif_error error = path
        ? heif_context_read_from_file(context, path, NULL)
        : heif_context_read_from_memory_without_copy(context, data, length, NULL);
    struct heif_image_handle *handle = NULL;
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(context, &handle);
    if (error.code != heif_error_Ok) {
        vips_error("heif", "%s", error.message);
        heif_context_free(context);
        return -1;
    }
    // Alpha, more than 8 bits a sample and limited range go through libvips's loader, as does any
    // matrix this path does not know.
    int result = 1;
    double kr = 0, kb = 0;
    int full_range = 1, matrix = 6;  // libheif's reading of a file without nclx
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok && nclx) {
        matrix = nclx->matrix_coefficients;
        full_range = nclx->full_range_flag != 0;
        heif_nclx_color_profile_free(nclx);
    }
    // libheif converts limited range through other steps than the full range phones write.
    if (heif_image_handle_has_alpha_channel(handle) || heif_image_handle_get_luma_bits_per_pixel(handle) != 8
        || !full_range || !sb_heif_coefficients(matrix, &kr, &kb)) {
        heif_image_handle_release(handle);
        heif_context_free(context);
        return 1;
    }
    struct heif_image *image = NULL;
    error = heif_decode_image(handle, &image, heif_colorspace_YCbCr, heif_chroma_420, NULL);
    if (error.code != heif_error_Ok) {
        vips_error("heif", "%s", error.message);
        result = -1;
    } else if (heif_image_get_colorspace(image) != heif_colorspace_YCbCr || heif_image_get_chroma_format(image) != heif_chroma_420
               || heif_image_get_bits_per_pixel_range(image, heif_channel_Y) != 8) {
        heif_image_release(image);
        result = 1;
    } else {
        SBHeifPlanes *planes = g_new0(SBHeifPlanes, 1);
        planes->image = image;
        planes->references = 1;  // this function's own, dropped below
        VipsImage *y = sb_heif_plane(planes, heif_channel_Y);
        VipsImage *cb = y ? sb_heif_plane(planes, heif_channel_Cb) : NULL;
        VipsImage *cr = cb ? sb_heif_plane(planes, heif_channel_Cr) : NULL;
        VipsImage *rgb = NULL;
        result = (cr && sb_heif_to_rgb(y, cb, cr, kr, kb, shrink, &rgb) == 0) ? 0 : -1;
        if (y) g_object_unref(y);
        if (cb) g_object_unref(cb);
        if (cr) g_object_unref(cr);
        sb_heif_planes_release(NULL, planes);
        if (result == 0) {
            sb_heif_attach_icc(handle, rgb);
            *out = rgb;
        }
    }
    heif_image_handle_release(handle);
    heif_context_free(context);
    return result;
}
