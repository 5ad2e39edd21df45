// blur_box_clamp.cu: a 5 x 5 box blur as image-processing tutorials write it
// without shared memory: one thread per pixel on 16 x 16 blocks, the filter's
// offsets two nested loops, each tap's coordinates clamped to the image with
// min / max inside the loops, the sum divided by the taps. n x n floats.
// Usage: blur_box_clamp [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

#define RADIUS 2

__global__ void boxBlur(const float *src, float *dst, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int dy = -RADIUS; dy <= RADIUS; dy++) {
        for (int dx = -RADIUS; dx <= RADIUS; dx++) {
            int ix = min(max(x + dx, 0), width - 1);
            int iy = min(max(y + dy, 0), height - 1);
            sum += src[iy * width + ix];
        }
    }
    dst[y * width + x] = sum / ((2 * RADIUS + 1) * (2 * RADIUS + 1));
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int width = n, height = n;
    size_t sz = (size_t)width * height;
    float *h_src = (float *)malloc(sz * sizeof(float)), *h_dst = (float *)malloc(sz * sizeof(float));
    for (size_t i = 0; i < sz; i++) h_src[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 16.0f;
    float *d_src, *d_dst;
    cudaMalloc(&d_src, sz * sizeof(float));
    cudaMalloc(&d_dst, sz * sizeof(float));
    cudaMemcpy(d_src, h_src, sz * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(16, 16);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        boxBlur<<<grid, block>>>(d_src, d_dst, width, height);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_dst, d_dst, sz * sizeof(float), cudaMemcpyDeviceToHost);
    long bad = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            float s = 0.0f;
            for (int dy = -RADIUS; dy <= RADIUS; dy++)
                for (int dx = -RADIUS; dx <= RADIUS; dx++) {
                    int ix = x + dx < 0 ? 0 : x + dx > width - 1 ? width - 1 : x + dx;
                    int iy = y + dy < 0 ? 0 : y + dy > height - 1 ? height - 1 : y + dy;
                    s += h_src[(size_t)iy * width + ix];
                }
            float want = s / 25.0f, got = h_dst[(size_t)y * width + x];
            if (got != want) {
                if (!bad) printf("FAIL: dst(%d, %d) = %g, expected %g\n", x, y, got, want);
                bad++;
            }
        }
    if (!bad) printf("PASS\n");
    cudaFree(d_src); cudaFree(d_dst);
    free(h_src); free(h_dst);
    return bad ? 1 : 0;
}
