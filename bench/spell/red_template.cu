// red_template.cu: the last reduction of Harris's "Optimizing Parallel
// Reduction in CUDA" slides (reduce6, "completely unrolled"), as the samples'
// reduction carried it: the block size a template parameter
// (template <unsigned int blockSize>), a grid-stride while loop adding two
// elements per step (the second under a bounds test), the tree unrolled as
// if (blockSize >= 512) { if (tid < 256) ...; __syncthreads(); } steps, a
// warpReduce<blockSize> on volatile shared memory, the host's switch on the
// thread count picking the instance. 64 blocks, partial sums added on the host.
// Usage: red_template [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce6(const float *g_idata, float *g_odata, unsigned int n) {
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    float mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (i + blockSize < n)
            mySum += g_idata[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = mySum;
    __syncthreads();

    if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }

    if (tid < 32) warpReduce<blockSize>(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

static void reduce(int threads, int blocks, const float *d_in, float *d_out, unsigned int n) {
    int smem = threads * sizeof(float);
    switch (threads) {
    case 512: reduce6<512><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 256: reduce6<256><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 128: reduce6<128><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 64: reduce6<64><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    }
}

static double now_ms() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    const int threads = 256, maxBlocks = 64;
    int blocks = (n + threads * 2 - 1) / (threads * 2);
    if (blocks > maxBlocks) blocks = maxBlocks;
    float *h_idata = (float *)malloc(n * sizeof(float)), *h_odata = (float *)malloc(blocks * sizeof(float));
    double gold = 0;
    // 0 or 1: every sum is an integer below 2^24 (n <= 2^24), exact in any order
    for (int i = 0; i < n; i++) {
        h_idata[i] = (float)(((unsigned)i * 2654435761u) >> 31);
        gold += h_idata[i];
    }
    float *d_idata, *d_odata;
    cudaMalloc(&d_idata, n * sizeof(float));
    cudaMalloc(&d_odata, blocks * sizeof(float));
    cudaMemcpy(d_idata, h_idata, n * sizeof(float), cudaMemcpyHostToDevice);
    bool ok = true;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        reduce(threads, blocks, d_idata, d_odata, n);
        cudaMemcpy(h_odata, d_odata, blocks * sizeof(float), cudaMemcpyDeviceToHost);
        float sum = 0;
        for (int b = 0; b < blocks; b++) sum += h_odata[b];
        printf("TIME %.4f\n", now_ms() - t0);
        if (sum != gold) {
            printf("FAIL: GPU sum %.3f, CPU sum %.3f\n", sum, gold);
            ok = false;
        }
    }
    if (ok) printf("PASS\n");
    cudaFree(d_idata); cudaFree(d_odata);
    free(h_idata); free(h_odata);
    return ok ? 0 : 1;
}
