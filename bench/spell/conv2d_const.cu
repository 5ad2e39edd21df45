// conv2d_const.cu: 2-D convolution as Kirk & Hwu's textbook (4th ed.) writes
// it: a (2r+1) x (2r+1) filter F in __constant__ memory, one output pixel per
// thread, nested filter loops with the ghost-cell test inside, r = 2,
// 16 x 16 blocks, an n x n image.
// Usage: conv2d_const [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <chrono>
#include <cuda_runtime.h>

#define FILTER_RADIUS 2
__constant__ float F[2 * FILTER_RADIUS + 1][2 * FILTER_RADIUS + 1];

__global__ void convolution_2D_const_mem_kernel(float *N, float *P, int r, int width, int height) {
    int outCol = blockIdx.x * blockDim.x + threadIdx.x;
    int outRow = blockIdx.y * blockDim.y + threadIdx.y;
    float Pvalue = 0.0f;
    for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
        for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
            int inRow = outRow - r + fRow;
            int inCol = outCol - r + fCol;
            if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                Pvalue += F[fRow][fCol] * N[inRow * width + inCol];
            }
        }
    }
    if (outRow < height && outCol < width)
        P[outRow * width + outCol] = Pvalue;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int width = n, height = n;
    const int r = FILTER_RADIUS, fw = 2 * FILTER_RADIUS + 1;
    float h_F[fw][fw];
    for (int i = 0; i < fw; i++)
        for (int j = 0; j < fw; j++)
            h_F[i][j] = (float)((i + 1) * (j + 1)) / 64.0f;   // 6 bits: exact products and sums
    size_t bytes = (size_t)width * height * sizeof(float);
    float *h_N = new float[(size_t)width * height], *h_P = new float[(size_t)width * height];
    for (size_t i = 0; i < (size_t)width * height; i++)
        h_N[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 128.0f - 1.0f;
    float *d_N, *d_P;
    cudaMalloc(&d_N, bytes);
    cudaMalloc(&d_P, bytes);
    cudaMemcpy(d_N, h_N, bytes, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(F, h_F, sizeof(h_F));
    dim3 dimBlock(16, 16);
    dim3 dimGrid((width + 15) / 16, (height + 15) / 16);
    for (int rep = 0; rep < reps; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        convolution_2D_const_mem_kernel<<<dimGrid, dimBlock>>>(d_N, d_P, r, width, height);
        cudaDeviceSynchronize();
        auto t1 = std::chrono::steady_clock::now();
        printf("TIME %.4f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    cudaMemcpy(h_P, d_P, bytes, cudaMemcpyDeviceToHost);
    long bad = 0;
    for (int row = 0; row < height; row++)
        for (int col = 0; col < width; col++) {
            double s = 0;
            for (int i = 0; i < fw; i++)
                for (int j = 0; j < fw; j++) {
                    int y = row - r + i, x = col - r + j;
                    if (y >= 0 && y < height && x >= 0 && x < width) s += (double)h_F[i][j] * h_N[(size_t)y * width + x];
                }
            if (h_P[(size_t)row * width + col] != (float)s) {
                if (!bad) printf("FAIL: P[%d][%d] = %g, expected %g\n", row, col, h_P[(size_t)row * width + col], s);
                bad++;
            }
        }
    if (!bad) printf("PASS\n");
    cudaFree(d_N); cudaFree(d_P);
    delete[] h_N; delete[] h_P;
    return bad ? 1 : 0;
}
