// saxpy_gs.cu: SAXPY with a grid-stride loop, as in Harris's "CUDA Pro Tip:
// Write Flexible Kernels with Grid-Stride Loops": int indices, 256 threads,
// 32 blocks per SM (cudaDevAttrMultiProcessorCount), y updated in place.
// Usage: saxpy_gs [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, float *x, float *y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int N = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    float *x = (float *)malloc(N * sizeof(float)), *y = (float *)malloc(N * sizeof(float));
    // small integers: every result is exact, whatever the order of operations
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17);
        y[i] = (float)(i % 5);
    }
    float *d_x, *d_y;
    cudaMalloc(&d_x, N * sizeof(float));
    cudaMalloc(&d_y, N * sizeof(float));
    cudaMemcpy(d_x, x, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y, N * sizeof(float), cudaMemcpyHostToDevice);
    int numSMs;
    cudaDeviceGetAttribute(&numSMs, cudaDevAttrMultiProcessorCount, 0);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        saxpy<<<32 * numSMs, 256>>>(N, 2.0f, d_x, d_y);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(y, d_y, N * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (y[i] != (float)(i % 5) + reps * 2.0f * (float)(i % 17)) {
            if (!bad) printf("FAIL: y[%d] = %g, expected %g\n", i, y[i], (float)(i % 5) + reps * 2.0f * (float)(i % 17));
            bad++;
        }
    if (!bad) printf("PASS\n");
    cudaFree(d_x);
    cudaFree(d_y);
    free(x);
    free(y);
    return bad ? 1 : 0;
}
