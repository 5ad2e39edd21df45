// red_cg.cu: a block reduction with cooperative groups, as the CUDA
// programming guide and the samples write it: cg::reduce over each
// thread_block_tile<32>, the tiles' sums through shared memory, cg::reduce
// again in the first tile, one atomicAdd per block. 256 threads per block,
// one element per thread.
// Usage: red_cg [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <chrono>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void reduce_cg(const float *in, float *out, int n) {
    __shared__ float warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    v = cg::reduce(tile32, v, cg::plus<float>());
    if (tile32.thread_rank() == 0)
        warp_sums[tile32.meta_group_rank()] = v;
    block.sync();

    if (tile32.meta_group_rank() == 0) {
        v = tile32.thread_rank() < tile32.meta_group_size() ? warp_sums[tile32.thread_rank()] : 0.0f;
        v = cg::reduce(tile32, v, cg::plus<float>());
        if (tile32.thread_rank() == 0)
            atomicAdd(out, v);
    }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    float *h = new float[n];
    double gold = 0;
    // 0 or 1: every sum is an integer below 2^24 (n <= 2^25), exact in any order
    for (int i = 0; i < n; i++) {
        h[i] = (float)(((unsigned)i * 2654435761u) >> 31);
        gold += h[i];
    }
    float *d_in, *d_out, sum = 0;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
    const int block = 256;
    const int grid = (n + block - 1) / block;
    bool ok = true;
    for (int r = 0; r < reps; r++) {
        auto t0 = std::chrono::high_resolution_clock::now();
        cudaMemset(d_out, 0, sizeof(float));
        reduce_cg<<<grid, block>>>(d_in, d_out, n);
        cudaMemcpy(&sum, d_out, sizeof(float), cudaMemcpyDeviceToHost);
        auto t1 = std::chrono::high_resolution_clock::now();
        printf("TIME %.4f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
        if (sum != gold) {
            printf("FAIL: GPU sum %.3f, CPU sum %.3f\n", sum, gold);
            ok = false;
        }
    }
    if (ok) printf("PASS\n");
    cudaFree(d_in);
    cudaFree(d_out);
    delete[] h;
    return ok ? 0 : 1;
}
