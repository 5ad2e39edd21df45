// red_notes_less_inline.cu: the lecture notes' "less divergence" reduction
// with the global index written inline in the load, as students retype it
// (s[t] = a[blockIdx.x * blockDim.x + t]); otherwise red_notes_less.cu.
// Usage: red_notes_less_inline [n] [reps]   (prints TIME ms per repetition, PASS)
#include <iostream>
#include <iomanip>
#include <cstdlib>
#include <cmath>
#include <chrono>
#include <cuda_runtime.h>

const int ntpb = 512;

__global__ void reduce(float* a, float* b) {
    int t = threadIdx.x;
    __shared__ float s[ntpb];
    s[t] = a[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        b[blockIdx.x] = s[0];
}

int main(int argc, char* argv[]) {
    int n = argc > 1 ? std::atoi(argv[1]) : 100000;
    int reps = argc > 2 ? std::atoi(argv[2]) : 3;
    // determine the number of blocks required
    int nblks = (n + ntpb - 1) / ntpb;
    // allocate host memory
    float* h_a = new float[nblks * ntpb];
    float* h_b = new float[nblks];
    // initialize host memory
    // 0 or 1: every sum is an integer below 2^24 (n <= 2^25), exact in any order
    for (int i = 0; i < n; i++)
        h_a[i] = float((unsigned(i) * 2654435761u) >> 31);
    for (int i = n; i < nblks * ntpb; i++)
        h_a[i] = 0.0f;
    double h_sum = 0.0;
    for (int i = 0; i < n; i++)
        h_sum += h_a[i];
    // allocate device memory
    float* d_a; // full device vector
    float* d_b; // device sum per block
    cudaMalloc((void**)&d_a, nblks * ntpb * sizeof(float));
    cudaMalloc((void**)&d_b, nblks * sizeof(float));
    cudaMemcpy(d_a, h_a, nblks * ntpb * sizeof(float), cudaMemcpyHostToDevice);
    bool ok = true;
    for (int r = 0; r < reps; r++) {
        auto t0 = std::chrono::steady_clock::now();
        // reduce to partial sums
        reduce<<<nblks, ntpb>>>(d_a, d_b);
        // copy from device to host memory
        cudaMemcpy(h_b, d_b, nblks * sizeof(float), cudaMemcpyDeviceToHost);
        float d_sum = 0.0f;
        for (int i = 0; i < nblks; i++)
            d_sum += h_b[i];
        auto t1 = std::chrono::steady_clock::now();
        std::cout << "TIME " << std::fixed << std::setprecision(4)
                  << std::chrono::duration<double, std::milli>(t1 - t0).count() << std::endl;
        if (d_sum != h_sum) {
            std::cout << "FAIL: device sum " << d_sum << ", host sum " << h_sum << std::endl;
            ok = false;
        }
    }
    if (ok) std::cout << "PASS" << std::endl;
    // deallocate memory
    delete[] h_a;
    delete[] h_b;
    cudaFree(d_a);
    cudaFree(d_b);
    return ok ? 0 : 1;
}
