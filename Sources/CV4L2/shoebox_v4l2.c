#include "shoebox_v4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int xioctl(int fd, unsigned long request, void *arg) {
    int result;
    do {
        result = ioctl(fd, request, arg);
    } while (result == -1 && errno == EINTR);
    return result == -1 ? -errno : 0;
}

int sb_v4l2_open(const char *path) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

void sb_v4l2_close(int fd) { close(fd); }

static void copy_string(char *out, size_t size, const unsigned char *in, size_t in_size) {
    if (size == 0) return;
    size_t n = strnlen((const char *)in, in_size);
    if (n >= size) n = size - 1;
    memcpy(out, in, n);
    out[n] = 0;
}

int sb_v4l2_querycap(int fd, char *card, size_t card_size, char *bus, size_t bus_size, uint32_t *caps) {
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    int result = xioctl(fd, VIDIOC_QUERYCAP, &cap);
    if (result) return result;
    copy_string(card, card_size, cap.card, sizeof cap.card);
    copy_string(bus, bus_size, cap.bus_info, sizeof cap.bus_info);
    *caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    return 0;
}

int sb_v4l2_enum_format(int fd, uint32_t index, uint32_t *fourcc) {
    struct v4l2_fmtdesc desc;
    memset(&desc, 0, sizeof desc);
    desc.index = index;
    desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    int result = xioctl(fd, VIDIOC_ENUM_FMT, &desc);
    if (result) return result;
    *fourcc = desc.pixelformat;
    return 0;
}

int sb_v4l2_enum_size(int fd, uint32_t fourcc, uint32_t index, uint32_t *width, uint32_t *height) {
    struct v4l2_frmsizeenum size;
    memset(&size, 0, sizeof size);
    size.index = index;
    size.pixel_format = fourcc;
    int result = xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size);
    if (result) return result;
    if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
        *width = size.discrete.width;
        *height = size.discrete.height;
    } else {
        if (index > 0) return -EINVAL;
        *width = size.stepwise.max_width;
        *height = size.stepwise.max_height;
    }
    return 0;
}

int sb_v4l2_enum_interval(int fd, uint32_t fourcc, uint32_t width, uint32_t height, uint32_t index,
                          uint32_t *numerator, uint32_t *denominator) {
    struct v4l2_frmivalenum interval;
    memset(&interval, 0, sizeof interval);
    interval.index = index;
    interval.pixel_format = fourcc;
    interval.width = width;
    interval.height = height;
    int result = xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &interval);
    if (result) return result;
    if (interval.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
        *numerator = interval.discrete.numerator;
        *denominator = interval.discrete.denominator;
    } else {
        if (index > 0) return -EINVAL;
        *numerator = interval.stepwise.min.numerator;
        *denominator = interval.stepwise.min.denominator;
    }
    return 0;
}

int sb_v4l2_query_control(int fd, uint32_t id, int32_t *minimum, int32_t *maximum, int32_t *step, int32_t *default_value) {
    struct v4l2_queryctrl control;
    memset(&control, 0, sizeof control);
    control.id = id;
    int result = xioctl(fd, VIDIOC_QUERYCTRL, &control);
    if (result) return result;
    if (control.flags & V4L2_CTRL_FLAG_DISABLED) return -EINVAL;
    *minimum = control.minimum;
    *maximum = control.maximum;
    *step = control.step;
    *default_value = control.default_value;
    return 0;
}

int sb_v4l2_set_control(int fd, uint32_t id, int32_t value) {
    struct v4l2_control control;
    memset(&control, 0, sizeof control);
    control.id = id;
    control.value = value;
    return xioctl(fd, VIDIOC_S_CTRL, &control);
}

int sb_v4l2_set_format(int fd, uint32_t fourcc, uint32_t width, uint32_t height, uint32_t *actual_width, uint32_t *actual_height) {
    struct v4l2_format format;
    memset(&format, 0, sizeof format);
    format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    format.fmt.pix.width = width;
    format.fmt.pix.height = height;
    format.fmt.pix.pixelformat = fourcc;
    format.fmt.pix.field = V4L2_FIELD_NONE;
    int result = xioctl(fd, VIDIOC_S_FMT, &format);
    if (result) return result;
    *actual_width = format.fmt.pix.width;
    *actual_height = format.fmt.pix.height;
    return format.fmt.pix.pixelformat == fourcc ? 0 : -EINVAL;
}

int sb_v4l2_set_frame_interval(int fd, uint32_t numerator, uint32_t denominator) {
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe.numerator = numerator;
    parm.parm.capture.timeperframe.denominator = denominator;
    return xioctl(fd, VIDIOC_S_PARM, &parm);
}

int sb_v4l2_start(int fd, uint32_t count, void **buffers, size_t *lengths, uint32_t *mapped) {
    struct v4l2_requestbuffers request;
    memset(&request, 0, sizeof request);
    request.count = count;
    request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    request.memory = V4L2_MEMORY_MMAP;
    int result = xioctl(fd, VIDIOC_REQBUFS, &request);
    if (result) return result;
    uint32_t n = request.count < count ? request.count : count;
    *mapped = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct v4l2_buffer buffer;
        memset(&buffer, 0, sizeof buffer);
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        buffer.memory = V4L2_MEMORY_MMAP;
        buffer.index = i;
        result = xioctl(fd, VIDIOC_QUERYBUF, &buffer);
        if (result) return result;
        void *memory = mmap(NULL, buffer.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, buffer.m.offset);
        if (memory == MAP_FAILED) return -errno;
        buffers[i] = memory;
        lengths[i] = buffer.length;
        *mapped = i + 1;
        result = xioctl(fd, VIDIOC_QBUF, &buffer);
        if (result) return result;
    }
    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return xioctl(fd, VIDIOC_STREAMON, &type);
}

int sb_v4l2_dequeue(int fd, int timeout_ms, uint32_t *index, uint32_t *bytes_used) {
    struct pollfd poller = {.fd = fd, .events = POLLIN};
    int ready;
    do {
        ready = poll(&poller, 1, timeout_ms);
    } while (ready == -1 && errno == EINTR);
    if (ready < 0) return -errno;
    if (ready == 0) return -EAGAIN;
    if (poller.revents & (POLLERR | POLLHUP | POLLNVAL)) return -ENODEV;
    struct v4l2_buffer buffer;
    memset(&buffer, 0, sizeof buffer);
    buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer.memory = V4L2_MEMORY_MMAP;
    int result = xioctl(fd, VIDIOC_DQBUF, &buffer);
    if (result) return result;
    *index = buffer.index;
    *bytes_used = buffer.bytesused;
    return 0;
}

int sb_v4l2_requeue(int fd, uint32_t index) {
    struct v4l2_buffer buffer;
    memset(&buffer, 0, sizeof buffer);
    buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer.memory = V4L2_MEMORY_MMAP;
    buffer.index = index;
    return xioctl(fd, VIDIOC_QBUF, &buffer);
}

void sb_v4l2_stop(int fd, void **buffers, size_t *lengths, uint32_t count) {
    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    xioctl(fd, VIDIOC_STREAMOFF, &type);
    for (uint32_t i = 0; i < count; i++) {
        if (buffers[i]) munmap(buffers[i], lengths[i]);
    }
}
