// filter_warp_agg.cu: stream compaction with warp-aggregated atomics, as in
// NVIDIA's "CUDA Pro Tip: Optimized Filtering with Warp-Aggregated Atomics":
// the threads whose element passes call atomicAggInc, a __device__ function
// where the active lanes (__activemask) elect a leader (__ffs), the leader
// takes the warp's count (__popc) of slots with one atomicAdd, and each lane
// its slot from the leader's result (__shfl_sync) and its rank. Output order
// varies: checked by count and sum. 256 threads a block.
// Usage: filter_warp_agg [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

__device__ int atomicAggInc(int *ctr) {
    unsigned int active = __activemask();
    int leader = __ffs(active) - 1;
    int change = __popc(active);
    unsigned int lane_mask_lt = (1u << (threadIdx.x % 32)) - 1;
    unsigned int rank = __popc(active & lane_mask_lt);
    int warp_res;
    if (rank == 0)
        warp_res = atomicAdd(ctr, change);
    warp_res = __shfl_sync(active, warp_res, leader);
    return warp_res + rank;
}

__global__ void filter_k(int *dst, int *nres, const int *src, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && src[i] > 0)
        dst[atomicAggInc(nres)] = src[i];
}

static double now_ms() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int *h = (int *)malloc(n * sizeof(int)), *out = (int *)malloc(n * sizeof(int));
    long long want_n = 0, want_sum = 0;
    for (int i = 0; i < n; i++) {
        unsigned x = (unsigned)i * 2654435761u;
        h[i] = (x >> 31) ? (int)(x >> 20) + 1 : -(int)(x >> 24);
        if (h[i] > 0) { want_n++; want_sum += h[i]; }
    }
    int *src, *dst, *cnt, got = 0, ok = 1;
    cudaMalloc(&src, n * sizeof(int));
    cudaMalloc(&dst, n * sizeof(int));
    cudaMalloc(&cnt, sizeof(int));
    cudaMemcpy(src, h, n * sizeof(int), cudaMemcpyHostToDevice);
    int threads = 256, blocks = (n + threads - 1) / threads;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        cudaMemset(cnt, 0, sizeof(int));
        filter_k<<<blocks, threads>>>(dst, cnt, src, n);
        cudaMemcpy(&got, cnt, sizeof(int), cudaMemcpyDeviceToHost);
        printf("TIME %.4f\n", now_ms() - t0);
        cudaMemcpy(out, dst, got * sizeof(int), cudaMemcpyDeviceToHost);
        long long s = 0;
        for (int k = 0; k < got; k++) s += out[k] > 0 ? out[k] : -1000000000LL;
        if (got != want_n || s != want_sum) {
            printf("FAIL: %d kept (sum %lld), want %lld (sum %lld)\n", got, s, want_n, want_sum);
            ok = 0;
        }
    }
    if (ok) printf("PASS\n");
    cudaFree(src);
    cudaFree(dst);
    cudaFree(cnt);
    free(h);
    free(out);
    return ok ? 0 : 1;
}
