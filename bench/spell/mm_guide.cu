// mm_guide.cu: the CUDA C++ Programming Guide's shared-memory matrix
// multiply spelling: matrices as structs (width, height, stride, elements),
// __device__ GetElement / SetElement / GetSubMatrix, BLOCK_SIZE 16 and
// one element of C per thread. width must be a multiple of BLOCK_SIZE.
// Usage: mm_guide [width] [reps]   (prints TIME ms per repetition, PASS)
#include <iostream>
#include <iomanip>
#include <cstdlib>
#include <cmath>
#include <chrono>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define TILE_WIDTH BLOCK_SIZE

// row-major: M(row, col) = *(M.elements + row * M.stride + col)
typedef struct {
    int width;
    int height;
    int stride;
    float* elements;
} Matrix;

__device__ float GetElement(const Matrix A, int row, int col)
{
    return A.elements[row * A.stride + col];
}

__device__ void SetElement(Matrix A, int row, int col, float value)
{
    A.elements[row * A.stride + col] = value;
}

// the BLOCK_SIZE x BLOCK_SIZE sub-matrix Asub of A, col sub-matrices to the
// right and row sub-matrices down from its upper-left corner
__device__ Matrix GetSubMatrix(Matrix A, int row, int col)
{
    Matrix Asub;
    Asub.width    = BLOCK_SIZE;
    Asub.height   = BLOCK_SIZE;
    Asub.stride   = A.stride;
    Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
    return Asub;
}

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C)
{
    int blockRow = blockIdx.y;
    int blockCol = blockIdx.x;
    // each thread block computes one sub-matrix Csub of C
    Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
    // each thread computes one element of Csub, accumulated in Cvalue
    float Cvalue = 0;
    int row = threadIdx.y;
    int col = threadIdx.x;
    for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
        Matrix Asub = GetSubMatrix(A, blockRow, m);
        Matrix Bsub = GetSubMatrix(B, m, blockCol);
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[row][col] = GetElement(Asub, row, col);
        Bs[row][col] = GetElement(Bsub, row, col);
        __syncthreads();
        for (int e = 0; e < BLOCK_SIZE; ++e)
            Cvalue += As[row][e] * Bs[e][col];
        __syncthreads();
    }
    SetElement(Csub, row, col, Cvalue);
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
    Matrix A = {width, width, width, d_M}, B = {width, width, width, d_N}, C = {width, width, width, d_P};
    dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    for (int r = 0; r < reps; r++) {
        auto t0 = std::chrono::steady_clock::now();
        MatMulKernel<<<dimGrid, dimBlock>>>(A, B, C);
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
