// bits_block.cu: a thread's index combined with a parameter's bits, as
// bitonic sorts and butterflies spell it (`i ^ j`, `i & k`, `i | m`), which
// lowering/bspec.c runs as a copy reading the parameter's bits above a
// warp's (`j & ~31`) in launches where they are all there is (j a multiple
// of 32): the partner a warp's run of lanes, the order the same in a warp.
// Launches with smaller or odd parameters, 1-D and 2-D blocks, blocks of
// 16-wide rows, and a parameter the kernel changes keep their meaning. Each
// checked against the CPU.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void bitonic_step(float *v, int j, int k) {
    unsigned int i, ixj;
    i = threadIdx.x + blockDim.x * blockIdx.x;
    ixj = i ^ j;
    if (ixj > i) {
        if ((i & k) == 0) {
            if (v[i] > v[ixj]) { float t = v[i]; v[i] = v[ixj]; v[ixj] = t; }
        }
        if ((i & k) != 0) {
            if (v[i] < v[ixj]) { float t = v[i]; v[i] = v[ixj]; v[ixj] = t; }
        }
    }
}

// a butterfly's read of its partner, an or'd index, a masked bit; 2-D blocks
__global__ void butterfly(const int *a, int *out, int m, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    int i = y * (gridDim.x * blockDim.x) + x;
    if (i >= n) return;
    int p = i ^ m, q = (i | m) % n;
    out[i] = (p < n ? a[p] : 0) - a[i] + 3 * a[q] + ((i & m) ? 1000 : 0);
}

// the parameter changed in the kernel: not a value of the launch
__global__ void stored(const int *a, int *out, int m, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i & 1) m += 32;
    if (i < n) out[i] = a[(i ^ m) % n];
}

static int bad;

static void sort(int n, int threads) {
    float *h = (float *)malloc(n * 4), *d;
    for (int i = 0; i < n; i++) h[i] = (float)((i * 2654435761u) >> 12) / 1048576.0f - (i % 7);
    cudaMalloc(&d, n * 4);
    cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice);
    for (int k = 2; k <= n; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) bitonic_step<<<n / threads, threads>>>(d, j, k);
    cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 1; i < n; i++)
        if (h[i - 1] > h[i]) {
            printf("FAIL sort n %d threads %d: [%d] = %g > [%d] = %g\n", n, threads, i - 1, h[i - 1], i, h[i]);
            bad++;
            break;
        }
    cudaFree(d);
    free(h);
}

static void bfly(int n, dim3 blk, int m) {
    int *a = (int *)malloc(n * 4), *o = (int *)malloc(n * 4), *da, *dout;
    for (int i = 0; i < n; i++) a[i] = (int)((i * 40503u) >> 5) % 1000;
    cudaMalloc(&da, n * 4);
    cudaMalloc(&dout, n * 4);
    cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice);
    int row = 64 * (int)blk.x;   // threads of a grid row
    dim3 grid(64, (n + row * blk.y - 1) / (row * blk.y));
    butterfly<<<grid, blk>>>(da, dout, m, n);
    cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        int p = i ^ m, want = (p < n ? a[p] : 0) - a[i] + 3 * a[(i | m) % n] + ((i & m) ? 1000 : 0);
        if (o[i] != want) {
            printf("FAIL butterfly n %d block %ux%u m %d: [%d] = %d, expected %d\n", n, blk.x, blk.y, m, i, o[i], want);
            bad++;
            break;
        }
    }
    stored<<<(n + 127) / 128, 128>>>(da, dout, m, n);
    cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        int want = a[(i ^ (m + (i & 1 ? 32 : 0))) % n];
        if (o[i] != want) {
            printf("FAIL stored n %d m %d: [%d] = %d, expected %d\n", n, m, i, o[i], want);
            bad++;
            break;
        }
    }
    cudaFree(da);
    cudaFree(dout);
    free(a), free(o);
}

int main() {
    sort(4096, 256);
    sort(8192, 512);
    sort(1024, 64);
    sort(256, 16);
    int ms[] = {1, 16, 32, 33, 64, 96, 1024, 4096, 0};
    for (int i = 0; i < 9; i++) {
        bfly(8192, dim3(256, 1), ms[i]);
        bfly(8000, dim3(32, 4), ms[i]);
        bfly(5000, dim3(16, 8), ms[i]);
        bfly(3000, dim3(8, 8), ms[i]);
    }
    if (bad) return 1;
    printf("PASS\n");
    return 0;
}
