// saxpy_size_t.cu: SAXPY with a grid-stride loop over size_t indices (the
// 64-bit spelling of code that must handle more than 2^31 elements):
// size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, one thread per
// element's worth of blocks (ceil(n / 256)), y updated in place.
// Usage: saxpy_size_t [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cuda_runtime.h>

__global__ void saxpy(size_t n, float a, const float *__restrict__ x, float *__restrict__ y) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    float *h_x = new float[n], *h_y = new float[n];
    // small integers: every result is exact, whatever the order of operations
    for (size_t i = 0; i < n; i++) {
        h_x[i] = (float)(i % 17);
        h_y[i] = (float)(i % 5);
    }
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, h_y, n * sizeof(float), cudaMemcpyHostToDevice);
    const int blockSize = 256;
    const unsigned numBlocks = (unsigned)((n + blockSize - 1) / blockSize);
    for (int r = 0; r < reps; r++) {
        auto t0 = std::chrono::steady_clock::now();
        saxpy<<<numBlocks, blockSize>>>(n, 2.0f, d_x, d_y);
        cudaDeviceSynchronize();
        auto t1 = std::chrono::steady_clock::now();
        printf("TIME %.4f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    cudaMemcpy(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float want = (float)(i % 5) + reps * 2.0f * (float)(i % 17);
        if (h_y[i] != want) {
            if (!bad) printf("FAIL: y[%zu] = %g, expected %g\n", i, h_y[i], want);
            bad++;
        }
    }
    if (!bad) printf("PASS\n");
    cudaFree(d_x);
    cudaFree(d_y);
    delete[] h_x;
    delete[] h_y;
    return bad ? 1 : 0;
}
