// scan_kogge_stone.cu: the inclusive scan of Kirk & Hwu's textbook: the
// Kogge-Stone (Hillis-Steele) section scan with a temporary and two
// barriers per step, SECTION_SIZE = blockDim.x = 1024, unsigned indices; the
// hierarchical scan around it (the last element of each section into S, S
// scanned by the same kernel, S[b - 1] added to section b).
// Usage: scan_kogge_stone [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

#define SECTION_SIZE 1024

__global__ void Kogge_Stone_scan_kernel(float *X, float *Y, float *S, unsigned int InputSize) {
    __shared__ float XY[SECTION_SIZE];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < InputSize) {
        XY[threadIdx.x] = X[i];
    } else {
        XY[threadIdx.x] = 0.0f;
    }
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float temp;
        if (threadIdx.x >= stride)
            temp = XY[threadIdx.x] + XY[threadIdx.x - stride];
        __syncthreads();
        if (threadIdx.x >= stride)
            XY[threadIdx.x] = temp;
    }
    if (i < InputSize) {
        Y[i] = XY[threadIdx.x];
    }
    __syncthreads();
    if (S != NULL && threadIdx.x == blockDim.x - 1) {
        S[blockIdx.x] = XY[SECTION_SIZE - 1];
    }
}

__global__ void add_section_sums(float *Y, float *S, unsigned int InputSize) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < InputSize) {
        Y[i] += S[blockIdx.x - 1];
    }
}

// Y = inclusive scan of X (n elements), with S a scratch of the section sums
static void scan(float *X, float *Y, unsigned int n, float **S) {
    unsigned int blocks = (n + SECTION_SIZE - 1) / SECTION_SIZE;
    if (blocks == 1) {
        Kogge_Stone_scan_kernel<<<1, SECTION_SIZE>>>(X, Y, NULL, n);
        return;
    }
    Kogge_Stone_scan_kernel<<<blocks, SECTION_SIZE>>>(X, Y, S[0], n);
    scan(S[0], S[0], blocks, S + 1);
    add_section_sums<<<blocks, SECTION_SIZE>>>(Y, S[0], n);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    unsigned int n = argc > 1 ? (unsigned)atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    float *h_X = (float *)malloc(n * sizeof(float)), *h_Y = (float *)malloc(n * sizeof(float));
    // 0..3: every prefix is an integer below 2^24 (n < 2^23), exact in any order
    for (unsigned int i = 0; i < n; i++)
        h_X[i] = (float)((i * 2654435761u) >> 30);
    float *d_X, *d_Y, *S[8];
    cudaMalloc(&d_X, n * sizeof(float));
    cudaMalloc(&d_Y, n * sizeof(float));
    unsigned int m = n;
    for (int l = 0; l < 8; l++) {
        m = (m + SECTION_SIZE - 1) / SECTION_SIZE;
        cudaMalloc(&S[l], m * sizeof(float));
    }
    cudaMemcpy(d_X, h_X, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        scan(d_X, d_Y, n, S);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_Y, d_Y, n * sizeof(float), cudaMemcpyDeviceToHost);
    float acc = 0;
    unsigned int bad = 0;
    for (unsigned int i = 0; i < n; i++) {
        acc += h_X[i];
        if (h_Y[i] != acc) {
            if (!bad) printf("FAIL: Y[%u] = %g, expected %g\n", i, h_Y[i], acc);
            bad++;
        }
    }
    if (!bad) printf("PASS\n");
    for (int l = 0; l < 8; l++) cudaFree(S[l]);
    cudaFree(d_X); cudaFree(d_Y);
    free(h_X); free(h_Y);
    return bad ? 1 : 0;
}
