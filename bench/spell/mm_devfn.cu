// mm_devfn.cu: the lecture notes' tiled matrix multiply (mm_notes16.cu) with
// the inner product in a __device__ function (`pValue += rowTimesCol(sM[ty],
// sN, tx)`): a row of the M tile by a pointer, the N tile and a column.
// TILE_WIDTH 16; width must be a multiple of it.
// Usage: mm_devfn [width] [reps]   (prints TIME ms per repetition, PASS)
#include <iostream>
#include <iomanip>
#include <cstdlib>
#include <cmath>
#include <chrono>
#include <cuda_runtime.h>

#define TILE_WIDTH 16

// one element's share of a phase: a row of the M tile times a column of N's
__device__ float rowTimesCol(const float *mRow, float nTile[][TILE_WIDTH], int col)
{
    float sum = 0;
    for (int k = 0; k < TILE_WIDTH; ++k)
        sum += mRow[k] * nTile[k][col];
    return sum;
}

__global__ void MatrixMultiplyKernel(const float* devM, const float* devN,
                                     float* devP, const int width)
{
    __shared__ float sM[TILE_WIDTH][TILE_WIDTH];
    __shared__ float sN[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x; int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    int col = bx * TILE_WIDTH + tx;
    int row = by * TILE_WIDTH + ty;

    // Initialize accumulator to 0
    float pValue = 0;

    // Multiply and add
    for (int m = 0; m < width / TILE_WIDTH; m++) {
        sM[ty][tx] = devM[row * width + (m * TILE_WIDTH + tx)];
        sN[ty][tx] = devN[col + (m * TILE_WIDTH + ty) * width];
        __syncthreads();

        pValue += rowTimesCol(sM[ty], sN, tx);
        __syncthreads();
    }
    devP[row * width + col] = pValue;
}

// C = A * B checked at up to 256 places (every place when width <= 64)
static bool check(const float* A, const float* B, const float* C, int w) {
    int m = w <= 64 ? w * w : 256;
    for (int s = 0; s < m; s++) {
        int r = w <= 64 ? s / w : (int)((s * 7919u) % w), c = w <= 64 ? s % w : (int)((s * 104729u + 13) % w);
        double ref = 0, mag = 0;
        for (int k = 0; k < w; k++) {
            ref += (double)A[(size_t)r * w + k] * B[(size_t)k * w + c];
            mag += std::fabs((double)A[(size_t)r * w + k] * B[(size_t)k * w + c]);
        }
        if (std::fabs(C[(size_t)r * w + c] - ref) > 1e-5 * mag + 1e-6) {
            std::cout << "FAIL: C[" << r << "][" << c << "] = " << C[(size_t)r * w + c]
                      << ", expected " << ref << std::endl;
            return false;
        }
    }
    return true;
}

int main(int argc, char* argv[]) {
    int width = argc > 1 ? std::atoi(argv[1]) : 128;
    int reps = argc > 2 ? std::atoi(argv[2]) : 3;
    if (width % TILE_WIDTH) {
        std::cerr << argv[0] << ": width must be a multiple of " << TILE_WIDTH << std::endl;
        return 2;
    }
    size_t size = (size_t)width * width * sizeof(float);
    float* h_M = new float[(size_t)width * width];
    float* h_N = new float[(size_t)width * width];
    float* h_P = new float[(size_t)width * width];
    for (size_t i = 0; i < (size_t)width * width; i++) {
        h_M[i] = (float)((unsigned(i) * 2654435761u) >> 24) / 128.0f - 1.0f;
        h_N[i] = (float)((unsigned(i) * 2246822519u) >> 24) / 128.0f - 1.0f;
    }
    float *d_M, *d_N, *d_P;
    cudaMalloc((void**)&d_M, size);
    cudaMalloc((void**)&d_N, size);
    cudaMalloc((void**)&d_P, size);
    cudaMemcpy(d_M, h_M, size, cudaMemcpyHostToDevice);
    cudaMemcpy(d_N, h_N, size, cudaMemcpyHostToDevice);
    dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    for (int r = 0; r < reps; r++) {
        auto t0 = std::chrono::steady_clock::now();
        MatrixMultiplyKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);
        cudaDeviceSynchronize();
        auto t1 = std::chrono::steady_clock::now();
        std::cout << "TIME " << std::fixed << std::setprecision(4)
                  << std::chrono::duration<double, std::milli>(t1 - t0).count() << std::endl;
    }
    cudaMemcpy(h_P, d_P, size, cudaMemcpyDeviceToHost);
    bool ok = check(h_M, h_N, h_P, width);
    if (ok) std::cout << "PASS" << std::endl;
    delete[] h_M; delete[] h_N; delete[] h_P;
    cudaFree(d_M); cudaFree(d_N); cudaFree(d_P);
    return ok ? 0 : 1;
}
