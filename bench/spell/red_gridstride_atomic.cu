// red_gridstride_atomic.cu: the sum everyone writes after reading "Write
// Flexible Kernels with Grid-Stride Loops": a grid-stride loop into a local
// sum, then atomicAdd of it from every thread. 256 threads, 32 blocks per SM.
// Usage: red_gridstride_atomic [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <chrono>
#include <cuda_runtime.h>

__global__ void sum_kernel(const float *x, float *result, int n) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += x[i];
    atomicAdd(result, sum);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    float *x = (float *)malloc(n * sizeof(float));
    double gold = 0;
    // 0 or 1: every sum is an integer below 2^24 (n <= 2^25), exact in any order
    for (int i = 0; i < n; i++) {
        x[i] = (float)(((unsigned)i * 2654435761u) >> 31);
        gold += x[i];
    }
    float *d_x, *d_result, result = 0;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_result, sizeof(float));
    cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice);
    int numSMs;
    cudaDeviceGetAttribute(&numSMs, cudaDevAttrMultiProcessorCount, 0);
    bool ok = true;
    for (int r = 0; r < reps; r++) {
        auto start = std::chrono::steady_clock::now();
        cudaMemset(d_result, 0, sizeof(float));
        sum_kernel<<<32 * numSMs, 256>>>(d_x, d_result, n);
        cudaMemcpy(&result, d_result, sizeof(float), cudaMemcpyDeviceToHost);
        auto stop = std::chrono::steady_clock::now();
        printf("TIME %.4f\n", std::chrono::duration<double, std::milli>(stop - start).count());
        if (result != gold) {
            printf("FAIL: GPU sum %.3f, CPU sum %.3f\n", result, gold);
            ok = false;
        }
    }
    if (ok) printf("PASS\n");
    cudaFree(d_x);
    cudaFree(d_result);
    free(x);
    return ok ? 0 : 1;
}
