// red_reduce_sync.cu: a sum with sm_80's warp reduction: each thread loads
// one element, __reduce_add_sync adds the warp's 32, lane 0 adds the warp's
// sum to the total with atomicAdd. 256 threads a block. Integers (the
// intrinsic takes int and unsigned), 0 or 1 each.
// Usage: red_reduce_sync [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

__global__ void warp_sum(const int *in, unsigned long long *total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int s = __reduce_add_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, (unsigned long long)s);
}

static double now_ms() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int *h = (int *)malloc(n * sizeof(int));
    unsigned long long gold = 0, got = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (int)(((unsigned)i * 2654435761u) >> 31);
        gold += h[i];
    }
    int *d;
    unsigned long long *t;
    cudaMalloc(&d, n * sizeof(int));
    cudaMalloc(&t, sizeof *t);
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    int threads = 256, blocks = (n + threads - 1) / threads, ok = 1;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        cudaMemset(t, 0, sizeof *t);
        warp_sum<<<blocks, threads>>>(d, t, n);
        cudaMemcpy(&got, t, sizeof got, cudaMemcpyDeviceToHost);
        printf("TIME %.4f\n", now_ms() - t0);
        if (got != gold) {
            printf("FAIL: GPU sum %llu, CPU sum %llu\n", got, gold);
            ok = 0;
        }
    }
    if (ok) printf("PASS\n");
    cudaFree(d);
    cudaFree(t);
    free(h);
    return ok ? 0 : 1;
}
