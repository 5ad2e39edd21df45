// dot_cbe.cu: the dot product of "CUDA by Example" (chapter 5): a fixed grid
// of at most 32 blocks of 256 threads, each thread's grid-stride sum of
// a[i] * b[i] into __shared__ float cache[threadsPerBlock], the tree
// "while (i != 0) { if (cacheIndex < i) ...; __syncthreads(); i /= 2; }",
// one partial sum per block copied back and added on the host.
// Usage: dot_cbe [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

#define imin(a, b) (a < b ? a : b)

const int threadsPerBlock = 256;

__global__ void dot(float *a, float *b, float *c, int N) {
    __shared__ float cache[threadsPerBlock];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int cacheIndex = threadIdx.x;

    float temp = 0;
    while (tid < N) {
        temp += a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }

    // set the cache values
    cache[cacheIndex] = temp;

    // synchronize threads in this block
    __syncthreads();

    // for reductions, threadsPerBlock must be a power of 2
    int i = blockDim.x / 2;
    while (i != 0) {
        if (cacheIndex < i)
            cache[cacheIndex] += cache[cacheIndex + i];
        __syncthreads();
        i /= 2;
    }

    if (cacheIndex == 0)
        c[blockIdx.x] = cache[0];
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int N = argc > 1 ? atoi(argv[1]) : 33 * 1024;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    const int blocksPerGrid = imin(32, (N + threadsPerBlock - 1) / threadsPerBlock);
    float *a, *b, c, *partial_c;
    float *dev_a, *dev_b, *dev_partial_c;

    a = (float *)malloc(N * sizeof(float));
    b = (float *)malloc(N * sizeof(float));
    partial_c = (float *)malloc(blocksPerGrid * sizeof(float));
    cudaMalloc((void **)&dev_a, N * sizeof(float));
    cudaMalloc((void **)&dev_b, N * sizeof(float));
    cudaMalloc((void **)&dev_partial_c, blocksPerGrid * sizeof(float));

    // 0 or 1: every partial sum is an integer below 2^24, exact in any order
    double gold = 0;
    for (int i = 0; i < N; i++) {
        a[i] = (float)(((unsigned)i * 2654435761u) >> 31);
        b[i] = (float)(((unsigned)i * 2246822519u) >> 31);
        gold += a[i] * b[i];
    }
    cudaMemcpy(dev_a, a, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dev_b, b, N * sizeof(float), cudaMemcpyHostToDevice);

    bool ok = true;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        dot<<<blocksPerGrid, threadsPerBlock>>>(dev_a, dev_b, dev_partial_c, N);
        cudaMemcpy(partial_c, dev_partial_c, blocksPerGrid * sizeof(float), cudaMemcpyDeviceToHost);
        // finish up on the CPU side
        c = 0;
        for (int i = 0; i < blocksPerGrid; i++)
            c += partial_c[i];
        printf("TIME %.4f\n", now_ms() - t0);
        if (c != gold) {
            printf("FAIL: GPU value %.6g, expected %.6g\n", c, gold);
            ok = false;
        }
    }
    if (ok) printf("PASS\n");
    cudaFree(dev_a); cudaFree(dev_b); cudaFree(dev_partial_c);
    free(a); free(b); free(partial_c);
    return ok ? 0 : 1;
}
