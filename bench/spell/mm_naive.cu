// mm_naive.cu: the first matrix multiply everyone writes: no shared memory,
// one element of C per thread, a k loop over a row of A and a column of B,
// 16 x 16 blocks, a ceil-sized grid and a bounds check.
// Usage: mm_naive [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

__global__ void matMul(const float *a, const float *b, float *c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0;
        for (int k = 0; k < n; k++)
            sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}

// c = a * b checked at up to 256 places (every place when n <= 64)
static int check(const float *A, const float *B, const float *C, int w) {
    int m = w <= 64 ? w * w : 256;
    for (int s = 0; s < m; s++) {
        int r = w <= 64 ? s / w : (int)((s * 7919u) % w), c = w <= 64 ? s % w : (int)((s * 104729u + 13) % w);
        double ref = 0, mag = 0;
        for (int k = 0; k < w; k++) {
            ref += (double)A[(size_t)r * w + k] * B[(size_t)k * w + c];
            mag += fabs((double)A[(size_t)r * w + k] * B[(size_t)k * w + c]);
        }
        if (fabs(C[(size_t)r * w + c] - ref) > 1e-5 * mag + 1e-6) {
            printf("FAIL: c[%d][%d] = %g, expected %g\n", r, c, C[(size_t)r * w + c], ref);
            return 0;
        }
    }
    return 1;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        a[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 128.0f - 1.0f;
        b[i] = (float)(((unsigned)i * 2246822519u) >> 24) / 128.0f - 1.0f;
    }
    float *d_a, *d_b, *d_c;
    cudaMalloc(&d_a, bytes);
    cudaMalloc(&d_b, bytes);
    cudaMalloc(&d_c, bytes);
    cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice);
    dim3 block(16, 16);
    dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        matMul<<<grid, block>>>(d_a, d_b, d_c, n);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost);
    int ok = check(a, b, c, n);
    if (ok) printf("PASS\n");
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
    free(a); free(b); free(c);
    return ok ? 0 : 1;
}
