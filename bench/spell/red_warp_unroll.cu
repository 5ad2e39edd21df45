// red_warp_unroll.cu: the reduction of Harris's "Optimizing Parallel Reduction
// in CUDA" slides, step 5 (unroll the last warp): the tree stops at 64 and a
// __device__ warpReduce on volatile shared memory, warp-synchronous, finishes
// it under if (tid < 32). 256 threads, 2 * 256 floats per block, dynamic
// shared memory; partial sums added on the host.
// Usage: red_warp_unroll [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

__global__ void reduce5(float *g_idata, float *g_odata) {
    extern __shared__ float sdata[];
    // each thread loads one element from global to shared mem,
    // adding the two halves of the block's range on the way
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    __syncthreads();
    // do reduction in shared mem
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid < 32) warpReduce(sdata, tid);
    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

static double now_ms() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int threads = 256;
    int blocks = (n + threads * 2 - 1) / (threads * 2);
    size_t padded = (size_t)blocks * threads * 2;
    float *h_idata = (float *)calloc(padded, sizeof(float));
    float *h_odata = (float *)malloc(blocks * sizeof(float));
    double gold = 0;
    // 0 or 1: every sum is an integer below 2^24 (n <= 2^25), exact in any order
    for (int i = 0; i < n; i++) {
        h_idata[i] = (float)(((unsigned)i * 2654435761u) >> 31);
        gold += h_idata[i];
    }
    float *d_idata, *d_odata;
    cudaMalloc((void **)&d_idata, padded * sizeof(float));
    cudaMalloc((void **)&d_odata, blocks * sizeof(float));
    cudaMemcpy(d_idata, h_idata, padded * sizeof(float), cudaMemcpyHostToDevice);
    int ok = 1;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        reduce5<<<blocks, threads, threads * sizeof(float)>>>(d_idata, d_odata);
        cudaMemcpy(h_odata, d_odata, blocks * sizeof(float), cudaMemcpyDeviceToHost);
        double sum = 0;
        for (int b = 0; b < blocks; b++) sum += h_odata[b];
        printf("TIME %.4f\n", now_ms() - t0);
        if (sum != gold) {
            printf("FAIL: GPU sum %.3f, CPU sum %.3f\n", sum, gold);
            ok = 0;
        }
    }
    if (ok) printf("PASS\n");
    cudaFree(d_idata);
    cudaFree(d_odata);
    free(h_idata);
    free(h_odata);
    return ok ? 0 : 1;
}
