// histogram_shared.cu: a 256-bin byte histogram privatized in shared memory,
// as in Kirk & Hwu's textbook and NVIDIA's "GPU Pro Tip: Fast Histograms
// Using Shared Atomics": bins zeroed by a block-stride loop, a grid-stride
// loop of atomicAdd on the shared bins, then atomicAdd of each bin into the
// global histogram. 256 threads, 32 blocks per SM.
// Usage: histogram_shared [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

#define NUM_BINS 256

__global__ void histogram_privatized(const unsigned char *buffer, long size, unsigned int *histo) {
    __shared__ unsigned int histo_s[NUM_BINS];
    for (unsigned int binIdx = threadIdx.x; binIdx < NUM_BINS; binIdx += blockDim.x)
        histo_s[binIdx] = 0u;
    __syncthreads();

    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned int i = tid; i < size; i += blockDim.x * gridDim.x)
        atomicAdd(&(histo_s[buffer[i]]), 1);
    __syncthreads();

    for (unsigned int binIdx = threadIdx.x; binIdx < NUM_BINS; binIdx += blockDim.x)
        atomicAdd(&(histo[binIdx]), histo_s[binIdx]);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    unsigned char *h_buf = (unsigned char *)malloc(n);
    unsigned int h_hist[NUM_BINS], ref[NUM_BINS] = {0};
    // bytes of a skewed distribution (the sum of two uniform halves), like text or pixels
    for (long i = 0; i < n; i++) {
        unsigned int h = (unsigned int)i * 2654435761u;
        h_buf[i] = (unsigned char)(((h >> 24) + ((h >> 8) & 0xff)) >> 1);
        ref[h_buf[i]]++;
    }
    unsigned char *d_buf;
    unsigned int *d_hist;
    cudaMalloc(&d_buf, n);
    cudaMalloc(&d_hist, NUM_BINS * sizeof(unsigned int));
    cudaMemcpy(d_buf, h_buf, n, cudaMemcpyHostToDevice);
    int numSMs;
    cudaDeviceGetAttribute(&numSMs, cudaDevAttrMultiProcessorCount, 0);
    int bad = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        cudaMemset(d_hist, 0, NUM_BINS * sizeof(unsigned int));
        histogram_privatized<<<32 * numSMs, 256>>>(d_buf, n, d_hist);
        cudaMemcpy(h_hist, d_hist, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
        printf("TIME %.4f\n", now_ms() - t0);
        for (int b = 0; b < NUM_BINS; b++)
            if (h_hist[b] != ref[b]) {
                if (!bad) printf("FAIL: bin %d = %u, expected %u\n", b, h_hist[b], ref[b]);
                bad++;
            }
    }
    if (!bad) printf("PASS\n");
    cudaFree(d_buf);
    cudaFree(d_hist);
    free(h_buf);
    return bad ? 1 : 0;
}
