// mm_guarded.cu: the tiled matrix multiply as course exercises write it with
// a bounds check: the whole body, tile loop and barriers included, inside
// if (row < n && col < n), ceil(n / (float)TILE) phases, 16 x 16 tiles and a
// ceil-sized grid. Legal only when every thread of a block takes the branch,
// so n must be a multiple of TILE here.
// Usage: mm_guarded [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int n) {
    __shared__ float sA[TILE][TILE];
    __shared__ float sB[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int ph = 0; ph < ceil(n / (float)TILE); ++ph) {
            sA[ty][tx] = A[row * n + ph * TILE + tx];
            sB[ty][tx] = B[(ph * TILE + ty) * n + col];
            __syncthreads();
            for (int k = 0; k < TILE; ++k)
                sum += sA[ty][k] * sB[k][tx];
            __syncthreads();
        }
        C[row * n + col] = sum;
    }
}

// C = A * B checked at up to 256 places (every place when n <= 64)
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
            printf("FAIL: C[%d][%d] = %g, expected %g\n", r, c, C[(size_t)r * w + c], ref);
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
    int n = argc > 1 ? atoi(argv[1]) : 128;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n % TILE) {
        fprintf(stderr, "%s: n must be a multiple of %d\n", argv[0], TILE);
        return 2;
    }
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h_A = (float *)malloc(bytes), *h_B = (float *)malloc(bytes), *h_C = (float *)malloc(bytes);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        h_A[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 128.0f - 1.0f;
        h_B[i] = (float)(((unsigned)i * 2246822519u) >> 24) / 128.0f - 1.0f;
    }
    float *d_A, *d_B, *d_C;
    cudaMalloc(&d_A, bytes);
    cudaMalloc(&d_B, bytes);
    cudaMalloc(&d_C, bytes);
    cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice);
    dim3 threads(TILE, TILE);
    dim3 blocks((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        matmul<<<blocks, threads>>>(d_A, d_B, d_C, n);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost);
    int ok = check(h_A, h_B, h_C, n);
    if (ok) printf("PASS\n");
    cudaFree(d_A); cudaFree(d_B); cudaFree(d_C);
    free(h_A); free(h_B); free(h_C);
    return ok ? 0 : 1;
}
