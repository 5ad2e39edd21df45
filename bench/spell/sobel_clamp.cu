// sobel_clamp.cu: the Sobel edge filter on an 8-bit grey image as image
// processing tutorials write it: one thread per pixel on 16 x 16 blocks, no
// shared memory, the 3 x 3 neighbourhood read with coordinates clamped to the
// image (min / max), integer gradients gx and gy, the magnitude
// sqrtf(gx * gx + gy * gy) saturated to 255. n x n pixels.
// Usage: sobel_clamp [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

__global__ void sobel(const unsigned char *in, unsigned char *out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    int xm = max(x - 1, 0), xp = min(x + 1, width - 1);
    int ym = max(y - 1, 0), yp = min(y + 1, height - 1);

    int p00 = in[ym * width + xm], p01 = in[ym * width + x], p02 = in[ym * width + xp];
    int p10 = in[y * width + xm],                             p12 = in[y * width + xp];
    int p20 = in[yp * width + xm], p21 = in[yp * width + x], p22 = in[yp * width + xp];

    int gx = (p02 + 2 * p12 + p22) - (p00 + 2 * p10 + p20);
    int gy = (p20 + 2 * p21 + p22) - (p00 + 2 * p01 + p02);
    float mag = sqrtf((float)(gx * gx + gy * gy));
    out[y * width + x] = (unsigned char)(mag > 255.0f ? 255.0f : mag);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

// a smooth picture with noise: edges of every strength
static unsigned char pixel(int x, int y) {
    unsigned h = (unsigned)(y * 7919 + x) * 2654435761u;
    return (unsigned char)((((x / 8) ^ (y / 8)) & 1) * 96 + ((x + y) & 63) + (h >> 27));
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int width = n, height = n;
    size_t sz = (size_t)width * height;
    unsigned char *h_in = (unsigned char *)malloc(sz), *h_out = (unsigned char *)malloc(sz);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) h_in[(size_t)y * width + x] = pixel(x, y);
    unsigned char *d_in, *d_out;
    cudaMalloc(&d_in, sz);
    cudaMalloc(&d_out, sz);
    cudaMemcpy(d_in, h_in, sz, cudaMemcpyHostToDevice);
    dim3 block(16, 16);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        sobel<<<grid, block>>>(d_in, d_out, width, height);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_out, d_out, sz, cudaMemcpyDeviceToHost);
    long bad = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            int gx = 0, gy = 0;
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++) {
                    int xx = x + i < 0 ? 0 : x + i >= width ? width - 1 : x + i;
                    int yy = y + j < 0 ? 0 : y + j >= height ? height - 1 : y + j;
                    int p = h_in[(size_t)yy * width + xx];
                    gx += i * (j == 0 ? 2 : 1) * p;
                    gy += j * (i == 0 ? 2 : 1) * p;
                }
            double m = sqrt((double)(gx * gx + gy * gy));
            int want = m > 255 ? 255 : (int)m;
            if (h_out[(size_t)y * width + x] != want) {
                if (!bad) printf("FAIL: out(%d, %d) = %d, expected %d\n", x, y, h_out[(size_t)y * width + x], want);
                bad++;
            }
        }
    if (!bad) printf("PASS\n");
    cudaFree(d_in); cudaFree(d_out);
    free(h_in); free(h_out);
    return bad ? 1 : 0;
}
