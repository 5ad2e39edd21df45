// conv1d_const.cu: 1-D convolution as Kirk & Hwu's textbook writes it: the
// mask in __constant__ memory (cudaMemcpyToSymbol), one output per thread,
// N_start_point = i - Mask_Width / 2, ghost elements skipped by a bounds
// test inside the mask loop; mask width 7, 256 threads per block.
// Usage: conv1d_const [Width] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

#define MAX_MASK_WIDTH 10
__constant__ float M[MAX_MASK_WIDTH];

__global__ void convolution_1D_basic_kernel(float *N, float *P, int Mask_Width, int Width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float Pvalue = 0;
    int N_start_point = i - (Mask_Width / 2);
    for (int j = 0; j < Mask_Width; j++) {
        if (N_start_point + j >= 0 && N_start_point + j < Width) {
            Pvalue += N[N_start_point + j] * M[j];
        }
    }
    if (i < Width)
        P[i] = Pvalue;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int Width = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    const int Mask_Width = 7;
    float h_M[MAX_MASK_WIDTH] = {0.0625f, 0.125f, 0.1875f, 0.25f, 0.1875f, 0.125f, 0.0625f};
    float *h_N = (float *)malloc(Width * sizeof(float)), *h_P = (float *)malloc(Width * sizeof(float));
    for (int i = 0; i < Width; i++)
        h_N[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 128.0f - 1.0f;
    float *d_N, *d_P;
    cudaMalloc(&d_N, Width * sizeof(float));
    cudaMalloc(&d_P, Width * sizeof(float));
    cudaMemcpy(d_N, h_N, Width * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(M, h_M, Mask_Width * sizeof(float));
    int blockSize = 256;
    int gridSize = (Width + blockSize - 1) / blockSize;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        convolution_1D_basic_kernel<<<gridSize, blockSize>>>(d_N, d_P, Mask_Width, Width);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_P, d_P, Width * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < Width; i++) {
        double s = 0;
        for (int j = 0; j < Mask_Width; j++) {
            int k = i - Mask_Width / 2 + j;
            if (k >= 0 && k < Width) s += (double)h_N[k] * h_M[j];
        }
        // inputs of 8 bits and masks of 4: every sum is exact in float
        if (h_P[i] != (float)s) {
            if (!bad) printf("FAIL: P[%d] = %g, expected %g\n", i, h_P[i], s);
            bad++;
        }
    }
    if (!bad) printf("PASS\n");
    cudaFree(d_N); cudaFree(d_P);
    free(h_N); free(h_P);
    return bad ? 1 : 0;
}
