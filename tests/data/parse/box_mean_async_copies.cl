// ARGS: --json
// After the async-copy seed: a box filter over an integral image. Each group copies four
// strided rows of corners into one local float4 buffer (viewed as floats), combines them,
// and copies the means back. A barrier separates every reuse of the buffer.
#define TILE 16

typedef struct {
    int width;
    int height;
    int row_stride;
} image_info;

__kernel void box_mean(image_info in_info, const __global float *integral, image_info out_info,
                       __global float *mean_out, int window, float inv_area, int step)
{
    __local float4 buffer[TILE];
    const int pixels = TILE << 2;
    const int gy = (int)get_group_id(1);
    const int gx = (int)get_group_id(0) * pixels;
    const int count = min(pixels, (int)(out_info.width - gx));
    const int lid = get_local_id(0);
#define CORNER(dy, dx) ((gy * step + (dy)) * in_info.row_stride + gx * step + (dx))
    float4 acc;
    buffer[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_strided_copy((__local float *)buffer, integral + CORNER(window, window), count, step, 0);
    wait_group_events(1, &e);
    acc = buffer[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_strided_copy((__local float *)buffer, integral + CORNER(0, 0), count, step, 0);
    wait_group_events(1, &e);
    acc += buffer[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_strided_copy((__local float *)buffer, integral + CORNER(0, window), count, step, 0);
    wait_group_events(1, &e);
    acc -= buffer[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_strided_copy((__local float *)buffer, integral + CORNER(window, 0), count, step, 0);
    wait_group_events(1, &e);
    acc -= buffer[lid];
    buffer[lid] = acc * inv_area;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(mean_out + gy * out_info.row_stride + gx, (__local float *)buffer, count, 0);
    wait_group_events(1, &e);
#undef CORNER
}
