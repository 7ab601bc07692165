// Non-variadic wrappers over the V4L2 ioctls Shoebox uses (ioctl(2) is variadic, which Swift
// cannot call). Each returns 0 or a negative errno. The structs stay on this side: Swift sees
// plain integers and buffers.
#pragma once

#include <stddef.h>
#include <stdint.h>

#define SB_V4L2_CAP_VIDEO_CAPTURE 0x00000001u
#define SB_V4L2_CAP_STREAMING 0x04000000u
#define SB_V4L2_CAP_DEVICE_CAPS 0x80000000u

enum {
    SB_V4L2_CID_FOCUS_AUTO = 0x009a090c,
    SB_V4L2_CID_EXPOSURE_AUTO = 0x009a0901,
    SB_V4L2_CID_AUTO_WHITE_BALANCE = 0x0098090c,
    SB_V4L2_CID_ZOOM_ABSOLUTE = 0x009a090d,
    SB_V4L2_CID_FLASH_LED_MODE = 0x009c0901,
};

int sb_v4l2_open(const char *path);
void sb_v4l2_close(int fd);
/// `caps`: the device's own capabilities (device_caps when reported, else capabilities).
int sb_v4l2_querycap(int fd, char *card, size_t card_size, char *bus, size_t bus_size, uint32_t *caps);
int sb_v4l2_enum_format(int fd, uint32_t index, uint32_t *fourcc);
/// Discrete sizes; a stepwise or continuous range reports its largest size once.
int sb_v4l2_enum_size(int fd, uint32_t fourcc, uint32_t index, uint32_t *width, uint32_t *height);
/// Discrete intervals (seconds per frame = numerator / denominator).
int sb_v4l2_enum_interval(int fd, uint32_t fourcc, uint32_t width, uint32_t height, uint32_t index,
                          uint32_t *numerator, uint32_t *denominator);
int sb_v4l2_query_control(int fd, uint32_t id, int32_t *minimum, int32_t *maximum, int32_t *step, int32_t *default_value);
int sb_v4l2_set_control(int fd, uint32_t id, int32_t value);
int sb_v4l2_set_format(int fd, uint32_t fourcc, uint32_t width, uint32_t height, uint32_t *actual_width, uint32_t *actual_height);
int sb_v4l2_set_frame_interval(int fd, uint32_t numerator, uint32_t denominator);
/// REQBUFS (mmap), QUERYBUF + mmap + QBUF each, STREAMON. Fills up to `count` buffers.
int sb_v4l2_start(int fd, uint32_t count, void **buffers, size_t *lengths, uint32_t *mapped);
/// Waits up to `timeout_ms` for a frame, then DQBUF. -EAGAIN on timeout.
int sb_v4l2_dequeue(int fd, int timeout_ms, uint32_t *index, uint32_t *bytes_used);
int sb_v4l2_requeue(int fd, uint32_t index);
/// STREAMOFF and munmap.
void sb_v4l2_stop(int fd, void **buffers, size_t *lengths, uint32_t count);
